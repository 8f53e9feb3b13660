// Generates the development corpus of text-layer PDF invoices for `npm run bench:extraction`:
// twelve visibly different layouts (label positions, caption-above-value, column orders, ruling
// lines or none, VAT table beside the totals, multi-page tables with carry-forwards, wrapped
// descriptions, credit notes) in the eight languages, with varied number and date formats,
// and the ground truth as JSON beside each PDF. Deterministic: the same seed gives the same files.
//
//   npx tsx scripts/corpus/generate-extraction-corpus.ts [out-dir]
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Decimal } from 'decimal.js';
import PDFDocument from 'pdfkit';
import { BUYERS, SUPPLIERS, VOCABULARY, type Lang, type Vocabulary } from './vocabulary.js';
import { seededRandom as random } from '../bench/seeded-random.js';

const OUT = process.argv[2] ?? path.resolve(import.meta.dirname, '../../test/fixtures/extraction-corpus');

type NumberStyle = 'space-comma' | 'dot-comma' | 'comma-dot' | 'apostrophe-dot' | 'plain-comma' | 'plain-dot';
type NegativeStyle = 'leading' | 'trailing' | 'parentheses';
type DateStyle = 'dotted' | 'slash-dmy' | 'slash-mdy' | 'iso' | 'dash-dmy' | 'month-name' | 'month-first';

interface Line {
  pos: number;
  item: string;
  description: string;
  quantity: Decimal;
  unit: string;
  price: Decimal;
  discount: Decimal | null;
  amount: Decimal;
  rate: string;
}

interface Invoice {
  id: string;
  layout: string;
  lang: Lang;
  v: Vocabulary;
  credit: boolean;
  number: string;
  issue: Date;
  due: Date;
  currency: string;
  order: string;
  supplier: (typeof SUPPLIERS)['en'][number];
  buyer: string;
  lines: Line[];
  net: Decimal;
  vatByRate: Array<{ rate: string; base: Decimal; tax: Decimal }>;
  vat: Decimal;
  gross: Decimal;
  numbers: NumberStyle;
  negatives: NegativeStyle;
  dates: DateStyle;
  pick: <T>(values: readonly T[]) => T;
}

function formatNumber(value: Decimal, style: NumberStyle, negatives: NegativeStyle, decimals = 2): string {
  const negative = value.isNegative() && !value.isZero();
  const [integer = '0', fraction = ''] = value.abs().toFixed(decimals).split('.');
  const group = (separator: string) => integer.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  const body = {
    'space-comma': `${group(' ')}${fraction ? `,${fraction}` : ''}`,
    'dot-comma': `${group('.')}${fraction ? `,${fraction}` : ''}`,
    'comma-dot': `${group(',')}${fraction ? `.${fraction}` : ''}`,
    'apostrophe-dot': `${group("'")}${fraction ? `.${fraction}` : ''}`,
    'plain-comma': `${integer}${fraction ? `,${fraction}` : ''}`,
    'plain-dot': `${integer}${fraction ? `.${fraction}` : ''}`,
  }[style];
  if (!negative) return body;
  return negatives === 'leading' ? `-${body}` : negatives === 'trailing' ? `${body}-` : `(${body})`;
}

function quantityText(invoice: Invoice, quantity: Decimal): string {
  const decimals = quantity.isInteger() ? 0 : 2;
  return formatNumber(quantity, invoice.numbers, invoice.negatives, decimals);
}

const pad = (n: number) => String(n).padStart(2, '0');

function formatDate(date: Date, style: DateStyle, v: Vocabulary, lang: Lang): string {
  const d = date.getUTCDate();
  const m = date.getUTCMonth() + 1;
  const y = date.getUTCFullYear();
  const month = v.months[m - 1] ?? '';
  switch (style) {
    case 'dotted':
      return `${pad(d)}.${pad(m)}.${y}`;
    case 'slash-dmy':
      return `${pad(d)}/${pad(m)}/${y}`;
    case 'slash-mdy':
      return `${pad(m)}/${pad(d)}/${y}`;
    case 'iso':
      return `${y}-${pad(m)}-${pad(d)}`;
    case 'dash-dmy':
      return `${pad(d)}-${pad(m)}-${y}`;
    case 'month-name':
      if (lang === 'en') return `${d} ${month.slice(0, 3)} ${y}`;
      if (lang === 'de' || lang === 'no' || lang === 'da' || lang === 'fi') return `${d}. ${month} ${y}`;
      return `${d} ${month} ${y}`;
    case 'month-first':
      return `${month} ${d}, ${y}`;
  }
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

function makeInvoice(
  index: number,
  layout: string,
  lang: Lang,
  options: Partial<Pick<Invoice, 'numbers' | 'negatives' | 'dates' | 'credit' | 'currency'>> & {
    lineCount?: number;
    discounts?: boolean;
    extras?: boolean;
    longText?: boolean;
  },
): Invoice {
  const rnd = random(1000 + index * 7919);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rnd() * values.length)] as T;
  const v = VOCABULARY[lang];
  const defaults: Record<Lang, { numbers: NumberStyle; dates: DateStyle; currency: string }> = {
    en: { numbers: 'comma-dot', dates: 'slash-dmy', currency: 'GBP' },
    no: { numbers: 'space-comma', dates: 'dotted', currency: 'NOK' },
    sv: { numbers: 'space-comma', dates: 'iso', currency: 'SEK' },
    da: { numbers: 'dot-comma', dates: 'dash-dmy', currency: 'DKK' },
    fi: { numbers: 'space-comma', dates: 'dotted', currency: 'EUR' },
    de: { numbers: 'dot-comma', dates: 'dotted', currency: 'EUR' },
    fr: { numbers: 'space-comma', dates: 'slash-dmy', currency: 'EUR' },
    nl: { numbers: 'dot-comma', dates: 'dash-dmy', currency: 'EUR' },
  };
  const base = defaults[lang];
  const issue = new Date(Date.UTC(2025, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 27)));
  const due = new Date(issue.getTime() + pick([8, 10, 14, 30]) * 86_400_000);
  const count = options.lineCount ?? 2 + Math.floor(rnd() * 9);
  const lines: Line[] = [];
  const pool = [...v.goods, ...v.services];
  for (let i = 0; i < count; i += 1) {
    const service = rnd() < 0.3;
    let description = pick(pool);
    if (options.longText && rnd() < 0.6)
      description = `${description} ${pick(['for the period', 'incl. setup and configuration according to', 'delivered to site and', 'per agreement'])} ${pick(v.goods)} ${pick(['and documentation', 'with two years warranty', 'batch 2025/' + String(10 + i)])}`;
    const quantity = service
      ? new Decimal(pick(['0.5', '1', '2.5', '4', '7.5', '12']))
      : new Decimal(1 + Math.floor(rnd() * (rnd() < 0.2 ? 1500 : 40)));
    const price = new Decimal(Math.floor(rnd() * (rnd() < 0.3 ? 2500000 : 90000)) + 50).dividedBy(100);
    const discount = options.discounts && rnd() < 0.4 ? new Decimal(pick(['5', '10', '15', '2.5'])) : null;
    const gross = quantity.times(price);
    const amount = discount
      ? gross.minus(gross.times(discount).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP))
      : gross.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const rate = v.rates.length > 1 && rnd() < 0.25 ? (v.rates[1] as string) : (v.rates[0] as string);
    lines.push({
      pos: i + 1,
      item: `${pick(['A', 'B', 'K', 'S', 'X'])}${100 + Math.floor(rnd() * 899)}-${10 + Math.floor(rnd() * 89)}`,
      description,
      quantity,
      unit: service ? (v.units[1] as string) : pick(v.units),
      price,
      discount,
      amount: amount.toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
      rate,
    });
  }
  if (options.extras) {
    lines.push({
      pos: lines.length + 1,
      item: 'FRT',
      description: v.freight,
      quantity: new Decimal(1),
      unit: v.units[0] as string,
      price: new Decimal('149.00'),
      discount: null,
      amount: new Decimal('149.00'),
      rate: v.rates[0] as string,
    });
    lines.push({
      pos: lines.length + 1,
      item: 'FEE',
      description: v.fee,
      quantity: new Decimal(1),
      unit: v.units[0] as string,
      price: new Decimal('45.00'),
      discount: null,
      amount: new Decimal('45.00'),
      rate: v.rates[0] as string,
    });
  }
  const credit = options.credit ?? false;
  if (credit) for (const line of lines) line.amount = line.amount.negated();
  const net = lines.reduce((total, line) => total.plus(line.amount), new Decimal(0));
  const rates = [...new Set(lines.map((line) => line.rate))];
  const vatByRate = rates.map((rate) => {
    const baseAmount = lines
      .filter((line) => line.rate === rate)
      .reduce((total, line) => total.plus(line.amount), new Decimal(0));
    return {
      rate,
      base: baseAmount,
      tax: baseAmount.times(rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
    };
  });
  const vat = vatByRate.reduce((total, entry) => total.plus(entry.tax), new Decimal(0));
  const supplier = pick(SUPPLIERS[lang]);
  const number = pick([
    `${issue.getUTCFullYear()}-${String(1000 + index * 37)}`,
    `INV-${String(20000 + index * 13)}`,
    String(100000 + index * 101),
    `${String(index + 1).padStart(4, '0')}/${issue.getUTCFullYear()}`,
    `F${issue.getUTCFullYear()}${String(index * 3 + 17).padStart(4, '0')}`,
  ]);
  return {
    id: `${String(index + 1).padStart(3, '0')}-${layout}-${lang}`,
    layout,
    lang,
    v,
    credit,
    number,
    issue,
    due,
    currency: options.currency ?? base.currency,
    order: pick([`PO-${4000 + index * 3}`, `${450000 + index * 11}`, `ORD${7700 + index}`]),
    supplier,
    buyer: pick(BUYERS[lang]),
    lines,
    net,
    vatByRate,
    vat,
    gross: net.plus(vat),
    numbers: options.numbers ?? base.numbers,
    negatives: options.negatives ?? 'leading',
    dates: options.dates ?? base.dates,
    pick,
  };
}

// ---- drawing helpers -----------------------------------------------------------------------

type Doc = PDFKit.PDFDocument;
const PAGE_W = 595;
const PAGE_H = 842;

function text(
  doc: Doc,
  value: string,
  x: number,
  y: number,
  size = 9,
  options: { bold?: boolean; align?: 'left' | 'right' } = {},
): void {
  doc.font(options.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
  const left = options.align === 'right' ? x - doc.widthOfString(value) : x;
  doc.text(value, left, y, { lineBreak: false });
}

function rule(doc: Doc, x0: number, y: number, x1: number, width = 0.5): void {
  doc.moveTo(x0, y).lineTo(x1, y).lineWidth(width).stroke('#444444');
}

function box(doc: Doc, x: number, y: number, w: number, h: number): void {
  doc.rect(x, y, w, h).lineWidth(0.5).stroke('#888888');
}

const money = (invoice: Invoice, value: Decimal) => formatNumber(value, invoice.numbers, invoice.negatives);
const date = (invoice: Invoice, value: Date) => formatDate(value, invoice.dates, invoice.v, invoice.lang);

interface Column {
  key: 'pos' | 'item' | 'description' | 'quantity' | 'unit' | 'price' | 'discount' | 'amount' | 'rate' | 'qtyunit';
  label: string;
  x: number;
  align: 'left' | 'right';
  width?: number;
}

function cell(invoice: Invoice, line: Line, key: Column['key']): string {
  switch (key) {
    case 'pos':
      return String(line.pos);
    case 'item':
      return line.item;
    case 'description':
      return line.description;
    case 'quantity':
      return quantityText(invoice, line.quantity);
    case 'unit':
      return line.unit;
    case 'qtyunit':
      return `${quantityText(invoice, line.quantity)} ${line.unit}`;
    case 'price':
      return money(invoice, line.price);
    case 'discount':
      return line.discount
        ? `${formatNumber(line.discount, invoice.numbers.endsWith('comma') ? 'plain-comma' : 'plain-dot', 'leading', line.discount.isInteger() ? 0 : 1)} %`
        : '';
    case 'amount':
      return money(invoice, line.amount);
    case 'rate':
      return `${formatNumber(new Decimal(line.rate), invoice.numbers.endsWith('comma') ? 'plain-comma' : 'plain-dot', 'leading', new Decimal(line.rate).isInteger() ? 0 : 1)} %`;
  }
}

/** Wraps a description into lines of at most `width` points. */
function wrap(doc: Doc, value: string, width: number, size: number): string[] {
  doc.font('Helvetica').fontSize(size);
  const lines: string[] = [];
  let current = '';
  for (const word of value.split(' ')) {
    const next = current ? `${current} ${word}` : word;
    if (doc.widthOfString(next) > width && current) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current) lines.push(current);
  return lines;
}

interface TableStyle {
  columns: Column[];
  size: number;
  rowHeight: number;
  rules: 'none' | 'header' | 'grid';
  headerBold: boolean;
  bottom: number;
  carry: boolean;
}

/** Draws the line table, paging with repeated headers and carry-forward rows; returns the y after it and the page count. */
function drawTable(
  doc: Doc,
  invoice: Invoice,
  top: number,
  style: TableStyle,
  pageTop: number,
  pageFooter: (page: number) => void,
): { y: number; pages: number } {
  let y = top;
  let page = 1;
  const right = Math.max(...style.columns.map((column) => column.x)) + 5;
  const header = () => {
    if (style.rules !== 'none') rule(doc, 40, y - 3, right);
    for (const column of style.columns)
      text(doc, column.label, column.x, y, style.size, { bold: style.headerBold, align: column.align });
    y += style.rowHeight + 2;
    if (style.rules !== 'none') rule(doc, 40, y - 4, right);
  };
  header();
  let running = new Decimal(0);
  const amountColumn = style.columns.find((column) => column.key === 'amount') as Column;
  for (const line of invoice.lines) {
    const descriptionColumn = style.columns.find((column) => column.key === 'description') as Column;
    const wrapped = wrap(doc, line.description, descriptionColumn.width ?? 200, style.size);
    const height = style.rowHeight * wrapped.length;
    if (y + height > style.bottom) {
      if (style.carry) {
        text(doc, invoice.pick(invoice.v.carried), descriptionColumn.x, y + 4, style.size, { bold: true });
        text(doc, money(invoice, running), amountColumn.x, y + 4, style.size, { bold: true, align: 'right' });
      }
      pageFooter(page);
      doc.addPage({ size: 'A4', margin: 0 });
      page += 1;
      y = pageTop;
      header();
      if (style.carry) {
        text(doc, invoice.pick(invoice.v.brought), descriptionColumn.x, y, style.size, { bold: true });
        text(doc, money(invoice, running), amountColumn.x, y, style.size, { bold: true, align: 'right' });
        y += style.rowHeight + 2;
      }
    }
    for (const column of style.columns) {
      if (column.key === 'description')
        wrapped.forEach((part, index) => text(doc, part, column.x, y + index * style.rowHeight, style.size));
      else text(doc, cell(invoice, line, column.key), column.x, y, style.size, { align: column.align });
    }
    running = running.plus(line.amount);
    y += height;
    if (style.rules === 'grid') rule(doc, 40, y - 2, right, 0.25);
    else y += 2;
  }
  if (style.rules !== 'none') rule(doc, 40, y, right);
  return { y: y + 8, pages: page };
}

/** Totals as label and value columns; returns the y below them. */
function drawTotals(
  doc: Doc,
  invoice: Invoice,
  y: number,
  labelX: number,
  valueX: number,
  size = 9,
  currency: 'label' | 'value' | 'none' = 'none',
): number {
  const { v } = invoice;
  const c = currency === 'label' ? ` ${invoice.currency}` : '';
  const after = currency === 'value' ? ` ${invoice.currency}` : '';
  text(doc, invoice.pick(v.net), labelX, y, size);
  text(doc, money(invoice, invoice.net), valueX, y, size, { align: 'right' });
  y += size + 5;
  for (const entry of invoice.vatByRate) {
    const label = `${invoice.pick(v.vat)} ${formatNumber(new Decimal(entry.rate), invoice.numbers.endsWith('comma') ? 'plain-comma' : 'plain-dot', 'leading', new Decimal(entry.rate).isInteger() ? 0 : 1)} %`;
    text(doc, label, labelX, y, size);
    text(doc, money(invoice, entry.tax), valueX, y, size, { align: 'right' });
    y += size + 5;
  }
  if (invoice.vatByRate.length > 1) {
    text(doc, v.vat[1] ?? v.vat[0] ?? 'VAT', labelX, y, size);
    text(doc, money(invoice, invoice.vat), valueX, y, size, { align: 'right' });
    y += size + 5;
  }
  rule(doc, labelX, y - 3, valueX + 2);
  text(doc, `${invoice.pick(v.gross).replace(/ (?:DKK|EUR)$/u, '')}${c}`, labelX, y + 1, size + 1, { bold: true });
  text(doc, money(invoice, invoice.gross), valueX, y + 1, size + 1, { bold: true, align: 'right' });
  y += size + 7;
  text(doc, invoice.pick(v.payable), labelX, y, size, { bold: true });
  text(doc, `${money(invoice, invoice.gross)}${after}`, valueX, y, size, { bold: true, align: 'right' });
  return y + size + 8;
}

function footer(doc: Doc, invoice: Invoice, page: number, pages: number | null): void {
  const { v, supplier } = invoice;
  rule(doc, 40, PAGE_H - 60, PAGE_W - 40, 0.25);
  text(
    doc,
    `${supplier.name} · ${supplier.street} · ${supplier.city} · ${invoice.pick(v.org)} ${supplier.org} · ${invoice.pick(v.vatNo)} ${supplier.vat}`,
    40,
    PAGE_H - 52,
    7,
  );
  text(doc, `IBAN NO93 8601 1117 947 · BIC DNBANOKK`, 40, PAGE_H - 42, 7);
  if (pages !== null) text(doc, `${v.page} ${page} ${v.of} ${pages}`, PAGE_W - 40, PAGE_H - 42, 7, { align: 'right' });
}

// ---- layouts --------------------------------------------------------------------------------

type Layout = (doc: Doc, invoice: Invoice) => void;

function standardColumns(invoice: Invoice, keys: Column['key'][], size = 9): Column[] {
  const { v } = invoice;
  const label: Record<Column['key'], string> = {
    pos: invoice.pick(v.pos),
    item: invoice.pick(v.item),
    description: invoice.pick(v.description),
    quantity: invoice.pick(v.quantity),
    unit: invoice.pick(v.unit),
    qtyunit: invoice.pick(v.quantity),
    price: invoice.pick(v.price),
    discount: invoice.pick(v.discount),
    amount: invoice.pick(v.amount),
    rate: invoice.pick(v.vatRate),
  };
  const widths: Record<Column['key'], number> = {
    pos: 32,
    item: 72,
    description: 0,
    quantity: 48,
    unit: 36,
    qtyunit: 60,
    price: 70,
    discount: 46,
    amount: 76,
    rate: 44,
  };
  const fixed = keys.filter((key) => key !== 'description').reduce((total, key) => total + widths[key], 0);
  const descriptionWidth = PAGE_W - 80 - fixed - 10;
  const columns: Column[] = [];
  let x = 42;
  for (const key of keys) {
    const width = key === 'description' ? descriptionWidth : widths[key];
    const numeric = ['quantity', 'price', 'discount', 'amount', 'rate', 'qtyunit'].includes(key);
    columns.push({
      key,
      label: label[key],
      x: numeric ? x + width - 4 : x,
      align: numeric ? 'right' : 'left',
      width: key === 'description' ? descriptionWidth - 8 : undefined,
    });
    x += width;
  }
  void size;
  return columns;
}

function letterhead(doc: Doc, invoice: Invoice, title: string): void {
  text(doc, invoice.supplier.name, 40, 40, 16, { bold: true });
  text(doc, invoice.supplier.street, 40, 60, 8);
  text(doc, invoice.supplier.city, 40, 70, 8);
  text(doc, title, PAGE_W - 40, 40, 20, { bold: true, align: 'right' });
}

function buyerBlock(doc: Doc, invoice: Invoice, x: number, y: number, labelled: boolean): void {
  if (labelled) text(doc, invoice.pick(invoice.v.buyer), x, y, 7, { bold: true });
  text(doc, invoice.buyer, x, y + 11, 10);
  text(doc, 'Postboks 123', x, y + 23, 9);
  text(doc, '1234 Byen', x, y + 34, 9);
}

function titleOf(invoice: Invoice): string {
  return invoice.pick(invoice.credit ? invoice.v.creditNote : invoice.v.invoice);
}

/** 1. Classic: "Label: value" pairs on the right, ruled table, totals right. */
const classic: Layout = (doc, invoice) => {
  const { v } = invoice;
  letterhead(doc, invoice, titleOf(invoice));
  buyerBlock(doc, invoice, 40, 110, true);
  const pairs: Array<[string, string]> = [
    [invoice.pick(v.number), invoice.number],
    [invoice.pick(v.date), date(invoice, invoice.issue)],
    [invoice.pick(v.due), date(invoice, invoice.due)],
    [invoice.pick(v.order), invoice.order],
    [invoice.pick(v.currency), invoice.currency],
  ];
  pairs.forEach(([label, value], index) => {
    text(doc, `${label.replace(/:$/u, '')}:`, 340, 110 + index * 13, 9);
    text(doc, value, PAGE_W - 40, 110 + index * 13, 9, { align: 'right' });
  });
  const { y, pages } = drawTable(
    doc,
    invoice,
    200,
    {
      columns: standardColumns(invoice, ['pos', 'item', 'description', 'quantity', 'unit', 'price', 'amount']),
      size: 9,
      rowHeight: 12,
      rules: 'header',
      headerBold: true,
      bottom: 720,
      carry: true,
    },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  drawTotals(doc, invoice, y + 6, 360, PAGE_W - 42);
  footer(doc, invoice, pages, null);
};

/** 2. Captions above values, in boxes (Swedish style), totals as captions too. */
const captions: Layout = (doc, invoice) => {
  const { v } = invoice;
  letterhead(doc, invoice, titleOf(invoice));
  buyerBlock(doc, invoice, 320, 90, false);
  const fields: Array<[string, string]> = [
    [invoice.pick(v.number), invoice.number],
    [invoice.pick(v.date), date(invoice, invoice.issue)],
    [invoice.pick(v.due), date(invoice, invoice.due)],
    [invoice.pick(v.order), invoice.order],
  ];
  fields.forEach(([label, value], index) => {
    const x = 40 + index * 128;
    box(doc, x, 160, 124, 30);
    text(doc, label, x + 4, 164, 6.5);
    text(doc, value, x + 4, 176, 10);
  });
  const { y, pages } = drawTable(
    doc,
    invoice,
    215,
    {
      columns: standardColumns(invoice, ['item', 'description', 'quantity', 'unit', 'price', 'amount']),
      size: 8.5,
      rowHeight: 12,
      rules: 'grid',
      headerBold: false,
      bottom: 700,
      carry: true,
    },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  const totals: Array<[string, Decimal]> = [
    [invoice.pick(v.net), invoice.net],
    [v.vat[0] as string, invoice.vat],
    [invoice.pick(v.payable), invoice.gross],
  ];
  totals.forEach(([label, value], index) => {
    const x = 260 + index * 100;
    box(doc, x, y + 10, 96, 30);
    text(doc, label, x + 4, y + 14, 6.5);
    text(doc, `${money(invoice, value)}${index === 2 ? ` ${invoice.currency}` : ''}`, x + 92, y + 26, 10, {
      bold: index === 2,
      align: 'right',
    });
  });
  footer(doc, invoice, pages, null);
};

/** 3. The VAT breakdown table beside the totals, on the same lines. */
const vatBeside: Layout = (doc, invoice) => {
  const { v } = invoice;
  letterhead(doc, invoice, titleOf(invoice));
  buyerBlock(doc, invoice, 40, 100, true);
  text(doc, `${invoice.pick(v.number)} ${invoice.number}`, 340, 100, 10, { bold: true });
  text(doc, `${invoice.pick(v.date)} ${date(invoice, invoice.issue)}`, 340, 114, 9);
  text(doc, `${invoice.pick(v.due)} ${date(invoice, invoice.due)}`, 340, 127, 9);
  const { y, pages } = drawTable(
    doc,
    invoice,
    190,
    {
      columns: standardColumns(invoice, ['pos', 'description', 'quantity', 'price', 'rate', 'amount']),
      size: 9,
      rowHeight: 13,
      rules: 'none',
      headerBold: true,
      bottom: 700,
      carry: true,
    },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  const [rateLabel, baseLabel, taxLabel] = v.vatBase;
  text(doc, rateLabel ?? '', 40, y + 10, 8, { bold: true });
  text(doc, baseLabel ?? '', 160, y + 10, 8, { bold: true, align: 'right' });
  text(doc, taxLabel ?? '', 230, y + 10, 8, { bold: true, align: 'right' });
  invoice.vatByRate.forEach((entry, index) => {
    const rowY = y + 24 + index * 12;
    text(
      doc,
      `${formatNumber(new Decimal(entry.rate), invoice.numbers.endsWith('comma') ? 'plain-comma' : 'plain-dot', 'leading', new Decimal(entry.rate).isInteger() ? 0 : 1)} %`,
      40,
      rowY,
      9,
    );
    text(doc, money(invoice, entry.base), 160, rowY, 9, { align: 'right' });
    text(doc, money(invoice, entry.tax), 230, rowY, 9, { align: 'right' });
  });
  const labels: Array<[string, Decimal]> = [
    [invoice.pick(v.net), invoice.net],
    [v.vat[0] as string, invoice.vat],
    [`${invoice.pick(v.gross).replace(/ (?:DKK|EUR)$/u, '')} ${invoice.currency}`, invoice.gross],
  ];
  labels.forEach(([label, value], index) => {
    text(doc, label, 360, y + 24 + index * 12, 9, { bold: index === 2 });
    text(doc, money(invoice, value), PAGE_W - 42, y + 24 + index * 12, 9, { bold: index === 2, align: 'right' });
  });
  footer(doc, invoice, pages, null);
};

/** 4. A label column and a value column far apart at the top left; no ruling lines anywhere. */
const metaTable: Layout = (doc, invoice) => {
  const { v } = invoice;
  text(doc, titleOf(invoice), 40, 40, 18, { bold: true });
  text(doc, invoice.supplier.name, PAGE_W - 40, 40, 11, { bold: true, align: 'right' });
  text(doc, invoice.supplier.street, PAGE_W - 40, 54, 8, { align: 'right' });
  text(doc, invoice.supplier.city, PAGE_W - 40, 64, 8, { align: 'right' });
  text(doc, `${invoice.pick(v.org)} ${invoice.supplier.org}`, PAGE_W - 40, 74, 8, { align: 'right' });
  text(doc, `${invoice.pick(v.vatNo)} ${invoice.supplier.vat}`, PAGE_W - 40, 84, 8, { align: 'right' });
  const rows: Array<[string, string]> = [
    [invoice.pick(v.number), invoice.number],
    [invoice.pick(v.date), date(invoice, invoice.issue)],
    [invoice.pick(v.due), date(invoice, invoice.due)],
    [invoice.pick(v.order), invoice.order],
    [invoice.pick(v.currency), invoice.currency],
  ];
  rows.forEach(([label, value], index) => {
    text(doc, label, 40, 80 + index * 13, 9);
    text(doc, value, 160, 80 + index * 13, 9);
  });
  buyerBlock(doc, invoice, 40, 160, true);
  const { y, pages } = drawTable(
    doc,
    invoice,
    230,
    {
      columns: standardColumns(invoice, ['description', 'quantity', 'price', 'rate', 'amount']),
      size: 9,
      rowHeight: 13,
      rules: 'none',
      headerBold: true,
      bottom: 710,
      carry: false,
    },
    60,
    () => undefined,
  );
  drawTotals(doc, invoice, y + 10, 350, PAGE_W - 42);
  void pages;
};

/** 5. Quantity and unit before the description, with a discount column. */
const reordered: Layout = (doc, invoice) => {
  const { v } = invoice;
  letterhead(doc, invoice, titleOf(invoice));
  text(doc, `${invoice.pick(v.number)}: ${invoice.number}`, 40, 100, 10);
  text(doc, `${invoice.pick(v.date)}: ${date(invoice, invoice.issue)}`, 40, 114, 9);
  text(doc, `${invoice.pick(v.due)}: ${date(invoice, invoice.due)}`, 40, 127, 9);
  buyerBlock(doc, invoice, 340, 95, true);
  const { y, pages } = drawTable(
    doc,
    invoice,
    190,
    {
      columns: standardColumns(invoice, ['item', 'quantity', 'unit', 'description', 'price', 'discount', 'amount']),
      size: 8.5,
      rowHeight: 12,
      rules: 'grid',
      headerBold: true,
      bottom: 700,
      carry: true,
    },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  drawTotals(doc, invoice, y + 8, 340, PAGE_W - 42, 9, 'label');
  footer(doc, invoice, pages, null);
};

/** 6. Many lines over several pages: repeated headers, carry-forwards, page numbers. */
const multiPage: Layout = (doc, invoice) => {
  const { v } = invoice;
  letterhead(doc, invoice, titleOf(invoice));
  buyerBlock(doc, invoice, 40, 100, true);
  const pairs: Array<[string, string]> = [
    [invoice.pick(v.number), invoice.number],
    [invoice.pick(v.date), date(invoice, invoice.issue)],
    [invoice.pick(v.due), date(invoice, invoice.due)],
  ];
  pairs.forEach(([label, value], index) => {
    text(doc, label, 340, 100 + index * 13, 9);
    text(doc, value, 460, 100 + index * 13, 9);
  });
  const lineCount = invoice.lines.length;
  const pagesEstimate = Math.ceil((lineCount * 13 + 200) / 600) + 1;
  const { y, pages } = drawTable(
    doc,
    invoice,
    180,
    {
      columns: standardColumns(invoice, ['pos', 'item', 'description', 'quantity', 'unit', 'price', 'amount']),
      size: 8.5,
      rowHeight: 12,
      rules: 'header',
      headerBold: true,
      bottom: 740,
      carry: true,
    },
    60,
    (page) => footer(doc, invoice, page, pagesEstimate),
  );
  drawTotals(doc, invoice, y + 8, 360, PAGE_W - 42, 9, 'value');
  footer(doc, invoice, pages, pagesEstimate);
};

/** 7. Long descriptions wrapped over two or three lines, freight and fee lines. */
const wrapped: Layout = (doc, invoice) => {
  const { v } = invoice;
  text(doc, invoice.supplier.name, PAGE_W / 2, 40, 14, { bold: true, align: 'right' });
  text(doc, titleOf(invoice), 40, 90, 16, { bold: true });
  text(
    doc,
    `${invoice.pick(v.number)} ${invoice.number}  ·  ${invoice.pick(v.date)} ${date(invoice, invoice.issue)}`,
    40,
    112,
    9,
  );
  text(doc, `${invoice.pick(v.due)} ${date(invoice, invoice.due)}`, 40, 124, 9);
  buyerBlock(doc, invoice, 360, 90, true);
  const columns = standardColumns(invoice, ['pos', 'description', 'qtyunit', 'price', 'amount']);
  const description = columns.find((column) => column.key === 'description');
  if (description) description.width = 190;
  const { y, pages } = drawTable(
    doc,
    invoice,
    170,
    { columns, size: 9, rowHeight: 11, rules: 'header', headerBold: true, bottom: 720, carry: true },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  drawTotals(doc, invoice, y + 8, 360, PAGE_W - 42, 9, 'label');
  footer(doc, invoice, pages, null);
};

/** 8. Sender line above the address window, ids only in the footer, totals with the currency. */
const senderLine: Layout = (doc, invoice) => {
  const { v, supplier } = invoice;
  text(doc, supplier.name, 40, 40, 15, { bold: true });
  text(doc, `${supplier.name} · ${supplier.street} · ${supplier.city}`, 40, 100, 6.5);
  text(doc, invoice.buyer, 40, 114, 10);
  text(doc, 'Box 55', 40, 126, 9);
  text(doc, titleOf(invoice), 340, 100, 14, { bold: true });
  text(doc, invoice.pick(v.number), 340, 120, 8);
  text(doc, invoice.number, PAGE_W - 40, 120, 8, { align: 'right' });
  text(doc, invoice.pick(v.date), 340, 131, 8);
  text(doc, date(invoice, invoice.issue), PAGE_W - 40, 131, 8, { align: 'right' });
  text(doc, invoice.pick(v.due), 340, 142, 8);
  text(doc, date(invoice, invoice.due), PAGE_W - 40, 142, 8, { align: 'right' });
  const { y, pages } = drawTable(
    doc,
    invoice,
    190,
    {
      columns: standardColumns(invoice, ['item', 'description', 'quantity', 'price', 'amount']),
      size: 9,
      rowHeight: 13,
      rules: 'header',
      headerBold: false,
      bottom: 700,
      carry: true,
    },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  drawTotals(doc, invoice, y + 8, 340, PAGE_W - 42, 9, 'label');
  footer(doc, invoice, pages, null);
};

/** 9. American: month-first dates, "$" amounts, "Bill To", "Amount Due" box. */
const american: Layout = (doc, invoice) => {
  text(doc, 'INVOICE', PAGE_W - 40, 40, 24, { bold: true, align: 'right' });
  text(doc, invoice.supplier.name, 40, 40, 13, { bold: true });
  text(doc, '500 Main Street, Suite 200', 40, 58, 8);
  text(doc, 'Austin, TX 78701', 40, 68, 8);
  text(doc, 'BILL TO', 40, 110, 8, { bold: true });
  text(doc, invoice.buyer, 40, 122, 10);
  const rows: Array<[string, string]> = [
    ['Invoice #', invoice.number],
    ['Invoice Date', date(invoice, invoice.issue)],
    ['Due Date', date(invoice, invoice.due)],
    ['P.O.#', invoice.order],
  ];
  rows.forEach(([label, value], index) => {
    text(doc, label, 400, 110 + index * 13, 9, { bold: true, align: 'right' });
    text(doc, value, PAGE_W - 40, 110 + index * 13, 9, { align: 'right' });
  });
  const columns: Column[] = [
    { key: 'quantity', label: 'QTY', x: 70, align: 'right' },
    { key: 'description', label: 'DESCRIPTION', x: 90, align: 'left', width: 260 },
    { key: 'price', label: 'UNIT PRICE', x: 450, align: 'right' },
    { key: 'amount', label: 'AMOUNT', x: PAGE_W - 42, align: 'right' },
  ];
  const { y } = drawTable(
    doc,
    invoice,
    200,
    { columns, size: 9, rowHeight: 14, rules: 'grid', headerBold: true, bottom: 720, carry: false },
    60,
    () => undefined,
  );
  const rate = invoice.vatByRate[0]?.rate ?? '0';
  const lines: Array<[string, string]> = [
    ['Subtotal', money(invoice, invoice.net)],
    [`Sales Tax ${rate}%`, money(invoice, invoice.vat)],
    ['TOTAL', `$${money(invoice, invoice.gross)}`],
  ];
  lines.forEach(([label, value], index) => {
    text(doc, label, 420, y + 8 + index * 14, 9, { bold: index === 2, align: 'right' });
    text(doc, value, PAGE_W - 42, y + 8 + index * 14, 9, { bold: index === 2, align: 'right' });
  });
  text(doc, 'Amount Due (USD)', 420, y + 56, 10, { bold: true, align: 'right' });
  text(doc, `$${money(invoice, invoice.gross)}`, PAGE_W - 42, y + 56, 10, { bold: true, align: 'right' });
  text(doc, `EIN ${invoice.supplier.org}`, 40, PAGE_H - 50, 7);
};

/** 10. Compact: one meta line, quantity with its unit, a VAT column, small type. */
const compact: Layout = (doc, invoice) => {
  const { v } = invoice;
  text(doc, invoice.supplier.name, 40, 36, 12, { bold: true });
  text(
    doc,
    `${invoice.supplier.street}, ${invoice.supplier.city} · ${invoice.pick(v.vatNo)} ${invoice.supplier.vat}`,
    40,
    50,
    7,
  );
  text(doc, `${titleOf(invoice)} ${invoice.number}`, 40, 80, 12, { bold: true });
  text(
    doc,
    `${invoice.pick(v.date)}: ${date(invoice, invoice.issue)}   ${invoice.pick(v.due)}: ${date(invoice, invoice.due)}   ${invoice.pick(v.order)}: ${invoice.order}`,
    40,
    96,
    8,
  );
  text(doc, `${invoice.pick(v.buyer)}: ${invoice.buyer}`, 40, 110, 8);
  const { y } = drawTable(
    doc,
    invoice,
    140,
    {
      columns: standardColumns(invoice, ['item', 'description', 'qtyunit', 'price', 'rate', 'amount']),
      size: 7.5,
      rowHeight: 10,
      rules: 'header',
      headerBold: true,
      bottom: 760,
      carry: false,
    },
    60,
    () => undefined,
  );
  drawTotals(doc, invoice, y + 6, 380, PAGE_W - 42, 8, 'label');
};

/** 11. Swiss German: apostrophe grouping, CHF, "Total CHF". */
const swiss: Layout = (doc, invoice) => {
  const { v } = invoice;
  letterhead(doc, invoice, titleOf(invoice));
  buyerBlock(doc, invoice, 320, 100, false);
  text(doc, `${invoice.pick(v.number)}`, 40, 100, 8);
  text(doc, invoice.number, 140, 100, 9);
  text(doc, `${invoice.pick(v.date)}`, 40, 112, 8);
  text(doc, date(invoice, invoice.issue), 140, 112, 9);
  text(doc, `${invoice.pick(v.due)}`, 40, 124, 8);
  text(doc, date(invoice, invoice.due), 140, 124, 9);
  text(doc, `MWST-Nr. ${invoice.supplier.vat}`, 40, 136, 8);
  const { y, pages } = drawTable(
    doc,
    invoice,
    180,
    {
      columns: standardColumns(invoice, ['pos', 'description', 'quantity', 'unit', 'price', 'amount']),
      size: 9,
      rowHeight: 12,
      rules: 'grid',
      headerBold: true,
      bottom: 700,
      carry: true,
    },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  drawTotals(doc, invoice, y + 8, 360, PAGE_W - 42, 9, 'label');
  void pages;
};

/** 12. Credit note: negative amounts, credited invoice reference. */
const creditNote: Layout = (doc, invoice) => {
  const { v } = invoice;
  letterhead(doc, invoice, titleOf(invoice));
  buyerBlock(doc, invoice, 40, 100, true);
  text(doc, invoice.pick(v.number), 340, 100, 8);
  text(doc, invoice.number, PAGE_W - 40, 100, 9, { align: 'right' });
  text(doc, invoice.pick(v.date), 340, 113, 8);
  text(doc, date(invoice, invoice.issue), PAGE_W - 40, 113, 9, { align: 'right' });
  text(doc, invoice.pick(v.due), 340, 126, 8);
  text(doc, date(invoice, invoice.due), PAGE_W - 40, 126, 9, { align: 'right' });
  const { y, pages } = drawTable(
    doc,
    invoice,
    190,
    {
      columns: standardColumns(invoice, ['pos', 'description', 'quantity', 'price', 'amount']),
      size: 9,
      rowHeight: 12,
      rules: 'header',
      headerBold: true,
      bottom: 700,
      carry: false,
    },
    60,
    (page) => footer(doc, invoice, page, null),
  );
  drawTotals(doc, invoice, y + 8, 360, PAGE_W - 42, 9, 'value');
  footer(doc, invoice, pages, null);
};

const LAYOUTS: Record<string, Layout> = {
  classic,
  captions,
  vatBeside,
  metaTable,
  reordered,
  multiPage,
  wrapped,
  senderLine,
  american,
  compact,
  swiss,
  creditNote,
};

// ---- the corpus -------------------------------------------------------------------------------

interface Spec {
  layout: keyof typeof LAYOUTS;
  lang: Lang;
  options?: Parameters<typeof makeInvoice>[3];
}

const ALL: Lang[] = ['en', 'no', 'sv', 'da', 'fi', 'de', 'fr', 'nl'];
const SPECS: Spec[] = [
  ...ALL.map((lang): Spec => ({ layout: 'classic', lang })),
  ...(['sv', 'no', 'fi', 'da', 'sv', 'en'] as Lang[]).map((lang, i): Spec => ({
    layout: 'captions',
    lang,
    options: i === 4 ? { dates: 'month-name' } : {},
  })),
  ...(['de', 'nl', 'fr', 'no', 'en', 'fi'] as Lang[]).map((lang): Spec => ({ layout: 'vatBeside', lang })),
  ...(['en', 'de', 'nl', 'fi', 'da'] as Lang[]).map((lang, i): Spec => ({
    layout: 'metaTable',
    lang,
    options: i === 0 ? { dates: 'month-name', currency: 'EUR', numbers: 'comma-dot' } : i === 1 ? { dates: 'iso' } : {},
  })),
  ...(['de', 'fr', 'sv', 'no', 'nl', 'en'] as Lang[]).map((lang): Spec => ({
    layout: 'reordered',
    lang,
    options: { discounts: true },
  })),
  ...(['de', 'no', 'en', 'sv', 'fr'] as Lang[]).map((lang, i): Spec => ({
    layout: 'multiPage',
    lang,
    options: { lineCount: 40 + i * 9 },
  })),
  ...(['en', 'fi', 'nl', 'da', 'de'] as Lang[]).map((lang): Spec => ({
    layout: 'wrapped',
    lang,
    options: { longText: true, extras: true },
  })),
  ...(['da', 'no', 'sv', 'de', 'da'] as Lang[]).map((lang, i): Spec => ({
    layout: 'senderLine',
    lang,
    options: { dates: i % 2 === 0 ? 'month-name' : undefined },
  })),
  ...[0, 1, 2, 3].map((i): Spec => ({
    layout: 'american',
    lang: 'en',
    options: { dates: i === 1 ? 'month-first' : 'slash-mdy', currency: 'USD', numbers: 'comma-dot' },
  })),
  ...(['fr', 'nl', 'fi', 'en', 'de'] as Lang[]).map((lang, i): Spec => ({
    layout: 'compact',
    lang,
    options: i === 3 ? { dates: 'month-name', currency: 'EUR' } : i === 0 ? { numbers: 'plain-comma' } : {},
  })),
  ...[0, 1, 2].map((i): Spec => ({
    layout: 'swiss',
    lang: 'de',
    options: { numbers: 'apostrophe-dot', currency: 'CHF', dates: i === 2 ? 'month-name' : 'dotted' },
  })),
  ...(['no', 'de', 'fr', 'en', 'sv'] as Lang[]).map((lang, i): Spec => ({
    layout: 'creditNote',
    lang,
    options: {
      credit: true,
      negatives: (['trailing', 'leading', 'parentheses', 'parentheses', 'trailing'] as NegativeStyle[])[i],
    },
  })),
];

function groundTruth(invoice: Invoice, layout: string, pages: number) {
  const printed = (keys: string[]) => keys;
  const columnsByLayout: Record<string, string[]> = {
    classic: ['id', 'sellerItemId', 'description', 'quantity', 'unitCode', 'unitPrice', 'netAmount'],
    captions: ['sellerItemId', 'description', 'quantity', 'unitCode', 'unitPrice', 'netAmount'],
    vatBeside: ['id', 'description', 'quantity', 'unitPrice', 'vatPercent', 'netAmount'],
    metaTable: ['description', 'quantity', 'unitPrice', 'vatPercent', 'netAmount'],
    reordered: ['sellerItemId', 'quantity', 'unitCode', 'description', 'unitPrice', 'discountPercent', 'netAmount'],
    multiPage: ['id', 'sellerItemId', 'description', 'quantity', 'unitCode', 'unitPrice', 'netAmount'],
    wrapped: ['id', 'description', 'quantity', 'unitCode', 'unitPrice', 'netAmount'],
    senderLine: ['sellerItemId', 'description', 'quantity', 'unitPrice', 'netAmount'],
    american: ['quantity', 'description', 'unitPrice', 'netAmount'],
    compact: ['sellerItemId', 'description', 'quantity', 'unitCode', 'unitPrice', 'vatPercent', 'netAmount'],
    swiss: ['id', 'description', 'quantity', 'unitCode', 'unitPrice', 'netAmount'],
    creditNote: ['id', 'description', 'quantity', 'unitPrice', 'netAmount'],
  };
  const columns = printed(columnsByLayout[layout] ?? []);
  const orderPrinted = ['classic', 'captions', 'metaTable', 'american', 'compact'].includes(layout);
  const orgPrinted = !['compact', 'swiss'].includes(layout);
  const vatPrinted = layout !== 'american';
  const buyerPrinted = true;
  const header: Record<string, string | null> = {
    documentType: invoice.credit ? 'credit_note' : 'invoice',
    invoiceNumber: invoice.number,
    issueDate: iso(invoice.issue),
    dueDate: iso(invoice.due),
    currencyCode: invoice.currency,
    'supplier.name': invoice.supplier.name,
    'totals.taxExclusive': invoice.net.toFixed(2),
    'totals.vatTotal': invoice.vat.toFixed(2),
    'totals.taxInclusive': invoice.gross.toFixed(2),
    'totals.payable': invoice.gross.toFixed(2),
  };
  if (orgPrinted) header['supplier.orgNumber'] = invoice.supplier.org;
  if (vatPrinted) header['supplier.vatId'] = invoice.supplier.vat;
  if (buyerPrinted) header['recipient.name'] = invoice.buyer;
  if (orderPrinted) header.orderReference = invoice.order;
  const lines = invoice.lines.map((line) => {
    const all: Record<string, string | null> = {
      id: String(line.pos),
      sellerItemId: line.item,
      description: line.description,
      quantity: line.quantity.toString(),
      unitCode: line.unit,
      unitPrice: line.price.toFixed(2),
      discountPercent: line.discount ? line.discount.toString() : null,
      netAmount: line.amount.toFixed(2),
      vatPercent: line.rate,
    };
    return Object.fromEntries(columns.map((column) => [column, all[column] ?? null]));
  });
  return {
    layout,
    language: invoice.lang,
    pages,
    numberFormat: invoice.numbers,
    dateFormat: invoice.dates,
    header,
    lines,
  };
}

async function render(invoice: Invoice): Promise<{ bytes: Buffer; pages: number }> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    compress: true,
    info: { Title: invoice.id, CreationDate: new Date(Date.UTC(2025, 0, 1)), Producer: 'corpus', Creator: 'corpus' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  (LAYOUTS[invoice.layout] as Layout)(doc, invoice);
  const pages = doc.bufferedPageRange().count;
  doc.end();
  await done;
  return { bytes: Buffer.concat(chunks), pages };
}

export async function generateCorpus(outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [index, spec] of SPECS.entries()) {
    const invoice = makeInvoice(index, spec.layout, spec.lang, spec.options ?? {});
    const { bytes, pages } = await render(invoice);
    writeFileSync(path.join(outDir, `${invoice.id}.pdf`), bytes);
    writeFileSync(
      path.join(outDir, `${invoice.id}.json`),
      `${JSON.stringify(groundTruth(invoice, spec.layout, pages), null, 2)}\n`,
    );
    written.push(invoice.id);
  }
  return written;
}

/** A single long invoice for the 50-page timing. */
export async function generateLongInvoice(lineCount: number): Promise<Buffer> {
  const invoice = makeInvoice(999, 'multiPage', 'de', { lineCount });
  return (await render(invoice)).bytes;
}

export async function generateInvoice(
  index: number,
  layout: keyof typeof LAYOUTS,
  lang: Lang,
  options: Parameters<typeof makeInvoice>[3] = {},
): Promise<{ bytes: Buffer; truth: ReturnType<typeof groundTruth> }> {
  const invoice = makeInvoice(index, layout, lang, options);
  const { bytes, pages } = await render(invoice);
  return { bytes, truth: groundTruth(invoice, layout, pages) };
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const written = await generateCorpus(OUT);
  console.log(`${written.length} invoices written to ${OUT}`);
}
