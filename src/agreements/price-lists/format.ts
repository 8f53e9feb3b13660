import { readZipDirectory } from '../../shared/zip.js';
import { hasUtf16Bom, startsWith } from './encoding.js';
import type { PriceListFailure } from './model.js';

// The content decides the format; the file name only makes a failure message more helpful.

export type DetectedFormat = { format: 'csv' | 'xlsx' | 'docx' | 'pdf' } | { failure: PriceListFailure };

const SIGNATURES: { bytes: number[]; failure: PriceListFailure }[] = [
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    failure: {
      code: 'unsupported_format',
      message:
        'this is an old Excel .xls workbook or a password-protected workbook; save it as .xlsx without a password, or as CSV',
    },
  },
];

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46];
const SNIFF_BYTES = 8192;

export function detectFormat(bytes: Uint8Array, fileName: string): DetectedFormat {
  if (bytes.length === 0) return { failure: { code: 'unreadable', message: 'the file is empty' } };
  if (startsWith(bytes, ZIP_SIGNATURE)) return { format: isWordDocument(bytes) ? 'docx' : 'xlsx' };
  if (startsWith(bytes, PDF_SIGNATURE)) return { format: 'pdf' };
  const known = SIGNATURES.find((signature) => startsWith(bytes, signature.bytes));
  if (known !== undefined) return { failure: known.failure };
  if (hasUtf16Bom(bytes) || looksLikeText(bytes.subarray(0, SNIFF_BYTES))) return { format: 'csv' };
  if (/\.xlsx$/i.test(fileName))
    return {
      failure: {
        code: 'unreadable',
        message: `'${fileName}' is named .xlsx but is not an Excel workbook; it may be damaged`,
      },
    };
  return { failure: { code: 'unsupported_format', message: 'the file is neither CSV, XLSX, DOCX nor PDF' } };
}

// A zip holding word/document.xml is a Word document; the directory alone says so (a damaged
// zip is left to the workbook reader, whose messages explain it).
function isWordDocument(bytes: Uint8Array): boolean {
  try {
    return readZipDirectory(bytes).some((entry) => entry.name === 'word/document.xml');
  } catch {
    return false;
  }
}

// Text has no NUL bytes and few control characters; random or binary bytes have plenty.
function looksLikeText(sample: Uint8Array): boolean {
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) controls++;
  }
  return controls <= sample.length / 100;
}
