/**
 * DOCX via mammoth's raw text: one paragraph per Word paragraph (table cells included), in
 * document order. mammoth 1.13 never reads files outside the archive (externalFileAccess is off
 * by default) and raw text does not touch images.
 */
import type mammothApi from 'mammoth';
import type { ExtractionLimits } from './limits.js';
import type { DocumentTextBuilder } from './passages.js';
import { assertSafeArchive, type ZipEntry } from './zip.js';

type Mammoth = typeof mammothApi;
let mammothModule: Promise<Mammoth> | undefined;

function loadMammoth(): Promise<Mammoth> {
  mammothModule ??= import('mammoth').then((module) => module.default);
  return mammothModule;
}

export async function extractDocx(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  builder: DocumentTextBuilder,
  limits: ExtractionLimits,
): Promise<void> {
  assertSafeArchive(bytes, entries, limits);
  const mammoth = await loadMammoth();
  const { value } = await mammoth.extractRawText({
    buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  });
  // mammoth ends every paragraph with a blank line.
  for (const paragraph of value.split(/\n{2,}/)) {
    if (!builder.add({ text: paragraph, page: null, sheet: null })) return;
  }
}
