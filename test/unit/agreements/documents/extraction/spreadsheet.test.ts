import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  extractDocumentText,
  extractWithLimits,
} from '../../../../../src/agreements/documents/extraction/index.js';
import { buildXlsx, expectConsistentPassages, expectText, MIME } from './fixtures.js';

const xlsxInput = (bytes: Uint8Array, fileName = 'prisliste.xlsx') => ({ bytes, fileName, mimeType: MIME.xlsx });

describe('XLSX', () => {
  it('writes each row as "cell | cell" and names the sheet of every passage', async () => {
    const bytes = await buildXlsx({
      Prices: [
        ['Item', 'Description', 'Unit price', 'Currency'],
        ['A-100', 'Copy paper A4', 45.5, 'NOK'],
        [null, null, null, null],
        ['A-200', 'Toner, black', 1299, 'NOK'],
      ],
      Notes: [['Prices valid from'], [new Date(Date.UTC(2025, 0, 1))]],
    });
    const result = expectText(await extractDocumentText(xlsxInput(bytes)));
    const prices =
      'Item | Description | Unit price | Currency\nA-100 | Copy paper A4 | 45.5 | NOK\nA-200 | Toner, black | 1299 | NOK';
    const notes = 'Prices valid from\n2025-01-01';
    expect(result).toMatchObject({ format: 'xlsx', truncated: false, pageCount: null });
    expectConsistentPassages(result, `${prices}\n\n${notes}`);
    expect(result.passages.map(({ sheet, text }) => ({ sheet, text }))).toEqual([
      { sheet: 'Prices', text: prices },
      { sheet: 'Notes', text: notes },
    ]);
  });

  it('shows formula results, rich text, hyperlink text and errors as the cell shows them', async () => {
    const bytes = await buildXlsx({
      Sheet1: [
        [
          { formula: 'B1*2', result: 24 },
          12,
          { richText: [{ text: 'Rabatt ' }, { text: '10 %', font: { bold: true } }] },
        ],
        [{ text: 'Vilkår', hyperlink: 'https://example.com/vilkar' }, { error: '#N/A' }, true],
      ],
    });
    const result = expectText(await extractDocumentText(xlsxInput(bytes)));
    expect(result.passages[0]!.text).toBe('24 | 12 | Rabatt 10 %\nVilkår | #N/A | true');
  });

  it('splits a long sheet between rows and keeps the sheet name on every passage', async () => {
    const rows = Array.from({ length: 3_000 }, (_, index) => [
      `SKU-${index}`,
      `Article no. ${index}. Steel`,
      index + 0.5,
    ]);
    const result = expectText(
      await extractDocumentText(
        xlsxInput(await buildXlsx({ 'Prisliste 2025': [['SKU', 'Article', 'Price'], ...rows] })),
      ),
    );
    expectConsistentPassages(result);
    expect(result.passages.length).toBeGreaterThan(50);
    for (const passage of result.passages) {
      expect(passage.sheet).toBe('Prisliste 2025');
      for (const line of passage.text.split('\n'))
        expect(line).toMatch(/^(SKU-\d+ \| Article no\. \d+\. Steel \| \d+\.5|SKU \| Article \| Price)$/);
    }
  });

  it('stops at the character limit and says so', async () => {
    const rows = Array.from({ length: 1_000 }, (_, index) => [`SKU-${index}`, 'Screw', index]);
    const result = expectText(
      await extractWithLimits(xlsxInput(await buildXlsx({ Prices: rows })), {
        ...DEFAULT_LIMITS,
        maxCharacters: 2_000,
      }),
    );
    expect(result.truncated).toBe(true);
    expect(result.characterCount).toBeLessThanOrEqual(2_000);
    expect(result.characterCount).toBeGreaterThan(1_500);
    expect(result.passages[0]!.text.startsWith('SKU-0 | Screw | 0\nSKU-1 | Screw | 1')).toBe(true);
  });

  it('fails with no_text for an empty workbook', async () => {
    expect(await extractDocumentText(xlsxInput(await buildXlsx({ Empty: [] })))).toMatchObject({
      kind: 'failed',
      code: 'no_text',
    });
  });
});
