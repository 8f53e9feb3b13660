import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  extractDocumentText,
  extractWithLimits,
} from '../../../../../src/agreements/documents/extraction/index.js';
import { maxElementDepth } from '../../../../../src/agreements/documents/extraction/xml-depth.js';
import {
  buildDocx,
  contractParagraph,
  escapeXml,
  expectConsistentPassages,
  expectText,
  MIME,
  withDeclaredSize,
  wordParagraphs,
} from './fixtures.js';

const docxInput = (bytes: Uint8Array, fileName = 'avtale.docx') => ({ bytes, fileName, mimeType: MIME.docx });

describe('DOCX', () => {
  it('reads paragraphs in order with exact offsets', async () => {
    const paragraphs = [
      'RAMMEAVTALE OM KJØP AV KONTORREKVISITA',
      'Mellom Leverandør AS og Kunde AS.',
      '§ 1 Avtalens omfang: Avtalen gjelder kjøp av varer i produktkatalogen.',
    ];
    const result = expectText(await extractDocumentText(docxInput(await buildDocx(wordParagraphs(paragraphs)))));
    const wholeText = paragraphs.join('\n\n');
    expect(result).toMatchObject({
      format: 'docx',
      truncated: false,
      pageCount: null,
      characterCount: wholeText.length,
    });
    expectConsistentPassages(result, wholeText);
    expect(result.passages).toEqual([
      { index: 0, text: wholeText, page: null, sheet: null, startOffset: 0, endOffset: wholeText.length },
    ]);
  });

  it('reads table cells and text split over several runs', async () => {
    const table = `<w:tbl><w:tr><w:tc>${wordParagraphs(['Termin'])}</w:tc><w:tc>${wordParagraphs(['30 dager netto'])}</w:tc></w:tr></w:tbl>`;
    const runs = '<w:p><w:r><w:t>Leverings</w:t></w:r><w:r><w:t>vilkår</w:t></w:r></w:p>';
    const result = expectText(await extractDocumentText(docxInput(await buildDocx(runs + table))));
    expect(result.passages[0]!.text).toBe('Leveringsvilkår\n\nTermin\n\n30 dager netto');
  });

  it('makes passages of a long contract, splitting long paragraphs at sentence ends', async () => {
    const paragraphs = Array.from({ length: 12 }, (_, index) =>
      contractParagraph(index % 3 === 0 ? 2_500 : 400, index),
    );
    const result = expectText(await extractDocumentText(docxInput(await buildDocx(wordParagraphs(paragraphs)))));
    expectConsistentPassages(result, paragraphs.join('\n\n'));
    expect(result.passages.length).toBeGreaterThan(8);
    for (const passage of result.passages) expect(passage.text).toMatch(/[.;]$/);
  });

  it('fails with no_text for a document without text', async () => {
    expect(await extractDocumentText(docxInput(await buildDocx('<w:p/>')))).toMatchObject({
      kind: 'failed',
      code: 'no_text',
    });
  });
});

describe('maxElementDepth', () => {
  const depth = (xml: string) => maxElementDepth(Buffer.from(xml), 1_000);

  it('counts nesting, not self-closing elements, comments, CDATA or declarations', () => {
    expect(depth('<?xml version="1.0"?><a><b><c/></b><b>text</b></a>')).toBe(2);
    expect(depth('<!DOCTYPE a [<!ENTITY x "<y>">]><a><!-- <b><b><b> --><![CDATA[<b><b>]]></a>')).toBe(1);
  });

  it('is not fooled by ">" or "/>" inside attribute values', () => {
    expect(depth(`<a t="/>"><b t='>'><c/></b></a>`)).toBe(2);
  });
});

describe('DOCX hostile input', () => {
  const smallUnpackLimit = { ...DEFAULT_LIMITS, maxUnpackedBytes: 1024 * 1024 };
  const bomb = () => buildDocx(wordParagraphs(['x'.repeat(4 * 1024 * 1024)]));

  it('refuses an archive that unpacks beyond the limit', async () => {
    const bytes = await bomb();
    expect(bytes.byteLength).toBeLessThan(64 * 1024);
    expect(await extractWithLimits(docxInput(bytes), smallUnpackLimit)).toMatchObject({
      kind: 'failed',
      code: 'too_large',
    });
  });

  it('refuses it also when the archive understates the unpacked size', async () => {
    const lying = withDeclaredSize(await bomb(), 'word/document.xml', 100);
    expect(await extractWithLimits(docxInput(lying), smallUnpackLimit)).toMatchObject({
      kind: 'failed',
      code: 'too_large',
    });
  });

  it('fails with unreadable for a truncated archive', async () => {
    const bytes = await buildDocx(wordParagraphs([contractParagraph(3_000)]));
    expect(await extractDocumentText(docxInput(bytes.subarray(0, bytes.byteLength - 200)))).toMatchObject({
      kind: 'failed',
      code: 'unreadable',
    });
  });

  it('does not expand entities (billion laughs) in document.xml', async () => {
    const entities = Array.from(
      { length: 9 },
      (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
    ).join('');
    const documentXml = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY lol0 "lol">${entities}]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`;
    const started = performance.now();
    const result = await extractDocumentText(docxInput(await buildDocx('', { documentXml })));
    expect(performance.now() - started).toBeLessThan(15_000);
    // mammoth's XML parser (xmldom) does not know entities declared in the DOCTYPE.
    expect(result).toMatchObject({ kind: 'failed', code: 'unreadable' });
  });

  // mammoth overflows its call stack from about 2,000 levels; the depth check refuses such parts first.
  it.each([
    ['plain', ''],
    ['hidden behind "/>" in an attribute value', ' w:id="/>"'],
  ])('refuses 20,000 levels of nesting (%s) quickly', async (_case, attribute) => {
    const depth = 20_000;
    const body = `<w:p><w:r><w:t>Vilkår</w:t></w:r></w:p>${`<w:sdt${attribute}><w:sdtContent>`.repeat(depth)}${'</w:sdtContent></w:sdt>'.repeat(depth)}`;
    const started = performance.now();
    const result = await extractDocumentText(docxInput(await buildDocx(body)));
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result).toMatchObject({ kind: 'failed', code: 'unreadable' });
    if (result.kind === 'failed')
      expect(result.message).toContain('word/document.xml nests elements more than 256 levels');
  });

  it('refuses a ZIP that is neither DOCX nor XLSX', async () => {
    const zip = new JSZip();
    zip.file('content.xml', `<office:document-content>${escapeXml('Vilkår')}</office:document-content>`);
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const result = await extractDocumentText({
      bytes,
      fileName: 'vilkar.odt',
      mimeType: 'application/vnd.oasis.opendocument.text',
    });
    expect(result).toMatchObject({ kind: 'failed', code: 'unsupported_format' });
    if (result.kind === 'failed') expect(result.message).toContain('OpenDocument');
  });
});
