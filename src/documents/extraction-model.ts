/** The result types of agreement document extraction: plain JSON, safe to pass between processes. */

export type DocumentFormat = 'pdf' | 'docx' | 'xlsx' | 'csv' | 'text';

export type ExtractionFailureCode = 'unsupported_format' | 'unreadable' | 'no_text' | 'too_large' | 'encrypted';

/**
 * A slice of the document's whole text: `wholeText.slice(startOffset, endOffset) === text`.
 * The whole text is every paragraph in reading order separated by a blank line ("\n\n"), so what
 * lies between two consecutive passages is always whitespace.
 */
export interface Passage {
  /** 0-based position in reading order. */
  index: number;
  text: string;
  /** 1-based PDF page; null for other formats. */
  page: number | null;
  /** Worksheet name (XLSX); null for other formats. */
  sheet: string | null;
  startOffset: number;
  endOffset: number;
}

export interface ExtractedText {
  kind: 'text';
  format: DocumentFormat;
  passages: Passage[];
  /** True when a limit (characters, pages, time) stopped extraction before the end. */
  truncated: boolean;
  /** Pages in the PDF (all of them, also those past the page limit); null for other formats. */
  pageCount: number | null;
  /** Length of the whole text the offsets point into. */
  characterCount: number;
}

export interface ExtractionFailure {
  kind: 'failed';
  code: ExtractionFailureCode;
  message: string;
}

export type ExtractionResult = ExtractedText | ExtractionFailure;

export interface ExtractionInput {
  bytes: Uint8Array;
  fileName: string;
  mimeType: string;
}

export function failed(code: ExtractionFailureCode, message: string): ExtractionFailure {
  return { kind: 'failed', code, message };
}

/** Thrown inside an extractor to end with a specific failure instead of a generic `unreadable`. */
export class ExtractionError extends Error {
  constructor(
    readonly code: ExtractionFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}
