/**
 * Decides which reader gets the bytes. The content decides where it can (magic numbers, the
 * parts inside a ZIP); the file name and MIME type only tell CSV from plain text and turn
 * "named .pdf but is not a PDF" into a clear message.
 */
import {
  failed,
  type DocumentFormat,
  type ExtractionFailure,
  type ExtractionInput,
} from '../../../documents/extraction-model.js';
import { decodeText, looksLikeText, type DecodedText } from './text.js';
import { isZip, readZipDirectory, type ZipEntry } from './zip.js';

export type DetectedDocument =
  | { format: 'pdf' }
  | { format: 'docx' | 'xlsx'; entries: ZipEntry[] }
  | { format: 'csv' | 'text'; decoded: DecodedText };

/** Readers accept a PDF header anywhere in the first KiB, after junk some mailers prepend. */
const PDF_HEADER_WINDOW = 1024;
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Office stores a password-protected DOCX/XLSX as an OLE2 file with this stream. */
const ENCRYPTION_INFO_UTF16 = Buffer.from('EncryptionInfo', 'utf16le');
const BINARY_MAGICS: ReadonlyArray<{ bytes: number[]; name: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], name: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], name: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], name: 'a GIF image' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], name: 'a TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], name: 'a TIFF image' },
  { bytes: [0x7b, 0x5c, 0x72, 0x74, 0x66], name: 'an RTF document' },
];
const DECLARED_FORMATS: ReadonlyArray<{ format: DocumentFormat; extensions: string[]; mimeTypes: string[] }> = [
  { format: 'pdf', extensions: ['pdf'], mimeTypes: ['application/pdf'] },
  {
    format: 'docx',
    extensions: ['docx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  {
    format: 'xlsx',
    extensions: ['xlsx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  },
  {
    format: 'csv',
    extensions: ['csv', 'tsv'],
    mimeTypes: ['text/csv', 'text/tab-separated-values', 'application/csv'],
  },
  { format: 'text', extensions: ['txt', 'text', 'md'], mimeTypes: ['text/plain', 'text/markdown'] },
];

export function detectDocument(input: ExtractionInput): DetectedDocument | ExtractionFailure {
  const { bytes } = input;
  const declared = declaredFormat(input.fileName, input.mimeType);
  if (hasPdfHeader(bytes)) return { format: 'pdf' };
  if (isZip(bytes)) return detectOfficeDocument(bytes);
  if (startsWithBytes(bytes, OLE2_MAGIC)) return legacyOfficeFailure(bytes);
  const binary = BINARY_MAGICS.find((magic) => startsWithBytes(bytes, magic.bytes));
  if (binary)
    return failed(
      'unsupported_format',
      `The file is ${binary.name}; agreement documents are read from PDF, DOCX, XLSX, CSV or plain text.`,
    );
  if (declared === 'pdf' || declared === 'docx' || declared === 'xlsx') {
    return failed(
      'unreadable',
      `The file is named or typed as ${declared.toUpperCase()} but its content is not a ${declared.toUpperCase()} file.`,
    );
  }
  return detectText(bytes, declared);
}

/** Format claimed by the extension, else by the MIME type; undefined when neither is known. */
export function declaredFormat(fileName: string, mimeType: string): DocumentFormat | undefined {
  const extension = fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
  const mime = mimeType.toLowerCase().split(';')[0]!.trim();
  return (
    DECLARED_FORMATS.find((entry) => entry.extensions.includes(extension))?.format ??
    DECLARED_FORMATS.find((entry) => entry.mimeTypes.includes(mime))?.format
  );
}

export function hasPdfHeader(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PDF_HEADER_WINDOW)).includes(
    '%PDF-',
    0,
    'latin1',
  );
}

function detectOfficeDocument(bytes: Uint8Array): DetectedDocument | ExtractionFailure {
  const entries = readZipDirectory(bytes);
  const names = new Set(entries.map((entry) => entry.name.replace(/^\//, '')));
  if (names.has('word/document.xml')) return { format: 'docx', entries };
  if (names.has('xl/workbook.xml')) return { format: 'xlsx', entries };
  const openDocument = names.has('content.xml') ? ' (it looks like an OpenDocument file; save it as DOCX or XLSX)' : '';
  return failed(
    'unsupported_format',
    `The file is a ZIP archive but neither a DOCX nor an XLSX document${openDocument}.`,
  );
}

function legacyOfficeFailure(bytes: Uint8Array): ExtractionFailure {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPTION_INFO_UTF16)) {
    return failed('encrypted', 'The Office document is password protected; upload it without a password.');
  }
  return failed(
    'unsupported_format',
    'The file is a legacy Word/Excel 97-2003 document (.doc/.xls); save it as DOCX or XLSX.',
  );
}

function detectText(bytes: Uint8Array, declared: DocumentFormat | undefined): DetectedDocument | ExtractionFailure {
  const decoded = decodeText(bytes);
  if (looksLikeText(decoded.text)) return { format: declared === 'csv' ? 'csv' : 'text', decoded };
  if (declared === 'csv' || declared === 'text') {
    return failed('unreadable', 'The file is named or typed as text but holds binary data.');
  }
  return failed('unsupported_format', 'The file is not PDF, DOCX, XLSX, CSV or plain text.');
}

function startsWithBytes(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}
