import type { Context } from 'koa';
import { readCookie, setCookie } from '../cookies.js';
import { en } from './en/index.js';
import { nb } from './nb/index.js';
import type { DeepPartial, Texts } from './types.js';

// The application's words, per request: a page or view never holds a word of its own, it reads
// `t` (the request's texts), so a language is added as a folder beside `en/` and a line below,
// without touching the pages. The language is the person's choice (a cookie set from the
// settings page), else the browser's Accept-Language, else English.

export type { Texts } from './types.js';

export const LOCALES = ['en', 'nb'] as const;
export type Locale = (typeof LOCALES)[number];

// The language's own name, for the picker.
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', nb: 'Norsk (bokmål)' };

// A language's texts with English where a key is missing; merged once, at load.
function withEnglishFallback<T>(english: T, partial: DeepPartial<T> | undefined): T {
  if (partial === undefined) return english;
  if (typeof english !== 'object' || english === null || Array.isArray(english)) return partial as T;
  const merged: Record<string, unknown> = { ...(english as Record<string, unknown>) };
  for (const [key, value] of Object.entries(partial as Record<string, unknown>)) {
    merged[key] = withEnglishFallback((english as Record<string, unknown>)[key], value);
  }
  return merged as T;
}

const TEXTS: Record<Locale, Texts> = { en, nb: withEnglishFallback<Texts>(en, nb) };

export function textsFor(locale: Locale): Texts {
  return TEXTS[locale];
}

export const LANGUAGE_COOKIE = 'ics_lang';

// The person's choice lasts a year in this browser; choosing again renews it. `secure` as the
// application's other cookies (isSecureApp, src/web/session.ts).
const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

export function writeLanguageCookie(ctx: Context, locale: Locale, secure: boolean): void {
  setCookie(ctx, LANGUAGE_COOKIE, locale, { secure, path: '/app', maxAgeSeconds: LANGUAGE_COOKIE_SECONDS });
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

// Norwegian browsers say nb, nn or no; the application has bokmål for all three.
const BROWSER_LANGUAGES: Record<string, Locale> = { en: 'en', nb: 'nb', nn: 'nb', no: 'nb' };

// The request's language, decided once per request.
export function requestLocale(ctx: Context): Locale {
  const state = ctx.state as { locale?: Locale };
  state.locale ??= localeOf(ctx);
  return state.locale;
}

export function requestTexts(ctx: Context): Texts {
  return textsFor(requestLocale(ctx));
}

function localeOf(ctx: Context): Locale {
  const chosen = readCookie(ctx, LANGUAGE_COOKIE);
  if (isLocale(chosen)) return chosen;
  const accepted = ctx.acceptsLanguages(Object.keys(BROWSER_LANGUAGES));
  return (typeof accepted === 'string' && BROWSER_LANGUAGES[accepted]) || 'en';
}
