/**
 * Just enough of the ZIP format to look inside DOCX/XLSX before a library unpacks them: which
 * parts exist and how large everything really becomes when inflated. Used by the price-list
 * reader and the document extraction alike.
 *
 * jszip (used by mammoth and exceljs) inflates each part completely before it compares the size
 * with the one declared, so a zip bomb, or a part that lies about its size, would fill the heap
 * first. Inflating here with node:zlib's `maxOutputLength` stops at the budget instead. Declared
 * sizes are not trusted; the inflater's own limit is.
 */
import { inflateRawSync } from 'node:zlib';

/** `damaged`: not a readable archive (detail says why); `too_large`: past the unpacking budget. */
export class ZipError extends Error {
  constructor(
    readonly kind: 'damaged' | 'too_large',
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ZipError';
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA_FIELD = 0x0001;
/** The end record is 22 bytes plus a comment of up to 65535 bytes. */
const END_SEARCH_WINDOW = 22 + 0xffff;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;
/** A field holding this value says "the real value is in the ZIP64 extra field". */
const ZIP64_MARKER_32 = 0xffffffff;
const ZIP64_MARKER_16 = 0xffff;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && view(bytes).getUint32(0, true) === LOCAL_HEADER;
}

/** The central directory; throws a `damaged` ZipError when the archive is damaged. */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const data = view(bytes);
  const { entryCount, directoryOffset } = readEndOfDirectory(data);
  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < entryCount; index += 1) {
    requireSignature(data, offset, DIRECTORY_ENTRY, 46);
    const nameLength = data.getUint16(offset + 28, true);
    const extraLength = data.getUint16(offset + 30, true);
    const commentLength = data.getUint16(offset + 32, true);
    const name = new TextDecoder().decode(slice(bytes, offset + 46, nameLength));
    const extra = slice(bytes, offset + 46 + nameLength, extraLength);
    entries.push(withZip64Sizes(readEntryFields(data, offset, name), extra));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function readEntryFields(data: DataView, offset: number, name: string): ZipEntry {
  return {
    name,
    flags: data.getUint16(offset + 8, true),
    method: data.getUint16(offset + 10, true),
    compressedSize: data.getUint32(offset + 20, true),
    uncompressedSize: data.getUint32(offset + 24, true),
    localHeaderOffset: data.getUint32(offset + 42, true),
  };
}

/** ZIP64 stores the fields marked 0xFFFFFFFF, in this order, in extra field 0x0001. */
function withZip64Sizes(entry: ZipEntry, extra: Uint8Array): ZipEntry {
  const fields = (['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const).filter(
    (field) => entry[field] === ZIP64_MARKER_32,
  );
  if (fields.length === 0) return entry;
  const zip64 = findExtraField(extra, ZIP64_EXTRA_FIELD);
  if (!zip64 || zip64.byteLength < fields.length * 8) throw damaged(`entry ${entry.name} has no ZIP64 sizes`);
  const result = { ...entry };
  fields.forEach((field, index) => {
    result[field] = Number(view(zip64).getBigUint64(index * 8, true));
  });
  return result;
}

function findExtraField(extra: Uint8Array, id: number): Uint8Array | undefined {
  const data = view(extra);
  for (let offset = 0; offset + 4 <= extra.byteLength;) {
    const size = data.getUint16(offset + 2, true);
    if (data.getUint16(offset, true) === id) return slice(extra, offset + 4, size);
    offset += 4 + size;
  }
  return undefined;
}

function readEndOfDirectory(data: DataView): { entryCount: number; directoryOffset: number } {
  const end = findEndOfDirectory(data);
  const entryCount = data.getUint16(end + 10, true);
  const directoryOffset = data.getUint32(end + 16, true);
  if (entryCount !== ZIP64_MARKER_16 && directoryOffset !== ZIP64_MARKER_32) return { entryCount, directoryOffset };
  return readZip64EndOfDirectory(data, end);
}

function findEndOfDirectory(data: DataView): number {
  for (let offset = data.byteLength - 22; offset >= Math.max(0, data.byteLength - END_SEARCH_WINDOW); offset -= 1) {
    if (data.getUint32(offset, true) === END_OF_DIRECTORY) return offset;
  }
  throw damaged('no zip directory');
}

function readZip64EndOfDirectory(data: DataView, end: number): { entryCount: number; directoryOffset: number } {
  const locator = end - 20;
  requireSignature(data, locator, ZIP64_LOCATOR, 20);
  const record = Number(data.getBigUint64(locator + 8, true));
  requireSignature(data, record, ZIP64_END_OF_DIRECTORY, 56);
  return {
    entryCount: Number(data.getBigUint64(record + 32, true)),
    directoryOffset: Number(data.getBigUint64(record + 48, true)),
  };
}

function requireSignature(data: DataView, offset: number, signature: number, length: number): void {
  if (offset < 0 || offset + length > data.byteLength || data.getUint32(offset, true) !== signature) {
    throw damaged('the central directory is damaged');
  }
}

/**
 * Inflates every entry, handing each one's content to `visit`, and throws a `too_large` ZipError
 * once the total would pass `maxUnpackedBytes` (a `damaged` one for data that does not inflate).
 * Costs one extra inflate of the archive, small next to what the libraries do afterwards.
 */
export function inflateEntries(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  maxUnpackedBytes: number,
  visit: (entry: ZipEntry, content: Buffer) => void = () => {},
): void {
  const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (declared > maxUnpackedBytes) throw tooLarge();
  let total = 0;
  for (const entry of entries) {
    const content = inflateEntry(bytes, entry, maxUnpackedBytes - total);
    if (content === null) throw tooLarge();
    total += content.byteLength;
    if (total > maxUnpackedBytes) throw tooLarge();
    visit(entry, content);
  }
}

/** The entry's content, or null when it inflates to more than `budget` bytes. */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry, budget: number): Buffer | null {
  if ((entry.flags & ENCRYPTED_FLAG) !== 0) throw damaged(`'${entry.name}' is encrypted`);
  const compressed = compressedData(bytes, entry);
  if (entry.method === STORED)
    return compressed.byteLength > budget
      ? null
      : Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength);
  if (entry.method !== DEFLATED) throw damaged(`entry ${entry.name} uses compression method ${entry.method}`);
  try {
    // One byte over the budget is enough to know the budget is exceeded.
    return inflateRawSync(compressed, { maxOutputLength: Math.max(1, budget + 1) });
  } catch (error) {
    // zlib's RangeError means "output passed maxOutputLength".
    if (error instanceof RangeError) return null;
    throw damaged(`entry ${entry.name} does not inflate`);
  }
}

function compressedData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = view(bytes);
  requireSignature(data, entry.localHeaderOffset, LOCAL_HEADER, 30);
  const start =
    entry.localHeaderOffset +
    30 +
    data.getUint16(entry.localHeaderOffset + 26, true) +
    data.getUint16(entry.localHeaderOffset + 28, true);
  if (start + entry.compressedSize > bytes.byteLength) throw damaged(`entry ${entry.name} is cut off`);
  return bytes.subarray(start, start + entry.compressedSize);
}

function slice(bytes: Uint8Array, offset: number, length: number): Uint8Array {
  if (offset + length > bytes.byteLength) throw damaged('a record runs past the end of the file');
  return bytes.subarray(offset, offset + length);
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function damaged(detail: string): ZipError {
  return new ZipError('damaged', detail);
}

function tooLarge(): ZipError {
  return new ZipError('too_large', 'past the unpacking budget');
}
