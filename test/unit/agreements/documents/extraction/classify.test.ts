import { describe, expect, it } from 'vitest';
import {
  classifyAgreementDocument,
  extractDocumentText,
  type ExtractionResult,
} from '../../../../../src/agreements/documents/extraction/index.js';
import { isNumber } from '../../../../../src/agreements/documents/extraction/classify.js';
import { buildPdf } from '../../../invoices/parsing/pdf-builder.js';
import { buildDocx, buildXlsx, contractParagraph, MIME, samplePdf, utf8, wordParagraphs } from './fixtures.js';

async function classify(bytes: Uint8Array, fileName: string, mimeType: string) {
  const extraction = await extractDocumentText({ bytes, fileName, mimeType });
  expect(extraction.kind).toBe('text');
  return classifyAgreementDocument({ fileName, mimeType, extraction });
}

const failure: ExtractionResult = { kind: 'failed', code: 'no_text', message: 'The PDF has no text layer.' };

describe('price lists', () => {
  it('an XLSX with a price column header is a price list (high)', async () => {
    const bytes = await buildXlsx({
      Produkter: [
        ['Varenr', 'Navn'],
        ['Leverandør: Kontor AS'],
        ['Varenr', 'Beskrivelse', 'Enhetspris eks. mva'],
        ['1001', 'Penn', 12.5],
      ],
    });
    expect(await classify(bytes, 'data.xlsx', MIME.xlsx)).toEqual({
      classification: 'price_list',
      confidence: 'high',
      reason: 'A spreadsheet with a price column header "Enhetspris eks. mva" in sheet "Produkter".',
    });
  });

  it('a CSV with a Finnish or German price header is a price list (high)', async () => {
    expect(await classify(utf8('Tuote;Yksikköhinta\nRuuvi;0,95\n'), 'tuotteet.csv', MIME.csv)).toMatchObject({
      classification: 'price_list',
      confidence: 'high',
    });
    expect(await classify(utf8('Artikel;Stückpreis\nSchraube;0,95\n'), 'artikel.csv', MIME.csv)).toMatchObject({
      classification: 'price_list',
      confidence: 'high',
    });
  });

  it('a CSV without a header but full of numbers is a price list (medium)', async () => {
    const rows = Array.from({ length: 20 }, (_, index) => `A${index};Bolt M${index};${index},50;${index * 10}`).join(
      '\n',
    );
    expect(await classify(utf8(rows), 'export.csv', MIME.csv)).toEqual({
      classification: 'price_list',
      confidence: 'medium',
      reason: 'A CSV file in which 50% of the filled cells are numbers.',
    });
  });

  it('a spreadsheet with no sign either way is a price list by default (low)', async () => {
    const bytes = await buildXlsx({
      Sheet1: [
        ['Name', 'Department'],
        ['Kari', 'Sales'],
      ],
    });
    expect(await classify(bytes, 'contacts.xlsx', MIME.xlsx)).toMatchObject({
      classification: 'price_list',
      confidence: 'low',
    });
  });

  it('a PDF that is a table of amounts with price words is a price list (high)', async () => {
    const lines = [
      'Price list 2025',
      'Item Description Unit price',
      ...Array.from({ length: 15 }, (_, index) => `A-${100 + index} Paper ${index + 1} 45,50 € 10 455,00`),
    ];
    const result = await classify(buildPdf({ lines }), 'appendix.pdf', MIME.pdf);
    expect(result).toMatchObject({ classification: 'price_list', confidence: 'high' });
    expect(result.reason).toMatch(
      /^PDF text reads as tables \(\d+% of the words are numbers\) with price words: price, currency amounts\.$/,
    );
  });

  it('a real invoice PDF (a table of amounts) reads as a price list, not as terms', async () => {
    const fileName = 'corpus-Hetzner_2016-01-19_R0005532486.pdf';
    expect(await classify(samplePdf(fileName), fileName, MIME.pdf)).toMatchObject({ classification: 'price_list' });
  });
});

describe('terms', () => {
  it('an English contract DOCX is terms (high) and the reason names the contract words', async () => {
    const paragraphs = [contractParagraph(1_500), contractParagraph(1_500, 3)];
    const result = await classify(await buildDocx(wordParagraphs(paragraphs)), 'document.docx', MIME.docx);
    expect(result).toMatchObject({ classification: 'terms', confidence: 'high' });
    expect(result.reason).toMatch(
      /^DOCX text is mostly prose \(\d% of the words are numbers\) with contract words: agreement, contract, terms, liability, termination\.$/,
    );
  });

  it.each([
    [
      'Norwegian',
      'Rammeavtalen gjelder fra 1. januar. Leveringsvilkår: Partene kan si opp avtalen med tre måneders varsel. Oppsigelse skal skje skriftlig.',
    ],
    [
      'Swedish',
      'Allmänna villkor. Avtalet gäller i två år. Parterna får säga upp avtalet; uppsägning ska ske skriftligen.',
    ],
    ['Danish', 'Almindelige betingelser. Aftalen gælder i to år. Parterne kan opsige aftalen med tre måneders varsel.'],
    [
      'Finnish',
      'Toimitussopimus. Sopimusehdot koskevat kaikkia toimituksia. Osapuolet voivat irtisanoa sopimuksen kolmen kuukauden irtisanomisajalla.',
    ],
    [
      'German',
      'Allgemeine Geschäftsbedingungen (AGB). Der Vertrag gilt zwei Jahre. Die Haftung ist beschränkt. Kündigung mit drei Monaten Frist.',
    ],
  ])('%s contract text is terms (high)', async (_language, text) => {
    expect(await classify(utf8(text), 'document.txt', MIME.text)).toMatchObject({
      classification: 'terms',
      confidence: 'high',
    });
  });

  it('a contract with a short price appendix stays terms', async () => {
    const lines = [
      ...contractParagraph(1_200)
        .match(/.{1,90}(\s|$)/g)!
        .map((line) => line.trim()),
      '',
      'Appendix 1 Prices',
      'Paper 45,50 EUR',
      'Toner 120,00 EUR',
    ];
    expect(await classify(buildPdf({ lines }), 'agreement.pdf', MIME.pdf)).toMatchObject({
      classification: 'terms',
      confidence: 'high',
    });
  });
});

describe('weak evidence', () => {
  it('without contract or price words the file name decides (low)', async () => {
    const result = await classify(
      buildPdf({ lines: ['Lorem ipsum dolor sit amet, consectetur adipiscing elit.'] }),
      'Prisliste_2025.pdf',
      MIME.pdf,
    );
    expect(result).toEqual({
      classification: 'price_list',
      confidence: 'low',
      reason:
        'The file name "Prisliste_2025.pdf" suggests a price list; the content is PDF text without contract or price words.',
    });
  });

  it('without any sign a document is terms by default (low)', async () => {
    const result = await classify(buildPdf({ lines: ['Lorem ipsum dolor sit amet.'] }), 'scan-0001.pdf', MIME.pdf);
    expect(result).toEqual({
      classification: 'terms',
      confidence: 'low',
      reason: 'No clear sign in PDF text without contract or price words; taken as terms by default.',
    });
  });

  it('a failed extraction is classified by file name, then by file type', () => {
    expect(
      classifyAgreementDocument({ fileName: 'Leveringsvilkår.pdf', mimeType: MIME.pdf, extraction: failure }),
    ).toEqual({
      classification: 'terms',
      confidence: 'low',
      reason: 'The file name "Leveringsvilkår.pdf" suggests terms; no text could be read (no_text).',
    });
    expect(
      classifyAgreementDocument({ fileName: 'scan.xlsx', mimeType: MIME.xlsx, extraction: failure }),
    ).toMatchObject({ classification: 'price_list', confidence: 'low' });
    expect(classifyAgreementDocument({ fileName: 'upload', mimeType: 'text/csv', extraction: failure })).toMatchObject({
      classification: 'price_list',
      confidence: 'low',
    });
    expect(classifyAgreementDocument({ fileName: 'scan.pdf', mimeType: MIME.pdf, extraction: failure })).toMatchObject({
      classification: 'terms',
      confidence: 'low',
    });
  });

  it('is deterministic: the same input gives the same answer', async () => {
    const extraction = await extractDocumentText({
      bytes: utf8(contractParagraph(3_000)),
      fileName: 'a.txt',
      mimeType: MIME.text,
    });
    const input = { fileName: 'a.txt', mimeType: MIME.text, extraction };
    expect(classifyAgreementDocument(input)).toEqual(classifyAgreementDocument(input));
  });
});

describe('isNumber', () => {
  it.each([
    '12',
    '1 234,50',
    '1.234,56',
    '-3.5%',
    '€12.00',
    'NOK 1.234,56',
    '(12)',
    'kr 12,50',
    '12,50 kr',
    "1'000.00",
    '45,50 €',
  ])('%s is a number', (value) => {
    expect(isNumber(value)).toBe(true);
  });

  it.each(['A-100', '2024-01-01', 'abc', '€', '', 'M8'])('%s is not a number', (value) => {
    expect(isNumber(value)).toBe(false);
  });
});
