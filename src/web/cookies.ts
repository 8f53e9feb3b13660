import type { Context } from 'koa';

// Cookies written by hand: Koa's `cookies.set` refuses `Secure` on a request it does not see as
// https (a TLS proxy without TRUST_PROXY), yet the browser sees https. `Secure` follows the
// application's public address (APP_BASE_URL) instead.

export interface CookieOptions {
  secure: boolean;
  maxAgeSeconds?: number;
  path?: string;
}

export function setCookie(ctx: Context, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  ctx.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(ctx: Context, name: string, options: CookieOptions): void {
  setCookie(ctx, name, '', { ...options, maxAgeSeconds: 0 });
}

// One cookie's value from the Cookie header, read in one pass (no regular expression).
export function readCookie(ctx: Context, name: string): string | null {
  const header = ctx.get('Cookie');
  if (!header || header.length > 16_384) return null;
  for (const pair of header.split(';')) {
    const index = pair.indexOf('=');
    if (index < 0) continue;
    if (pair.slice(0, index).trim() === name) return pair.slice(index + 1).trim() || null;
  }
  return null;
}
