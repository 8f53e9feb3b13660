import { inflateRawSync } from 'node:zlib';
import { LIMITS, type PriceListFailure } from './model.js';

// An XLSX is a zip. exceljs inflates all of it into memory without a limit, so before handing
// it over we inflate each entry once with a hard output cap: a small file that expands to
// gigabytes (a zip bomb) is refused as too large instead of exhausting memory. Declared sizes
// are not trusted; the inflater's own limit is.

export type ZipCheck = { ok: true; entryNames: string[] } | { ok: false; failure: PriceListFailure };

interface CentralEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localHeaderOffset: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;

const damaged = (detail: string): ZipCheck => ({ ok: false, failure: { code: 'unreadable', message: `the workbook is damaged (${detail})` } });

export function checkZip(bytes: Uint8Array): ZipCheck {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = readCentralDirectory(view);
  if (typeof entries === 'string') return damaged(entries);
  if (entries.length > LIMITS.maxZipEntries) return tooLarge(`it holds ${entries.length} files`);
  let budget: number = LIMITS.maxUnzippedBytes;
  for (const entry of entries) {
    const inflated = inflatedSize(bytes, view, entry, budget);
    if (typeof inflated === 'string') return inflated === 'too_large' ? tooLarge(`it expands to more than ${LIMITS.maxUnzippedBytes / 1024 / 1024} MiB`) : damaged(inflated);
    budget -= inflated;
  }
  return { ok: true, entryNames: entries.map((entry) => entry.name) };
}

function tooLarge(detail: string): ZipCheck {
  return { ok: false, failure: { code: 'too_large', message: `the workbook is too large to read: ${detail}` } };
}

function readCentralDirectory(view: DataView): CentralEntry[] | string {
  const end = findEndOfCentralDirectory(view);
  if (end === -1) return 'no zip directory';
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries: CentralEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== CENTRAL_FILE_HEADER) return 'broken zip directory';
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const nameBytes = new Uint8Array(view.buffer, view.byteOffset + offset + 46, Math.min(nameLength, view.byteLength - offset - 46));
    entries.push({
      name: new TextDecoder().decode(nameBytes),
      flags: view.getUint16(offset + 8, true),
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

// The end record sits in the last 22 bytes plus an optional comment of up to 64 KiB.
function findEndOfCentralDirectory(view: DataView): number {
  const earliest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let offset = view.byteLength - 22; offset >= earliest; offset--) {
    if (view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  return -1;
}

/** Bytes the entry inflates to, 'too_large' past the budget, or what is wrong with it. */
function inflatedSize(bytes: Uint8Array, view: DataView, entry: CentralEntry, budget: number): number | string {
  if ((entry.flags & ENCRYPTED_FLAG) !== 0) return `'${entry.name}' is encrypted`;
  const local = entry.localHeaderOffset;
  if (local + 30 > view.byteLength || view.getUint32(local, true) !== LOCAL_FILE_HEADER) return `'${entry.name}' is missing`;
  const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const data = bytes.subarray(dataStart, dataStart + entry.compressedSize);
  if (data.length !== entry.compressedSize) return `'${entry.name}' is cut short`;
  if (entry.method === STORED) return entry.compressedSize > budget ? 'too_large' : entry.compressedSize;
  if (entry.method !== DEFLATED) return `'${entry.name}' uses an unknown compression`;
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).length;
  } catch (error) {
    return error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : `'${entry.name}' does not inflate`;
  }
}
