import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { en } from '../../../src/web/texts/en/index.js';
import { LANGUAGE_COOKIE, requestLocale, requestTexts, textsFor } from '../../../src/web/texts/index.js';
import { nb } from '../../../src/web/texts/nb/index.js';

// The Norwegian catalog against the English one (complete by definition), and how a request's
// language is chosen: the person's cookie, else the browser's Accept-Language, else English.

type Tree = Record<string, unknown>;
const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

// Every leaf path of English with what Norwegian has there: missing, or of another shape (a function
// where English has one, a string where English has one).
function differences(english: Tree, norwegian: Tree | undefined, path: string[] = []) {
  const missing: string[] = [];
  const wrongShape: string[] = [];
  for (const [key, value] of Object.entries(english)) {
    const here = [...path, key];
    const other = norwegian?.[key];
    if (isTree(value)) {
      const inner = differences(value, isTree(other) ? other : undefined, here);
      missing.push(...inner.missing);
      wrongShape.push(...inner.wrongShape);
    } else if (other === undefined) missing.push(here.join('.'));
    else if (typeof other !== typeof value)
      wrongShape.push(`${here.join('.')} (${typeof value} in en, ${typeof other} in nb)`);
  }
  return { missing, wrongShape };
}

function requestWith(headers: Record<string, string>): Koa.Context {
  const request = new IncomingMessage(new Socket());
  request.headers = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return new Koa().createContext(request, new ServerResponse(request));
}

describe('the Norwegian texts', () => {
  const { missing, wrongShape } = differences(en, nb);

  it('have a value for every English key (the list names what is still missing)', () => {
    const byArea = new Map<string, number>();
    for (const path of missing) byArea.set(path.split('.')[0]!, (byArea.get(path.split('.')[0]!) ?? 0) + 1);
    const summary = [...byArea].map(([area, count]) => `${area}: ${count} missing`).join('; ');
    expect(missing, `Norwegian lacks ${missing.length} texts (${summary}):\n${missing.join('\n')}`).toEqual([]);
  });

  it('are functions where English is a function, and strings where English is a string', () => {
    expect(wrongShape).toEqual([]);
  });

  it('give sentences with numbers in Norwegian word order and plurals', () => {
    const t = textsFor('nb');
    expect(t.overview.otherSuppliers(1)).toBe('1 annen leverandør');
    expect(t.overview.otherSuppliers(3)).toBe('3 andre leverandører');
    expect(t.integrations.suppliers(2)).toBe('2 leverandører');
    expect(t.shell.nav.invoices).toBe('Fakturaer');
  });

  it('escape the values of a sentence with markup, in both languages', () => {
    expect(textsFor('en').auth.forEmail('<a@b>')).toBe('For <strong>&lt;a@b&gt;</strong>.');
    expect(textsFor('nb').auth.invited('A & B', 'write', 'x@y')).toBe(
      'Du er invitert til <strong>A &amp; B</strong> med rollen write, som <strong>x@y</strong>.',
    );
  });
});

describe("a request's language", () => {
  it('is English when nothing says otherwise', () => {
    expect(requestLocale(requestWith({}))).toBe('en');
    expect(requestLocale(requestWith({ 'Accept-Language': 'de-DE,fr;q=0.8' }))).toBe('en');
  });

  it("follows the browser's Accept-Language: nb, nn and no are Norwegian (bokmål)", () => {
    for (const header of ['nb-NO', 'nb', 'nn-NO,en;q=0.5', 'no', 'de;q=0.9,no;q=0.8'])
      expect(requestLocale(requestWith({ 'Accept-Language': header })), header).toBe('nb');
    expect(requestLocale(requestWith({ 'Accept-Language': 'en-GB,nb;q=0.5' }))).toBe('en');
  });

  it('follows the chosen cookie over Accept-Language', () => {
    expect(requestLocale(requestWith({ Cookie: `a=1; ${LANGUAGE_COOKIE}=nb`, 'Accept-Language': 'en-GB' }))).toBe('nb');
    expect(requestLocale(requestWith({ Cookie: `${LANGUAGE_COOKIE}=en`, 'Accept-Language': 'nb-NO' }))).toBe('en');
  });

  it('ignores a cookie that names no language of the application', () => {
    expect(requestLocale(requestWith({ Cookie: `${LANGUAGE_COOKIE}=sv`, 'Accept-Language': 'nb' }))).toBe('nb');
    expect(requestLocale(requestWith({ Cookie: `${LANGUAGE_COOKIE}=sv` }))).toBe('en');
  });

  it("is decided once per request, and gives that language's texts", () => {
    const ctx = requestWith({ 'Accept-Language': 'nb' });
    expect(requestTexts(ctx).shell.signOut).toBe('Logg ut');
    ctx.request.headers['accept-language'] = 'en';
    expect(requestLocale(ctx)).toBe('nb');
  });
});
