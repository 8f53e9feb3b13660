import { inflateEntries, readZipDirectory, ZipError } from '../../shared/zip.js';
import { LIMITS, type PriceListFailure } from './model.js';

// An XLSX is a zip. exceljs inflates all of it into memory without a limit, so before handing
// it over the shared guard (src/shared/zip.ts) inflates each entry once with a hard output cap:
// a small file that expands to gigabytes (a zip bomb) is refused as too large instead of
// exhausting memory.

export type ZipCheck = { ok: true; entryNames: string[] } | { ok: false; failure: PriceListFailure };

export function checkZip(bytes: Uint8Array): ZipCheck {
  try {
    const entries = readZipDirectory(bytes);
    if (entries.length > LIMITS.maxZipEntries) return tooLarge(`it holds ${entries.length} files`);
    inflateEntries(bytes, entries, LIMITS.maxUnzippedBytes);
    return { ok: true, entryNames: entries.map((entry) => entry.name) };
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    if (error.kind === 'too_large')
      return tooLarge(`it expands to more than ${LIMITS.maxUnzippedBytes / 1024 / 1024} MiB`);
    return { ok: false, failure: { code: 'unreadable', message: `the workbook is damaged (${error.detail})` } };
  }
}

function tooLarge(detail: string): ZipCheck {
  return { ok: false, failure: { code: 'too_large', message: `the workbook is too large to read: ${detail}` } };
}
