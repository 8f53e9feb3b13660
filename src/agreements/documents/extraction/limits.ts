import { PDF_MEMORY_LIMIT_BYTES } from '../../../shared/pdfjs.js';

/**
 * Every bound that keeps one hostile or oversized document from exhausting memory or time.
 * Tests pass smaller values through `extractWithLimits`; production uses DEFAULT_LIMITS.
 */
export interface ExtractionLimits {
  /** Larger uploads are refused before any parsing. */
  maxInputBytes: number;
  /** Text beyond this is not extracted; the result says `truncated: true`. */
  maxCharacters: number;
  /** Pages after this are not read; the result says `truncated: true`. */
  maxPdfPages: number;
  /** Wall-clock budget for one document. */
  timeLimitMs: number;
  /** Total unpacked size of a DOCX/XLSX archive: a small zip can inflate to gigabytes. */
  maxUnpackedBytes: number;
  /** Element nesting in one XML part of a DOCX/XLSX; mammoth's recursion overflows the stack near 2,000. */
  maxXmlDepth: number;
  /** Resident memory of the helper process that reads the document (a small PDF can inflate to gigabytes). */
  memoryBytes: number;
}

export const DEFAULT_LIMITS: Readonly<ExtractionLimits> = {
  maxInputBytes: 50 * 1024 * 1024,
  maxCharacters: 2_000_000,
  maxPdfPages: 2_000,
  timeLimitMs: 60_000,
  // Office XML compresses about 10:1. exceljs needs about 8 bytes of heap per unpacked byte
  // (docs/benchmarks.md), so this admits price
  // lists of some 400,000 rows while keeping one workbook under a gigabyte of heap.
  maxUnpackedBytes: 100 * 1024 * 1024,
  // Word and Excel nest a few dozen levels (tables in tables, drawings with text boxes).
  maxXmlDepth: 256,
  memoryBytes: PDF_MEMORY_LIMIT_BYTES,
};

/**
 * Extractors check the deadline between steps (pages, sheets) and stop early with what they have.
 * The hard stop in `withTimeLimit` gets this much longer, so a step that is merely slow ends as a
 * truncated result rather than a failure.
 */
export const HARD_STOP_GRACE_MS = 5_000;

export class Deadline {
  private readonly endsAt: number;

  constructor(milliseconds: number) {
    this.endsAt = performance.now() + milliseconds;
  }

  expired(): boolean {
    return performance.now() >= this.endsAt;
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }
}

export class TimeLimitExceeded extends Error {
  constructor(readonly milliseconds: number) {
    super(`Extraction took longer than ${Math.round(milliseconds / 1000)} s and was stopped.`);
    this.name = 'TimeLimitExceeded';
  }
}

/**
 * Settles when the work does or when time runs out, whichever is first. The libraries cannot be
 * cancelled, so abandoned work may still finish in the background; its result is ignored.
 */
export async function withTimeLimit<T>(work: Promise<T>, milliseconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimitExceeded(milliseconds)), milliseconds);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
