import { describe, expect, it } from 'vitest';
import { extractDocumentText } from '../../../../../src/agreements/documents/extraction/index.js';
import { contractParagraph, expectConsistentPassages, expectText, latin1, MIME, utf8 } from './fixtures.js';

const NORWEGIAN_TERMS =
  'Generelle vilkår for levering\n\nLeverandøren skal levere varene innen 14 dager. Kjøperen betaler innen 30 dager.\n\nAvtalen gjelder i tre år.';

describe('plain text', () => {
  it('reads UTF-8 into paragraphs with exact offsets', async () => {
    const result = expectText(
      await extractDocumentText({ bytes: utf8(NORWEGIAN_TERMS), fileName: 'vilkar.txt', mimeType: MIME.text }),
    );
    expect(result).toMatchObject({
      format: 'text',
      truncated: false,
      pageCount: null,
      characterCount: NORWEGIAN_TERMS.length,
    });
    expectConsistentPassages(result, NORWEGIAN_TERMS);
    expect(result.passages).toHaveLength(1);
    expect(result.passages[0]).toMatchObject({
      index: 0,
      text: NORWEGIAN_TERMS,
      page: null,
      sheet: null,
      startOffset: 0,
    });
  });

  it('drops a UTF-8 byte order mark', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Vilkår')]);
    const result = expectText(await extractDocumentText({ bytes, fileName: 'a.txt', mimeType: MIME.text }));
    expect(result.passages[0]!.text).toBe('Vilkår');
  });

  it('reads UTF-16 with a byte order mark', async () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...Buffer.from('Ehdot ja hinnat', 'utf16le')]);
    const result = expectText(await extractDocumentText({ bytes, fileName: 'ehdot.txt', mimeType: MIME.text }));
    expect(result.passages[0]!.text).toBe('Ehdot ja hinnat');
  });

  it('falls back to Latin-1 (Windows-1252) when the bytes are not UTF-8', async () => {
    const result = expectText(
      await extractDocumentText({
        bytes: latin1('Allmänna villkor: Köparen betalar inom 30 dagar.'),
        fileName: 'villkor.txt',
        mimeType: MIME.text,
      }),
    );
    expect(result.passages[0]!.text).toBe('Allmänna villkor: Köparen betalar inom 30 dagar.');
  });

  it('reads byte 0x80 of a Windows export as €', async () => {
    const bytes = new Uint8Array([...latin1('Pris: 12,50 '), 0x80]);
    const result = expectText(await extractDocumentText({ bytes, fileName: 'pris.txt', mimeType: MIME.text }));
    expect(result.passages[0]!.text).toBe('Pris: 12,50 €');
  });

  it('reads text with an unknown MIME type when it looks like text', async () => {
    const text = contractParagraph(2_000);
    const result = expectText(
      await extractDocumentText({ bytes: utf8(text), fileName: 'terms', mimeType: MIME.binary }),
    );
    expect(result.format).toBe('text');
    expectConsistentPassages(result, text);
    expect(result.passages.length).toBe(2);
  });
});

describe('CSV', () => {
  it('turns semicolon rows into "cell | cell" lines, honouring quotes and doubled quotes', async () => {
    const csv =
      'Varenummer;Beskrivelse;Enhetspris;Valuta\r\n1001;"Skrue; rustfri";12,50;NOK\r\n1002;"Mutter ""M8""\nsink";3,10;NOK\r\n\r\n';
    const result = expectText(
      await extractDocumentText({ bytes: utf8(csv), fileName: 'prisliste.csv', mimeType: MIME.csv }),
    );
    expect(result.format).toBe('csv');
    expect(result.passages.map((passage) => passage.text)).toEqual([
      'Varenummer | Beskrivelse | Enhetspris | Valuta\n1001 | Skrue; rustfri | 12,50 | NOK\n1002 | Mutter "M8" sink | 3,10 | NOK',
    ]);
  });

  it('detects commas and tabs, and decodes Latin-1 CSV', async () => {
    const comma = expectText(
      await extractDocumentText({ bytes: utf8('Item,Price\nBolt,"1,50"\n'), fileName: 'p.csv', mimeType: MIME.csv }),
    );
    expect(comma.passages[0]!.text).toBe('Item | Price\nBolt | 1,50');
    const tab = expectText(
      await extractDocumentText({
        bytes: latin1('Tuote\tHinta\nRuuvi\t0,95 EUR\n'),
        fileName: 'hinnasto.tsv',
        mimeType: MIME.binary,
      }),
    );
    expect(tab.passages[0]!.text).toBe('Tuote | Hinta\nRuuvi | 0,95 EUR');
  });

  it('is recognized by MIME type alone (Windows browsers also send CSV as text/csv)', async () => {
    const result = expectText(
      await extractDocumentText({ bytes: utf8('a;b\n1;2\n'), fileName: 'upload', mimeType: 'text/csv; charset=utf-8' }),
    );
    expect(result.format).toBe('csv');
  });

  it('splits a long CSV between rows, never inside one', async () => {
    const rows = Array.from({ length: 2_000 }, (_, index) => `SKU-${index};Item number ${index}. Steel;${index},00`);
    const result = expectText(
      await extractDocumentText({
        bytes: utf8(`SKU;Name;Price\n${rows.join('\n')}`),
        fileName: 'prices.csv',
        mimeType: MIME.csv,
      }),
    );
    expectConsistentPassages(result);
    expect(result.passages.length).toBeGreaterThan(30);
    for (const passage of result.passages) {
      for (const line of passage.text.split('\n').filter((line) => line !== ''))
        expect(line).toMatch(/^(SKU-\d+ \| Item number \d+\. Steel \| \d+,00|SKU \| Name \| Price)$/);
    }
  });
});
