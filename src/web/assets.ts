import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Context } from 'koa';

// Static assets under /app/assets/, read once at start. Each is served under a fingerprinted name
// (app.<hash>.css), so it is cached for a year and a new version is a new URL.

interface Asset {
  path: string;
  type: string;
  body: Buffer;
  etag: string;
}

const require = createRequire(import.meta.url);
const SOURCES: Record<string, { file: string; type: string }> = {
  'app.css': { file: fileURLToPath(new URL('./assets/app.css', import.meta.url)), type: 'text/css; charset=utf-8' },
  'app.js': {
    file: fileURLToPath(new URL('./assets/app.js', import.meta.url)),
    type: 'text/javascript; charset=utf-8',
  },
  'htmx.js': { file: require.resolve('htmx.org/dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
};

function load(): { byName: Map<string, Asset>; byPath: Map<string, Asset> } {
  const byName = new Map<string, Asset>();
  const byPath = new Map<string, Asset>();
  for (const [name, source] of Object.entries(SOURCES)) {
    const body = readFileSync(source.file);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const dot = name.lastIndexOf('.');
    const path = `/app/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
    const asset = { path, type: source.type, body, etag: `"${hash}"` };
    byName.set(name, asset);
    byPath.set(path, asset);
  }
  return { byName, byPath };
}

const assets = load();

// The URL of an asset by its plain name: assetUrl('app.css') → /app/assets/app.1a2b3c4d5e6f.css
export function assetUrl(name: string): string {
  const asset = assets.byName.get(name);
  if (!asset) throw new Error(`no asset ${name}`);
  return asset.path;
}

export function serveAsset(ctx: Context): boolean {
  const asset = assets.byPath.get(ctx.path);
  if (!asset || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.set('ETag', asset.etag);
  ctx.type = asset.type;
  if (ctx.get('If-None-Match') === asset.etag) {
    ctx.status = 304;
    return true;
  }
  ctx.body = asset.body;
  return true;
}
