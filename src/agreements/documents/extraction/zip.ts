/**
 * The shared ZIP guard (src/shared/zip.ts) as the extraction needs it: its failures become
 * ExtractionErrors, and the inflated XML parts are checked for nesting that would make mammoth's
 * work explode.
 */
import {
  inflateEntries,
  isZip,
  readZipDirectory as readDirectory,
  ZipError,
  type ZipEntry,
} from '../../../shared/zip.js';
import { ExtractionError } from '../../../documents/extraction-model.js';
import { maxElementDepth } from './xml-depth.js';

export { isZip, type ZipEntry };

export interface ArchiveLimits {
  maxUnpackedBytes: number;
  maxXmlDepth: number;
}

/** Parts that mammoth or exceljs parse as XML. */
const XML_PART = /\.(xml|rels|vml)$/i;

/** The central directory; throws `unreadable` when the archive is damaged. */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  return asExtractionError(() => readDirectory(bytes), 0);
}

/**
 * Throws `too_large` once the inflated total would pass `maxUnpackedBytes`, `unreadable` for
 * data that does not inflate or XML nested deeper than `maxXmlDepth`.
 */
export function assertSafeArchive(bytes: Uint8Array, entries: readonly ZipEntry[], limits: ArchiveLimits): void {
  asExtractionError(
    () =>
      inflateEntries(bytes, entries, limits.maxUnpackedBytes, (entry, content) => {
        if (XML_PART.test(entry.name) && maxElementDepth(content, limits.maxXmlDepth) > limits.maxXmlDepth) {
          throw new ExtractionError(
            'unreadable',
            `${entry.name} nests elements more than ${limits.maxXmlDepth} levels deep; no office program writes that, so it is not read.`,
          );
        }
      }),
    limits.maxUnpackedBytes,
  );
}

function asExtractionError<T>(read: () => T, maxUnpackedBytes: number): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    if (error.kind === 'damaged')
      throw new ExtractionError('unreadable', `The file is a damaged ZIP archive: ${error.detail}.`);
    throw new ExtractionError(
      'too_large',
      `The archive unpacks to more than ${Math.round(maxUnpackedBytes / (1024 * 1024))} MiB, more than a document can need; it is not read.`,
    );
  }
}
