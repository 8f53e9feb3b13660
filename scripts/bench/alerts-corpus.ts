// The corpus of npm run bench:alerts: six suppliers in six countries, each with an agreement whose
// price list is written the way that supplier writes it (its language, its unit words, pack
// sizes, rate terms and fees), and Peppol BIS 3 invoices and credit notes from them, generated
// from a seed. Honest variations are there as decoys; every problem kind is planted, and the
// ground truth says, per invoice, which line or charge is wrong and by how much.
import { Decimal } from 'decimal.js';
import {
  peppolDocument,
  type PeppolCharge,
  type PeppolDocument,
  type PeppolLine,
  type PeppolSupplier,
} from '../../test/support/peppol.js';
import { seededRandom } from './support.js';

export type Category =
  | 'price_above_agreed'
  | 'missing_discount'
  | 'fee_not_agreed'
  | 'document_charge_not_agreed'
  | 'rate_above_agreed'
  | 'charge_after_agreement_end'
  | 'duplicate'
  | 'arithmetic_error'
  | 'unit_hidden_overcharge';

/** The checker whose alert finds a category, and whether it flags a line or the invoice. */
export const CATEGORY_CHECKERS: Record<Category, { checker: string; onLine: boolean }> = {
  price_above_agreed: { checker: 'unit_price_above_agreed', onLine: true },
  missing_discount: { checker: 'agreed_discount_missing', onLine: false },
  fee_not_agreed: { checker: 'fee_not_agreed', onLine: true },
  document_charge_not_agreed: { checker: 'fee_not_agreed', onLine: false },
  rate_above_agreed: { checker: 'fee_above_agreed', onLine: false },
  charge_after_agreement_end: { checker: 'charge_outside_agreement_period', onLine: true },
  duplicate: { checker: 'duplicate_charge', onLine: true },
  arithmetic_error: { checker: 'line_arithmetic', onLine: true },
  unit_hidden_overcharge: { checker: 'unit_price_above_agreed', onLine: true },
};

export type Decoy =
  | 'pack_per_piece'
  | 'line_discount'
  | 'unit_word'
  | 'unit_word_unknown'
  | 'one_cent_rounding'
  | 'repeat_order'
  | 'freight_within_rate'
  | 'agreed_fee'
  | 'discount_given'
  | 'credit_note';

export interface Truth {
  category: Category;
  /** 1-based line number for line problems, null for the invoice. */
  line: number | null;
  impact: string;
}

export interface CorpusDocument {
  key: string;
  supplier: number;
  /** Uploaded after the others (a re-sent invoice must come after its original). */
  late: boolean;
  creditNote: boolean;
  bytes: Buffer;
  truths: Truth[];
  decoys: Set<Decoy>;
}

export interface CorpusAgreement {
  supplier: number;
  title: string;
  currency: string;
  entries: object[];
}

export interface Corpus {
  suppliers: PeppolSupplier[];
  agreements: CorpusAgreement[];
  documents: CorpusDocument[];
}

interface Article {
  id: string;
  description: string;
  /** The unit as the price list writes it. */
  listUnit: string;
  /** The unit code the supplier's invoices send. */
  invoiceUnit: string;
  price: string;
  /** Units per list unit when the list prices a pack and invoices bill pieces. */
  packOf?: number;
  /** The list writes the unit as a local word or abbreviation (read through the unit table's words). */
  unknownWord?: boolean;
  monthly?: boolean;
}

interface SupplierStyle {
  party: PeppolSupplier;
  currency: string;
  prefix: (n: number) => string;
  articles: Article[];
  /** Rate terms: an agreed discount and an agreed freight rate, as the supplier words them. */
  discount: { description: string; fraction: string; basis: string | null; invoiceReason: string } | null;
  freight: {
    description: string;
    fraction: string;
    basis: string | null;
    invoiceAs: { reason?: string; code?: string; line?: string }[];
  } | null;
  /** A fee the agreement allows as an amount. */
  agreedFee: { description: string; amount: string; invoiceReason: string } | null;
  /** Fees and charges the supplier adds that no agreement of theirs allows. */
  unagreedLineFees: string[];
  unagreedDocumentCharges: { reason?: string; code?: string }[];
  /** Freight the supplier charges when the agreement has none. */
  lineDiscountReason: string;
}

const SUPPLIERS: SupplierStyle[] = [
  {
    party: { name: 'Kontorpartner AS', vat: 'NO912345674MVA', country: 'NO', city: 'Oslo' },
    currency: 'NOK',
    prefix: (n) => String(240100 + n),
    articles: [
      { id: '100-220', description: 'Kopipapir A4 80g', listUnit: 'pakke', invoiceUnit: 'PK', price: '54.90' },
      { id: '100-310', description: 'Kulepenn blå', listUnit: 'stk', invoiceUnit: 'EA', price: '8.50' },
      { id: '100-455', description: 'Toner HP 305A sort', listUnit: 'stk', invoiceUnit: 'C62', price: '899.00' },
      { id: '100-512', description: 'Ringperm A4 50mm', listUnit: 'stk', invoiceUnit: 'H87', price: '32.00' },
      { id: '100-610', description: 'Post-it 76x76', listUnit: 'pakke', invoiceUnit: 'PK', price: '119.00' },
      { id: '100-700', description: 'Arkivboks', listUnit: 'eske', invoiceUnit: 'BX', price: '249.00' },
      {
        id: '100-800',
        description: 'Tusj whiteboard, eske à 10 stk',
        listUnit: 'eske',
        invoiceUnit: 'EA',
        price: '120.00',
        packOf: 10,
      },
      {
        id: 'LEIE-01',
        description: 'Leie multifunksjonsskriver',
        listUnit: 'mnd',
        invoiceUnit: 'MON',
        price: '1450.00',
        monthly: true,
      },
    ],
    discount: {
      description: 'Kunderabatt',
      fraction: '0.05',
      basis: 'fakturabeløp eks. mva',
      invoiceReason: 'Kunderabatt 5%',
    },
    freight: null,
    agreedFee: { description: 'Ekspedisjonsgebyr', amount: '35.00', invoiceReason: 'Ekspedisjonsgebyr' },
    unagreedLineFees: ['Fakturagebyr', 'Miljøavgift'],
    unagreedDocumentCharges: [{ reason: 'Frakt' }, { reason: 'Småordretillegg' }],
    lineDiscountReason: 'Rabatt',
  },
  {
    party: { name: 'Kantoorgroep B.V.', vat: 'NL812345678B01', country: 'NL', city: 'Utrecht' },
    currency: 'EUR',
    prefix: (n) => `KG-2026-${String(n).padStart(4, '0')}`,
    articles: [
      {
        id: 'KG1001',
        description: 'Kopieerpapier A4 80 gram',
        listUnit: 'pak',
        invoiceUnit: 'PK',
        price: '4.95',
        unknownWord: true,
      },
      {
        id: 'KG1002',
        description: 'Balpen blauw',
        listUnit: 'stuk',
        invoiceUnit: 'C62',
        price: '0.79',
        unknownWord: true,
      },
      { id: 'KG1003', description: 'Ordner A4 80mm', listUnit: 'st', invoiceUnit: 'EA', price: '3.45' },
      { id: 'KG1004', description: 'Nietmachine', listUnit: 'st', invoiceUnit: 'EA', price: '12.90' },
      { id: 'KG1005', description: 'Koffie bonen 1 kg', listUnit: 'kg', invoiceUnit: 'KGM', price: '18.50' },
      {
        id: 'KG1006',
        description: 'Archiefdoos',
        listUnit: 'doos',
        invoiceUnit: 'BX',
        price: '9.95',
        unknownWord: true,
      },
      {
        id: 'KG-SRV',
        description: 'Onderhoudscontract printer',
        listUnit: 'maand',
        invoiceUnit: 'MON',
        price: '89.00',
        monthly: true,
        unknownWord: true,
      },
    ],
    discount: { description: 'Korting', fraction: '0.03', basis: 'factuurbedrag', invoiceReason: 'Korting 3%' },
    freight: {
      description: 'Vrachtkosten',
      fraction: '0.025',
      basis: 'subtotaal',
      invoiceAs: [{ reason: 'Verzendkosten' }, { code: 'FC' }, { line: 'Vracht' }],
    },
    agreedFee: null,
    unagreedLineFees: ['Administratiekosten'],
    unagreedDocumentCharges: [{ reason: 'Toeslag kleine order' }, { reason: 'Energietoeslag' }],
    lineDiscountReason: 'Korting',
  },
  {
    party: { name: 'Bürobedarf Schulte GmbH', vat: 'DE812345679', country: 'DE', city: 'Köln' },
    currency: 'EUR',
    prefix: (n) => `RE${26000 + n}`,
    articles: [
      { id: '4711-01', description: 'Kopierpapier A4 80 g/m²', listUnit: 'Paket', invoiceUnit: 'PK', price: '5.20' },
      { id: '4711-02', description: 'Kugelschreiber blau', listUnit: 'Stück', invoiceUnit: 'C62', price: '0.95' },
      { id: '4711-03', description: 'Ordner breit', listUnit: 'Stück', invoiceUnit: 'H87', price: '2.89' },
      { id: '4711-04', description: 'Druckerpatrone schwarz', listUnit: 'Stück', invoiceUnit: 'EA', price: '34.90' },
      {
        id: '4711-05',
        description: 'Textmarker, Packung à 4',
        listUnit: 'Packung',
        invoiceUnit: 'EA',
        price: '5.60',
        packOf: 4,
        unknownWord: true,
      },
      {
        id: '4711-06',
        description: 'Klebeband transparent',
        listUnit: 'Rolle',
        invoiceUnit: 'RO',
        price: '1.40',
        unknownWord: true,
      },
      {
        id: 'WART-1',
        description: 'Wartungsvertrag Kopierer',
        listUnit: 'Monat',
        invoiceUnit: 'MON',
        price: '129.00',
        monthly: true,
      },
    ],
    discount: null,
    freight: {
      description: 'Frachtzuschlag',
      fraction: '0.02',
      basis: 'Nettobetrag',
      invoiceAs: [{ reason: 'Fracht' }, { reason: 'Versandkosten' }, { line: 'Frachtkosten' }],
    },
    agreedFee: null,
    unagreedLineFees: ['Mindermengenzuschlag', 'Rechnungsgebühr'],
    unagreedDocumentCharges: [{ reason: 'Verpackungskosten' }, { reason: 'Maut- und Energiezuschlag' }],
    lineDiscountReason: 'Sonderrabatt',
  },
  {
    party: { name: 'Kontorsvaror i Norden AB', vat: 'SE556677889901', country: 'SE', city: 'Göteborg' },
    currency: 'SEK',
    prefix: (n) => String(770000 + n * 3),
    articles: [
      {
        id: 'SV-10',
        description: 'Kopieringspapper A4',
        listUnit: 'förp',
        invoiceUnit: 'PK',
        price: '59.00',
        unknownWord: true,
      },
      { id: 'SV-11', description: 'Kulspetspenna blå', listUnit: 'st', invoiceUnit: 'EA', price: '9.90' },
      { id: 'SV-12', description: 'Pärm A4', listUnit: 'st', invoiceUnit: 'C62', price: '29.00' },
      { id: 'SV-13', description: 'Toner svart', listUnit: 'st', invoiceUnit: 'EA', price: '1090.00' },
      { id: 'SV-14', description: 'Kaffe mellanrost', listUnit: 'kg', invoiceUnit: 'KGM', price: '149.00' },
      { id: 'SV-15', description: 'Gem, ask à 100', listUnit: 'ask', invoiceUnit: 'BX', price: '12.00' },
      {
        id: 'SV-LIC',
        description: 'Licens dokumenthantering',
        listUnit: 'user/month',
        invoiceUnit: 'MON',
        price: '79.00',
        monthly: true,
        unknownWord: true,
      },
    ],
    discount: { description: 'Rabatt', fraction: '0.04', basis: 'fakturabelopp', invoiceReason: 'Avtalsrabatt 4 %' },
    freight: {
      description: 'Fraktavgift',
      fraction: '0.015',
      basis: 'ordervärde',
      invoiceAs: [{ reason: 'Frakt' }, { line: 'Fraktkostnad' }],
    },
    agreedFee: null,
    unagreedLineFees: ['Expeditionsavgift', 'Faktureringsavgift'],
    unagreedDocumentCharges: [{ reason: 'Miljötillägg' }],
    lineDiscountReason: 'Rabatt',
  },
  {
    party: { name: 'Kontorhuset ApS', vat: 'DK31234567', country: 'DK', city: 'Aarhus' },
    currency: 'DKK',
    prefix: (n) => `F${5500 + n}`,
    articles: [
      { id: 'DK-PAP', description: 'Kopipapir A4 80g', listUnit: 'pakke', invoiceUnit: 'PK', price: '42.00' },
      { id: 'DK-KUG', description: 'Kuglepen sort', listUnit: 'stk', invoiceUnit: 'EA', price: '6.50' },
      { id: 'DK-MAP', description: 'Brevordner A4', listUnit: 'stk', invoiceUnit: 'C62', price: '24.00' },
      { id: 'DK-TON', description: 'Toner sort', listUnit: 'stk', invoiceUnit: 'EA', price: '749.00' },
      { id: 'DK-KAF', description: 'Kaffe, formalet', listUnit: 'kg', invoiceUnit: 'KGM', price: '129.00' },
      {
        id: 'DK-HAN',
        description: 'Engangshandsker, æske à 100',
        listUnit: 'æske',
        invoiceUnit: 'BX',
        price: '65.00',
        unknownWord: true,
      },
      {
        id: 'DK-SRV',
        description: 'Serviceaftale printer',
        listUnit: 'md',
        invoiceUnit: 'MON',
        price: '395.00',
        monthly: true,
        unknownWord: true,
      },
    ],
    discount: null,
    freight: {
      description: 'Fragttillæg',
      fraction: '0.02',
      basis: 'af varebeløb',
      invoiceAs: [{ reason: 'Fragt' }, { reason: 'Fragt og forsendelse' }, { code: 'FC' }],
    },
    agreedFee: null,
    unagreedLineFees: ['Gebyr for papirfaktura', 'Miljøtillæg'],
    unagreedDocumentCharges: [{ reason: 'Emballage' }, { reason: 'Ekspeditionsgebyr' }],
    lineDiscountReason: 'Rabat',
  },
  {
    party: { name: 'Toimistotarvike Oy', vat: 'FI12345671', country: 'FI', city: 'Tampere' },
    currency: 'EUR',
    prefix: (n) => `${2026}${String(n).padStart(5, '0')}`,
    articles: [
      { id: 'TT-001', description: 'Kopiopaperi A4', listUnit: 'pkt', invoiceUnit: 'PK', price: '5.40' },
      { id: 'TT-002', description: 'Kuulakärkikynä sininen', listUnit: 'kpl', invoiceUnit: 'EA', price: '0.85' },
      { id: 'TT-003', description: 'Mappi A4', listUnit: 'kpl', invoiceUnit: 'C62', price: '3.10' },
      { id: 'TT-004', description: 'Värikasetti musta', listUnit: 'kpl', invoiceUnit: 'H87', price: '89.00' },
      { id: 'TT-005', description: 'Kahvi', listUnit: 'kg', invoiceUnit: 'KGM', price: '16.90' },
      {
        id: 'TT-006',
        description: 'Arkistolaatikko',
        listUnit: 'ltk',
        invoiceUnit: 'BX',
        price: '7.50',
        unknownWord: true,
      },
      {
        id: 'TT-HUOL',
        description: 'Tulostimen huoltosopimus',
        listUnit: 'kk',
        invoiceUnit: 'MON',
        price: '119.00',
        monthly: true,
      },
    ],
    discount: { description: 'Alennus', fraction: '0.05', basis: 'laskun summa', invoiceReason: 'Sopimusalennus' },
    freight: {
      description: 'Rahtilisä',
      fraction: '0.03',
      basis: 'välisumma',
      invoiceAs: [{ reason: 'Rahti' }, { line: 'Toimitusmaksu' }, { reason: 'Freight' }],
    },
    agreedFee: null,
    unagreedLineFees: ['Laskutuslisä'],
    unagreedDocumentCharges: [{ reason: 'Pientilauslisä' }, { reason: 'Polttoainelisä' }],
    lineDiscountReason: 'Alennus',
  },
];

const AGREEMENT_START = '2026-01-01';
const AGREEMENT_END = '2026-06-30';
const DOCUMENTS_PER_SUPPLIER = 15;

const d = (value: Decimal.Value) => new Decimal(value);
const cents = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const monthOf = (date: string) => ({
  start: `${date.slice(0, 7)}-01`,
  end: new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).toISOString().slice(0, 10),
});

function agreementOf(style: SupplierStyle, index: number): CorpusAgreement {
  const entries: object[] = style.articles.map((article) => ({
    description: article.description,
    seller_item_id: article.id,
    unit: article.listUnit,
    currency_code: style.currency,
    price: { type: 'amount', amount: article.price },
    // A pack priced whole, billed per piece: the list says how many pieces a pack holds.
    ...(article.packOf
      ? {
          unit_conversions: [
            { from_unit: article.listUnit, quantity: String(article.packOf), to_unit: article.invoiceUnit },
          ],
        }
      : {}),
  }));
  if (style.discount)
    entries.push({
      description: style.discount.description,
      price: {
        type: 'rate',
        fraction: style.discount.fraction,
        ...(style.discount.basis ? { basis: style.discount.basis } : {}),
      },
    });
  if (style.freight)
    entries.push({
      description: style.freight.description,
      price: {
        type: 'rate',
        fraction: style.freight.fraction,
        ...(style.freight.basis ? { basis: style.freight.basis } : {}),
      },
    });
  if (style.agreedFee)
    entries.push({
      description: style.agreedFee.description,
      currency_code: style.currency,
      price: { type: 'amount', amount: style.agreedFee.amount },
    });
  return {
    supplier: index,
    title: `${style.party.name} ${AGREEMENT_START.slice(0, 4)}`,
    currency: style.currency,
    entries,
  };
}

interface Draft {
  doc: PeppolDocument;
  truths: Truth[];
  decoys: Set<Decoy>;
  late: boolean;
  /** Goods lines only, at agreed prices: may be repeated or re-sent. */
  plain: boolean;
}

export function generateCorpus(seed: number): Corpus {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number) => random() < p;
  const documents: CorpusDocument[] = [];

  SUPPLIERS.forEach((style, supplierIndex) => {
    const drafts: Draft[] = [];
    let number = 1;
    const nextNumber = () => style.prefix(number++);
    const goods = style.articles.filter((article) => !article.monthly && !article.packOf);
    // Articles billed in the list's own unit code, for lines that carry a planted problem.
    const safeGoods = goods.filter((article) => !article.unknownWord);

    const goodsLine = (article: Article, quantity: number, price = article.price): PeppolLine => ({
      description: article.description,
      sellerItemId: article.id,
      quantity: String(quantity),
      unitCode: article.invoiceUnit,
      price,
      net: cents(d(price).times(quantity)).toFixed(2),
    });

    for (let index = 0; index < DOCUMENTS_PER_SUPPLIER; index++) {
      const issueDate = addDays('2026-01-05', index * 8 + Math.floor(random() * 3));
      const draft: Draft = {
        doc: {
          number: nextNumber(),
          issueDate,
          currency: style.currency,
          supplier: style.party,
          orderReference: `PO-${supplierIndex + 1}${String(index).padStart(3, '0')}`,
          deliveryDate: addDays(issueDate, -2),
          lines: [],
          charges: [],
        },
        truths: [],
        decoys: new Set(),
        late: false,
        plain: true,
      };
      const count = 3 + Math.floor(random() * 4);
      const chosen = [...safeGoods].sort(() => random() - 0.5).slice(0, count);
      for (const article of chosen) draft.doc.lines.push(goodsLine(article, 1 + Math.floor(random() * 12)));
      // Units people write as local words (förp, stuk, doos, Rolle, æske...).
      const unknown = goods.filter((article) => article.unknownWord);
      if (unknown.length > 0 && chance(0.2)) {
        draft.doc.lines.push(goodsLine(pick(unknown), 1 + Math.floor(random() * 5)));
        draft.decoys.add('unit_word_unknown');
        draft.plain = false;
      } else {
        draft.decoys.add('unit_word');
      }
      // The monthly service on the first invoice of each month, for that month.
      const monthly = style.articles.find((article) => article.monthly)!;
      if (Number(issueDate.slice(8, 10)) <= 8 && issueDate <= AGREEMENT_END) {
        const month = monthOf(issueDate);
        draft.doc.lines.push({ ...goodsLine(monthly, 1), periodStart: month.start, periodEnd: month.end });
        draft.plain = false;
        if (monthly.unknownWord) draft.decoys.add('unit_word_unknown');
      }
      drafts.push(draft);
    }

    // Plant one problem (sometimes two) in about half of the invoices; the rest stay clean.
    const problemKinds: Category[] = [
      'price_above_agreed',
      'fee_not_agreed',
      'document_charge_not_agreed',
      'arithmetic_error',
      'unit_hidden_overcharge',
    ];
    if (style.discount) problemKinds.push('missing_discount');
    if (style.freight) problemKinds.push('rate_above_agreed');
    const plantable = drafts.slice(1, drafts.length - 1);
    const planted = new Set<Draft>();
    for (const [position, draft] of plantable.entries()) {
      if (position % 2 === 1) continue;
      const kind = problemKinds[(position / 2 + supplierIndex) % problemKinds.length]!;
      plant(draft, kind);
      planted.add(draft);
      draft.plain = false;
    }
    // A charge after the agreement's end: the monthly service billed ahead for July, on the last invoice.
    const last = drafts[drafts.length - 1]!;
    last.doc.issueDate = '2026-06-26';
    last.doc.deliveryDate = '2026-06-24';
    const monthly = style.articles.find((article) => article.monthly)!;
    last.doc.lines.push({ ...goodsLine(monthly, 1), periodStart: '2026-07-01', periodEnd: '2026-07-31' });
    if (monthly.unknownWord) last.decoys.add('unit_word_unknown');
    last.truths.push({
      category: 'charge_after_agreement_end',
      line: last.doc.lines.length,
      impact: d(monthly.price).toFixed(2),
    });
    last.plain = false;

    function plant(draft: Draft, kind: Category) {
      const lines = draft.doc.lines;
      const target = lines.findIndex(
        (line) => !line.periodStart && safeGoods.some((article) => article.id === line.sellerItemId),
      );
      const article = safeGoods.find((entry) => entry.id === lines[target]?.sellerItemId)!;
      switch (kind) {
        case 'price_above_agreed': {
          const raise = d(article.price)
            .times(pick(['0.04', '0.08', '0.12']))
            .toDecimalPlaces(2, Decimal.ROUND_UP)
            .plus('0.01');
          const quantity = Number(lines[target]!.quantity);
          lines[target] = goodsLine(article, quantity, d(article.price).plus(raise).toFixed(2));
          draft.truths.push({ category: kind, line: target + 1, impact: cents(raise.times(quantity)).toFixed(2) });
          break;
        }
        case 'arithmetic_error': {
          const delta = d(pick(['10.00', '1.00', '25.50', '100.00']));
          lines[target] = { ...lines[target]!, net: d(lines[target]!.net).plus(delta).toFixed(2) };
          draft.truths.push({ category: kind, line: target + 1, impact: delta.toFixed(2) });
          break;
        }
        case 'fee_not_agreed': {
          const amount = pick(['29.00', '49.00', '65.00', '12.50']);
          lines.push({
            description: pick(style.unagreedLineFees),
            sellerItemId: null,
            quantity: '1',
            unitCode: pick(['EA', 'C62', 'LS']),
            price: amount,
            net: amount,
          });
          draft.truths.push({ category: kind, line: lines.length, impact: amount });
          break;
        }
        case 'document_charge_not_agreed': {
          const charge = pick(style.unagreedDocumentCharges);
          const amount = pick(['149.00', '75.00', '39.90', '250.00']);
          draft.doc.charges!.push({
            isCharge: true,
            amount,
            reason: charge.reason ?? null,
            reasonCode: charge.code ?? null,
          });
          draft.truths.push({ category: kind, line: null, impact: amount });
          break;
        }
        case 'unit_hidden_overcharge': {
          const pack = style.articles.find((entry) => entry.packOf);
          if (!pack) return plant(draft, 'price_above_agreed');
          // Billed per piece at more than the pack price allows.
          const perPiece = d(pack.price).div(pack.packOf!);
          const billed = perPiece.plus(pick(['0.20', '0.50', '1.00'])).toDecimalPlaces(2, Decimal.ROUND_UP);
          const quantity = pack.packOf! * (1 + Math.floor(random() * 3));
          lines.push({
            description: pack.description,
            sellerItemId: pack.id,
            quantity: String(quantity),
            unitCode: pack.invoiceUnit,
            price: billed.toFixed(2),
            net: cents(billed.times(quantity)).toFixed(2),
          });
          draft.truths.push({
            category: kind,
            line: lines.length,
            impact: cents(billed.minus(perPiece).times(quantity)).toFixed(2),
          });
          break;
        }
        case 'missing_discount':
        case 'rate_above_agreed':
          // Applied with the charges below, where the allowed amounts are worked out.
          draft.truths.push({ category: kind, line: null, impact: 'pending' });
          break;
        default:
          break;
      }
    }

    // A pack billed per piece at the pack price's share (the price item's unit conversion says
    // how many pieces a pack holds): honest, on every fifth unplanted invoice.
    const pack = style.articles.find((entry) => entry.packOf);
    drafts.forEach((draft, position) => {
      if (!pack || planted.has(draft) || draft === last || position % 5 !== 2) return;
      const perPiece = cents(d(pack.price).div(pack.packOf!));
      draft.doc.lines.push(goodsLine(pack, pack.packOf! * 2, perPiece.toFixed(2)));
      draft.decoys.add('pack_per_piece');
      draft.plain = false;
    });

    // Line discounts netting to the agreed price, and one-cent rounding (decoys).
    for (const draft of drafts) {
      if (planted.has(draft) || draft === last) continue;
      if (chance(0.15)) {
        const at = draft.doc.lines.findIndex(
          (line) => !line.periodStart && safeGoods.some((article) => article.id === line.sellerItemId),
        );
        const line = draft.doc.lines[at]!;
        const list = d(line.price)
          .times(pick(['1.20', '1.25', '1.34']))
          .toDecimalPlaces(2);
        const discount = cents(list.times(line.quantity)).minus(line.net);
        draft.doc.lines[at] = {
          ...line,
          price: list.toFixed(2),
          allowances: [{ amount: discount.toFixed(2), reason: style.lineDiscountReason }],
        };
        draft.decoys.add('line_discount');
        draft.plain = false;
      } else if (chance(0.1)) {
        const at = draft.doc.lines.findIndex((line) => !line.periodStart);
        draft.doc.lines[at] = { ...draft.doc.lines[at]!, net: d(draft.doc.lines[at]!.net).plus('0.01').toFixed(2) };
        draft.decoys.add('one_cent_rounding');
        draft.plain = false;
      }
    }

    // Repeat orders: a plain invoice bought again 7 or 14 days later under a new order number.
    const repeats: Draft[] = [];
    for (const draft of drafts
      .filter((entry) => !planted.has(entry) && entry !== last && entry.truths.length === 0)
      .slice(0, 3)) {
      const issueDate = addDays(draft.doc.issueDate, pick([7, 14]));
      repeats.push({
        doc: {
          ...draft.doc,
          number: nextNumber(),
          issueDate,
          orderReference: `PO-${supplierIndex + 1}R${repeats.length}`,
          deliveryDate: addDays(issueDate, -1),
          lines: draft.doc.lines.filter((line) => !line.periodStart).map((line) => ({ ...line })),
          charges: [],
        },
        truths: [],
        decoys: new Set<Decoy>([...draft.decoys, 'repeat_order']),
        late: false,
        plain: false,
      });
    }
    // A re-sent invoice: the same order billed again a few days later under a new or near-equal number.
    const duplicates: Draft[] = [];
    const originals = drafts.filter(
      (entry) =>
        !planted.has(entry) &&
        entry !== last &&
        entry.truths.length === 0 &&
        entry.decoys.size === 1 &&
        !entry.doc.lines.some((line) => line.periodStart),
    );
    for (const original of originals.slice(3, 5)) {
      duplicates.push({
        doc: {
          ...original.doc,
          number: chance(0.5) ? `${original.doc.number}-2` : nextNumber(),
          issueDate: addDays(original.doc.issueDate, 2 + Math.floor(random() * 8)),
          lines: [],
          charges: [],
        },
        truths: [],
        decoys: new Set(),
        late: true,
        plain: false,
      });
    }

    // The agreement's terms on every invoice: the discount given, freight within the rate (or
    // above it where planted), the agreed fee at its amount. Repeat orders and re-sent invoices
    // carry them too (a re-sent invoice exactly as its original).
    for (const draft of [...drafts, ...repeats]) applyTerms(draft);
    // A re-sent invoice bills every line of its original again (goods and charge lines alike).
    for (const duplicate of duplicates) {
      const original = drafts.find((entry) => entry.doc.orderReference === duplicate.doc.orderReference)!;
      duplicate.doc.charges = original.doc.charges!.map((charge) => ({ ...charge }));
      duplicate.doc.lines = original.doc.lines.map((line) => ({ ...line }));
      duplicate.truths = duplicate.doc.lines.map((line, index) => ({
        category: 'duplicate' as const,
        line: index + 1,
        impact: line.net,
      }));
      for (const decoy of original.decoys) duplicate.decoys.add(decoy);
    }

    function applyTerms(draft: Draft) {
      const lines = draft.doc.lines;
      const goodsTotal = lines.filter((line) => line.sellerItemId).reduce((sum, line) => sum.plus(line.net), d(0));
      const discountTruth = draft.truths.find((truth) => truth.category === 'missing_discount');
      if (style.discount) {
        const allowed = cents(goodsTotal.times(style.discount.fraction));
        if (discountTruth) {
          discountTruth.impact = allowed.toFixed(2);
        } else {
          draft.doc.charges!.push({
            isCharge: false,
            amount: allowed.toFixed(2),
            reason: style.discount.invoiceReason,
          });
          draft.decoys.add('discount_given');
        }
      }
      const rateTruth = draft.truths.find((truth) => truth.category === 'rate_above_agreed');
      if (style.freight && (rateTruth || chance(0.5))) {
        const exact = goodsTotal.times(style.freight.fraction);
        const charged = rateTruth
          ? cents(goodsTotal.times(d(style.freight.fraction).plus(pick(['0.015', '0.01', '0.02']))))
          : cents(exact);
        const as = pick(style.freight.invoiceAs);
        if (as.line)
          lines.push({
            description: as.line,
            sellerItemId: null,
            quantity: '1',
            unitCode: 'EA',
            price: charged.toFixed(2),
            net: charged.toFixed(2),
          });
        else
          draft.doc.charges!.push({
            isCharge: true,
            amount: charged.toFixed(2),
            reason: as.reason ?? null,
            reasonCode: as.code ?? null,
          });
        if (rateTruth) rateTruth.impact = cents(charged.minus(exact)).toFixed(2);
        else draft.decoys.add('freight_within_rate');
      }
      if (style.agreedFee && chance(0.4)) {
        draft.doc.charges!.push({
          isCharge: true,
          amount: style.agreedFee.amount,
          reason: style.agreedFee.invoiceReason,
        });
        draft.decoys.add('agreed_fee');
      }
    }

    // A credit note now and then: never checked for overcharges.
    const credits: Draft[] = drafts
      .filter((_, index) => index % 9 === 4)
      .map((draft) => ({
        doc: {
          ...draft.doc,
          number: `CN-${draft.doc.number}`,
          creditNote: true,
          creditedNumber: draft.doc.number,
          issueDate: addDays(draft.doc.issueDate, 3),
          lines: draft.doc.lines.slice(0, 1).map((line) => ({ ...line, allowances: undefined })),
          charges: [],
        },
        truths: [],
        decoys: new Set<Decoy>(['credit_note']),
        late: true,
        plain: false,
      }));

    for (const draft of [...drafts, ...repeats, ...duplicates, ...credits]) {
      documents.push({
        key: `${supplierIndex}:${draft.doc.number}`,
        supplier: supplierIndex,
        late: draft.late,
        creditNote: !!draft.doc.creditNote,
        bytes: peppolDocument(draft.doc),
        truths: draft.truths,
        decoys: draft.decoys,
      });
    }
  });

  return { suppliers: SUPPLIERS.map((style) => style.party), agreements: SUPPLIERS.map(agreementOf), documents };
}

export type { PeppolCharge };
