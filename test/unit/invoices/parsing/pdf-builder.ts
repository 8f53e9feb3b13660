import { createDeflate } from 'node:zlib';

/**
 * Builds small, valid PDFs for tests: text lines in Helvetica (WinAnsi, so "€" works) and
 * optional embedded files, with a correct cross-reference table.
 */
export interface TestPdf {
  /** Lines of text, top to bottom; omit for a page without a text layer. */
  lines?: string[];
  /** `deflated`: the content is already compressed, written with /Filter /FlateDecode. */
  attachments?: Array<{ name: string; content: string | Uint8Array; deflated?: boolean }>;
  /** Extra drawing operators (e.g. a filled rectangle standing in for a scanned image). */
  drawing?: string;
  /** A deflated page content stream, written with /Filter /FlateDecode instead of lines and drawing. */
  deflatedContent?: Uint8Array;
}

// `mebibytes` of spaces, deflated: a few megabytes that inflate to `mebibytes` (a compression bomb).
export async function deflatedSpaces(mebibytes: number): Promise<Uint8Array> {
  const chunk = Buffer.alloc(2 ** 20 * 64, 0x20);
  const deflate = createDeflate({ level: 1 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let written = 0; written < mebibytes; written += 64) deflate.write(chunk);
  deflate.end();
  await ended;
  return Buffer.concat(parts);
}

export function buildPdf({ lines = [], attachments = [], drawing = '', deflatedContent }: TestPdf): Uint8Array {
  const objects: Array<string | Uint8Array> = [];
  const add = (body: string | Uint8Array) => objects.push(body);
  const ref = (index: number) => `${index} 0 R`;

  const content = [
    drawing,
    ...lines.map((line, index) => `BT /F1 11 Tf 50 ${800 - index * 16} Td (${escapePdfString(line)}) Tj ET`),
  ].join('\n');
  const attachmentRefs: string[] = [];
  // Objects 1..5 are fixed; attachments follow as (filespec, stream) pairs.
  attachments.forEach((attachment, index) => {
    const filespec = 6 + index * 2;
    attachmentRefs.push(`(${escapePdfString(attachment.name)}) ${ref(filespec)}`);
  });
  const names = attachments.length > 0 ? ` /Names << /EmbeddedFiles << /Names [${attachmentRefs.join(' ')}] >> >>` : '';
  add(`<< /Type /Catalog /Pages ${ref(2)}${names} >>`);
  add(`<< /Type /Pages /Kids [${ref(3)}] /Count 1 >>`);
  add(
    `<< /Type /Page /Parent ${ref(2)} /MediaBox [0 0 595 842] /Contents ${ref(4)} /Resources << /Font << /F1 ${ref(5)} >> >> >>`,
  );
  add(deflatedContent ? stream('/Filter /FlateDecode ', deflatedContent) : stream('', latin1Bytes(content)));
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  attachments.forEach((attachment, index) => {
    const data =
      typeof attachment.content === 'string' ? new TextEncoder().encode(attachment.content) : attachment.content;
    add(
      `<< /Type /Filespec /F (${escapePdfString(attachment.name)}) /UF (${escapePdfString(attachment.name)}) /EF << /F ${ref(7 + index * 2)} >> >>`,
    );
    add(stream(`/Type /EmbeddedFile ${attachment.deflated ? '/Filter /FlateDecode ' : ''}`, data));
  });
  return serialize(objects);
}

function stream(dictionaryEntries: string, data: Uint8Array): Uint8Array {
  return concat([
    latin1Bytes(`<< ${dictionaryEntries}/Length ${data.byteLength} >>\nstream\n`),
    data,
    latin1Bytes('\nendstream'),
  ]);
}

function serialize(objects: Array<string | Uint8Array>): Uint8Array {
  const chunks: Uint8Array[] = [latin1Bytes('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n')];
  const offsets: number[] = [];
  let length = chunks[0]!.byteLength;
  objects.forEach((body, index) => {
    offsets.push(length);
    const bytes = concat([
      latin1Bytes(`${index + 1} 0 obj\n`),
      typeof body === 'string' ? latin1Bytes(body) : body,
      latin1Bytes('\nendobj\n'),
    ]);
    chunks.push(bytes);
    length += bytes.byteLength;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`),
  ].join('');
  chunks.push(
    latin1Bytes(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return concat(chunks);
}

/** WinAnsi differs from Latin-1 in 0x80-0x9F; these are the characters tests use from there. */
const WIN_ANSI_EXTRAS: Readonly<Record<string, number>> = { '€': 0x80, '•': 0x95, '–': 0x96 };

function latin1Bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => WIN_ANSI_EXTRAS[char] ?? char.charCodeAt(0) & 0xff);
}

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (char) => `\\${char}`);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const result = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.byteLength;
  }
  return result;
}
