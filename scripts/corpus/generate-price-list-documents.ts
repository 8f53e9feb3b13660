/**
 * Generates the price-list documents of test/fixtures/price-list-documents: PDF price appendices
 * in several layouts and languages (one over three pages, one with quantity tiers, one with a row
 * that cannot be read) and a DOCX, each with its ground truth beside it (`<name>.json`: every
 * item the reader must give, exactly, and whether the list is complete).
 *
 *   npx tsx scripts/corpus/generate-price-list-documents.ts
 *
 * The layouts differ the way suppliers' do: column order, alignment, fonts, a header over two
 * lines, wrapped descriptions, a currency column, in the header or named in the text only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import PDFDocument from 'pdfkit';
import { scanPdf, type ScanSettings } from './generate-scan-corpus.js';

const OUT = path.resolve(import.meta.dirname, '../../test/fixtures/price-list-documents');

interface TruthItem {
  description: string;
  sellerItemId: string | null;
  unit: string | null;
  currencyCode: string;
  amount: string;
}

interface Truth {
  file: string;
  defaultCurrency: string;
  complete: boolean;
  items: TruthItem[];
  /** Rows the reader must reject: sheet and row as the download shows them. */
  rejected: { sheet: string; rowNumber: number }[];
}

type Align = 'left' | 'right';
interface ColumnSpec {
  header: string | [string, string];
  x: number;
  width: number;
  align: Align;
}

interface PdfSpec {
  name: string;
  title: string[];
  columns: ColumnSpec[];
  rows: string[][];
  /** Rows per page; the header is repeated on every page. */
  rowsPerPage?: number;
  font?: string;
  boldFont?: string;
  fontSize?: number;
  rowHeight?: number;
  footer?: (page: number, pages: number) => string;
  after?: string[];
  /** Index of the description column, whose text may wrap over two lines ("\n"). */
  wrapColumn?: number;
}

function pdfBytes(spec: PdfSpec): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { CreationDate: new Date('2026-01-01T00:00:00Z') } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const font = spec.font ?? 'Helvetica';
  const bold = spec.boldFont ?? 'Helvetica-Bold';
  const size = spec.fontSize ?? 9;
  const rowHeight = spec.rowHeight ?? 15;
  const perPage = spec.rowsPerPage ?? spec.rows.length;
  const pages = Math.max(1, Math.ceil(spec.rows.length / perPage));
  for (let page = 0; page < pages; page++) {
    if (page > 0) doc.addPage();
    let y = 50;
    if (page === 0) {
      doc.font(bold).fontSize(14).text(spec.title[0]!, 40, y);
      y += 24;
      doc.font(font).fontSize(size);
      for (const line of spec.title.slice(1)) {
        doc.text(line, 40, y);
        y += 13;
      }
      y += 14;
    } else {
      doc.font(font).fontSize(8).text(spec.title[0]!, 40, y);
      y += 24;
    }
    doc.font(bold).fontSize(size);
    const twoLine = spec.columns.some((column) => Array.isArray(column.header));
    for (const column of spec.columns) {
      const [top, bottom] = Array.isArray(column.header) ? column.header : [null, column.header];
      if (top) doc.text(top, column.x, y, { width: column.width, align: column.align, lineBreak: false });
      doc.text(bottom, column.x, twoLine ? y + size + 2 : y, {
        width: column.width,
        align: column.align,
        lineBreak: false,
      });
    }
    y += (twoLine ? 2 * size + 2 : size) + 8;
    doc
      .moveTo(40, y - 4)
      .lineTo(555, y - 4)
      .lineWidth(0.5)
      .stroke();
    doc.font(font).fontSize(size);
    for (const row of spec.rows.slice(page * perPage, (page + 1) * perPage)) {
      let extra = 0;
      spec.columns.forEach((column, index) => {
        const [first, second] = (row[index] ?? '').split('\n');
        doc.text(first ?? '', column.x, y, { width: column.width, align: column.align, lineBreak: false });
        if (second !== undefined) {
          doc.text(second, column.x, y + size + 2, { width: column.width, align: column.align, lineBreak: false });
          extra = size + 2;
        }
      });
      y += rowHeight + extra;
    }
    if (page === pages - 1 && spec.after) {
      y += 30;
      for (const line of spec.after) {
        doc.text(line, 40, y);
        y += 13;
      }
    }
    if (spec.footer) doc.fontSize(7).text(spec.footer(page + 1, pages), 40, 800, { lineBreak: false });
  }
  doc.end();
  return done;
}

// ---- the documents ----

const item = (
  sellerItemId: string | null,
  description: string,
  unit: string | null,
  currencyCode: string,
  amount: string,
): TruthItem => ({
  sellerItemId,
  description,
  unit,
  currencyCode,
  amount,
});

async function englishAppendix(): Promise<Truth> {
  const data: [string, string, string, string, string][] = [
    ['A-1001', 'Copy paper A4 80 g', 'box', '1,234.50', '1234.5'],
    ['A-1002', 'Copy paper A3 80 g', 'box', '2,480.00', '2480'],
    ['B-2001', 'Ballpoint pen, blue', 'pcs', '0.85', '0.85'],
    ['B-2002', 'Ballpoint pen, red', 'pcs', '0.85', '0.85'],
    ['C-3100', 'Stapler heavy duty', 'pcs', '24.90', '24.9'],
    ['C-3101', 'Staples 24/6 (1000)', 'pack', '3.15', '3.15'],
    ['D-4000', 'Desk organiser', 'pcs', '18.00', '18'],
    ['E-5000', 'Whiteboard 120 x 90 cm', 'pcs', '1,099.00', '1099'],
  ];
  const bytes = await pdfBytes({
    name: 'en-office-supplies',
    title: ['Appendix 2: Price list', 'Framework agreement for office supplies', 'Valid from 1 January 2026'],
    columns: [
      { header: 'Item no.', x: 40, width: 70, align: 'left' },
      { header: 'Description', x: 120, width: 230, align: 'left' },
      { header: 'Unit', x: 360, width: 50, align: 'left' },
      { header: 'Unit price (USD)', x: 430, width: 120, align: 'right' },
    ],
    rows: data.map(([id, description, unit, price]) => [id, description, unit, price]),
    after: ['Prices exclude VAT. Delivery within 3 working days.'],
    footer: (page, pages) => `Page ${page} of ${pages}`,
  });
  return save('en-office-supplies.pdf', bytes, {
    defaultCurrency: 'EUR',
    complete: true,
    items: data.map(([id, description, unit, , amount]) => item(id, description, unit, 'USD', amount)),
    rejected: [],
  });
}

async function norwegianDocumentCurrency(): Promise<Truth> {
  const data: [string, string, string, string, string][] = [
    ['Kontorstol ergonomisk', '10023', 'stk', '4 950,00', '4950'],
    ['Skrivebord hev/senk 160 cm', '10024', 'stk', '7 490,00', '7490'],
    ['Skjermarm dobbel', '10031', 'stk', '1 290,50', '1290.5'],
    ['Montering per time', '90001', 'time', '895,00', '895'],
    ['Frakt per levering', '90002', 'lev', '450,00', '450'],
  ];
  const bytes = await pdfBytes({
    name: 'no-furniture',
    title: ['Prisbilag til rammeavtale', 'Kontormøbler AS, org.nr. 987 654 321', 'Alle priser i NOK eks. mva.'],
    // Description first, the article number after it, prices right-aligned in a narrow column.
    columns: [
      { header: 'Beskrivelse', x: 40, width: 250, align: 'left' },
      { header: 'Varenr', x: 300, width: 60, align: 'left' },
      { header: 'Enhet', x: 370, width: 50, align: 'left' },
      { header: 'Pris', x: 470, width: 80, align: 'right' },
    ],
    rows: data.map(([description, id, unit, price]) => [description, id, unit, price]),
    font: 'Times-Roman',
    boldFont: 'Times-Bold',
    fontSize: 10,
    rowHeight: 18,
  });
  return save('no-furniture.pdf', bytes, {
    defaultCurrency: 'EUR',
    complete: true,
    items: data.map(([description, id, unit, , amount]) => item(id, description, unit, 'NOK', amount)),
    rejected: [],
  });
}

async function germanMultiPage(): Promise<Truth> {
  const rows: string[][] = [];
  const items: TruthItem[] = [];
  for (let index = 0; index < 70; index++) {
    const id = `47${String(1000 + index * 7)}`;
    const description = `Schraube M${4 + (index % 6)} x ${10 + (index % 9) * 5} verzinkt${index % 10 === 3 ? ' (Karton)' : ''}`;
    const unit = index % 10 === 3 ? 'Karton' : 'Stück';
    const currency = index % 5 === 4 ? 'CHF' : 'EUR';
    const cents = 1000 + ((index * 7919) % 250_000);
    const whole = Math.floor(cents / 100);
    const text = `${whole.toLocaleString('de-DE')},${String(cents % 100).padStart(2, '0')}`;
    rows.push([id, description, unit, text, currency]);
    items.push(item(id, description, unit, currency, trimZeros(`${whole}.${String(cents % 100).padStart(2, '0')}`)));
  }
  const bytes = await pdfBytes({
    name: 'de-fasteners',
    title: ['Preisliste Befestigungstechnik 2026', 'Anlage 1 zum Rahmenvertrag', 'Preise netto, zzgl. MwSt.'],
    columns: [
      { header: 'Art.-Nr.', x: 40, width: 60, align: 'left' },
      { header: 'Bezeichnung', x: 110, width: 250, align: 'left' },
      { header: 'ME', x: 370, width: 50, align: 'left' },
      { header: 'Einzelpreis', x: 430, width: 70, align: 'right' },
      { header: 'Währung', x: 510, width: 45, align: 'left' },
    ],
    rows,
    rowsPerPage: 30,
    fontSize: 8.5,
    rowHeight: 13,
    footer: (page, pages) => `Seite ${page} von ${pages} · Befestigungstechnik GmbH · USt-IdNr. DE123456789`,
  });
  return save('de-fasteners-multipage.pdf', bytes, { defaultCurrency: 'EUR', complete: true, items, rejected: [] });
}

async function swedishTiers(): Promise<Truth> {
  const data: { id: string; description: string; unit: string; price: string; amounts: string[] }[] = [
    {
      id: 'SE-100',
      description: 'Kabel CAT6 U/UTP\nrulle 305 m',
      unit: 'rulle',
      price: '1-9: 1 250,00  10+: 1 150,00',
      amounts: ['1250', '1150'],
    },
    {
      id: 'SE-101',
      description: 'Patchkabel CAT6 2 m',
      unit: 'st',
      price: '1-99: 29,00  100-499: 25,50  500+: 22,00',
      amounts: ['29', '25.5', '22'],
    },
    { id: 'SE-102', description: 'Switch 24 portar', unit: 'st', price: '3 490,00', amounts: ['3490'] },
    {
      id: 'SE-103',
      description: 'Installation, timpris\nvardagar 07-17',
      unit: 'tim',
      price: '850,00',
      amounts: ['850'],
    },
  ];
  const bytes = await pdfBytes({
    name: 'sv-network',
    title: ['Prisbilaga B', 'Nätverksprodukter, priser i SEK exkl. moms'],
    columns: [
      { header: 'Artikelnummer', x: 40, width: 80, align: 'left' },
      { header: 'Benämning', x: 130, width: 180, align: 'left' },
      { header: 'Enhet', x: 320, width: 40, align: 'left' },
      { header: 'Pris', x: 370, width: 185, align: 'left' },
    ],
    rows: data.map((row) => [row.id, row.description, row.unit, row.price]),
    rowHeight: 16,
  });
  return save('sv-network-tiers.pdf', bytes, {
    defaultCurrency: 'EUR',
    complete: true,
    items: data.flatMap((row) =>
      row.amounts.map((amount) => item(row.id, row.description.replace('\n', ' '), row.unit, 'SEK', amount)),
    ),
    rejected: [],
  });
}

async function danishTwoLineHeader(): Promise<Truth> {
  const data: [string, string, string, string, string][] = [
    ['7001', 'Rengøring kontor, pr. m²', 'm2', '12,75', '12.75'],
    ['7002', 'Vinduespudsning', 'gang', '1.450,00', '1450'],
    ['7003', 'Måtteservice', 'md', '325,00', '325'],
    ['7004', 'Hovedrengøring', 'gang', '12.500,00', '12500'],
  ];
  const bytes = await pdfBytes({
    name: 'da-cleaning',
    title: ['Bilag 3 – Prisliste', 'Rengøringsservice ApS'],
    columns: [
      { header: ['Vare', 'nr.'], x: 40, width: 50, align: 'left' },
      { header: 'Beskrivelse', x: 100, width: 250, align: 'left' },
      { header: 'Enhed', x: 360, width: 50, align: 'left' },
      { header: ['Pris', 'DKK'], x: 450, width: 100, align: 'right' },
    ],
    rows: data.map(([id, description, unit, price]) => [id, description, unit, price]),
    font: 'Courier',
    boldFont: 'Courier-Bold',
  });
  return save('da-cleaning-two-line-header.pdf', bytes, {
    defaultCurrency: 'EUR',
    complete: true,
    items: data.map(([id, description, unit, , amount]) => item(id, description, unit, 'DKK', amount)),
    rejected: [],
  });
}

async function frenchDutchMixed(): Promise<Truth> {
  const data: [string, string, string, string, string][] = [
    ['FR-01', 'Café en grains 1 kg', 'kg', '18,40 €', '18.4'],
    ['FR-02', 'Thé vert (boîte de 100)', 'boîte', '7,95 €', '7.95'],
    ['FR-03', 'Gobelets carton 20 cl', 'carton', '42,00 €', '42'],
    ['FR-04', 'Machine à café – location mensuelle', 'mois', '1 180,00 €', '1180'],
  ];
  const bytes = await pdfBytes({
    name: 'fr-coffee',
    title: ['Annexe tarifaire', 'Contrat de service boissons chaudes'],
    columns: [
      { header: 'Référence', x: 40, width: 60, align: 'left' },
      { header: 'Désignation', x: 110, width: 260, align: 'left' },
      { header: 'Unité', x: 380, width: 60, align: 'left' },
      { header: 'Prix unitaire HT', x: 450, width: 100, align: 'right' },
    ],
    rows: data.map(([id, description, unit, price]) => [id, description, unit, price]),
  });
  return save('fr-coffee.pdf', bytes, {
    defaultCurrency: 'NOK',
    complete: true,
    items: data.map(([id, description, unit, , amount]) => item(id, description, unit, 'EUR', amount)),
    rejected: [],
  });
}

async function finnishUnreadableRow(): Promise<Truth> {
  const data: [string, string, string, string, string | null][] = [
    ['FI-10', 'Kopiopaperi A4', 'laatikko', '32,50', '32.5'],
    ['FI-11', 'Tulostimen väriaine musta', 'kpl', '89,9O', null],
    ['FI-12', 'Kansio A4 leveä', 'kpl', '2,15', '2.15'],
  ];
  const bytes = await pdfBytes({
    name: 'fi-unreadable',
    title: ['Hinnasto', 'Toimistotarvikkeet, hinnat EUR alv 0 %'],
    columns: [
      { header: 'Tuotenumero', x: 40, width: 70, align: 'left' },
      { header: 'Kuvaus', x: 120, width: 240, align: 'left' },
      { header: 'Yksikkö', x: 370, width: 60, align: 'left' },
      { header: 'Hinta', x: 450, width: 100, align: 'right' },
    ],
    rows: data.map(([id, description, unit, price]) => [id, description, unit, price]),
  });
  return save('fi-unreadable-row.pdf', bytes, {
    defaultCurrency: 'EUR',
    complete: false,
    items: data
      .filter((row) => row[4] !== null)
      .map(([id, description, unit, , amount]) => item(id, description, unit, 'EUR', amount!)),
    rejected: [{ sheet: 'page 1', rowNumber: 2 }],
  });
}

// ---- DOCX ----

const esc = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
const cell = (text: string) =>
  `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${text.split('\n').map(paragraph).join('')}</w:tc>`;
const table = (rows: string[][]) =>
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>${rows.map((row) => `<w:tr>${row.map(cell).join('')}</w:tr>`).join('')}</w:tbl>`;

async function docxBytes(body: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr/></w:body></w:document>`,
  );
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    date: new Date('2026-01-01T00:00:00Z'),
  } as JSZip.JSZipGeneratorOptions<'nodebuffer'>);
}

async function dutchDocx(): Promise<Truth> {
  const data: [string, string, string, string, string, string[]][] = [
    ['NL-501', 'Printerpapier A4 80 grams', 'doos', '€ 24,95', 'EUR', ['24.95']],
    ['NL-502', 'Toner zwart HP 26X', 'stuk', '1-9: 129,00\n10+: 119,00', 'EUR', ['129', '119']],
    ['NL-503', 'Archiefdoos karton', 'stuk', '3,40', 'EUR', ['3.4']],
    ['NL-504', 'Vergadertafel eiken 240 x 120', 'stuk', '1.845,00', 'EUR', ['1845']],
  ];
  const body = [
    paragraph('Bijlage 2 – Prijslijst kantoorartikelen'),
    // A layout table (letterhead) without a header: not a price table.
    table([['Kantoorhandel B.V.', 'KvK 12345678']]),
    paragraph('Prijzen exclusief btw, in EUR.'),
    table([
      ['Artikelnummer', 'Omschrijving', 'Eenheid', 'Prijs', 'Valuta'],
      ...data.map(([id, description, unit, price, currency]) => [id, description, unit, price, currency]),
    ]),
    paragraph('Geldig tot nader bericht.'),
  ].join('');
  const bytes = await docxBytes(body);
  return save('nl-office-supplies.docx', bytes, {
    defaultCurrency: 'NOK',
    complete: true,
    items: data.flatMap(([id, description, unit, , currency, amounts]) =>
      amounts.map((amount) => item(id, description, unit, currency, amount)),
    ),
    rejected: [],
  });
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/u, '').replace(/\.$/u, '') : text;
}

function save(file: string, bytes: Buffer, truth: Omit<Truth, 'file'>): Truth {
  writeFileSync(path.join(OUT, file), bytes);
  const full = { file, ...truth };
  writeFileSync(path.join(OUT, file.replace(/\.(pdf|docx)$/u, '.json')), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

/**
 * A price list printed and scanned again (image-only PDF, no text layer: read by OCR), with the
 * ground truth of the text-layer original.
 */
async function scanned(original: Truth, settings: ScanSettings, seed: number): Promise<Truth> {
  const bytes = await scanPdf(path.join(OUT, original.file), settings, seed);
  const { file, ...truth } = original;
  return save(`scan-${file}`, bytes, truth);
}

mkdirSync(OUT, { recursive: true });
const english = await englishAppendix();
const norwegian = await norwegianDocumentCurrency();
const made = [
  english,
  norwegian,
  await scanned(english, { dpi: 200, rotation: 0.8, paper: 240, noise: 6, specks: 0.0003, bilevel: false }, 61),
  await scanned(norwegian, { dpi: 200, rotation: -1.2, paper: 244, noise: 5, specks: 0.0002, bilevel: true }, 62),
  await germanMultiPage(),
  await swedishTiers(),
  await danishTwoLineHeader(),
  await frenchDutchMixed(),
  await finnishUnreadableRow(),
  await dutchDocx(),
];
console.log(made.map((truth) => `${truth.file}: ${truth.items.length} items`).join('\n'));
