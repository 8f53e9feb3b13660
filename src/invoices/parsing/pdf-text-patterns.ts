/**
 * Label vocabularies and value patterns for reading invoices from PDF text, in English,
 * German, Norwegian/Swedish/Danish, Finnish, French and Dutch. Each list is in priority
 * order: the first label that matches anywhere in the document wins.
 *
 * All patterns are used with the `iu` flags; label boundaries use \p{L} because \b does not
 * know that "ä" is a letter. They run on lines whose whitespace runs are one space each
 * (`pdfTextLine`), so a space is written " " or " ?", never `\s*`: two `\s*` next to each other
 * can share a run of spaces in n² ways, and the pattern is tried from every start position.
 */
import { normalizeDecimal } from './decimal.js';
import type { DecimalString } from './model.js';

const CURRENCY_TOKEN = String.raw`(?:€|£|EUR|GBP|USD|CHF|NOK|SEK|DKK|PLN|CZK|HUF)`;
/** An amount with exactly two decimals, optionally grouped: 104,00 · 1.234,56 · 1,234.56 · 1 234,56. */
// Up to six groups of thousands (999 quadrillion): an unbounded group count made the pattern
// backtrack through every group of a long digit run.
const AMOUNT = String.raw`[-−]?(?:\d{1,3}(?:[ .,'’]\d{3}){1,6}|\d{1,18})[.,]\d{2}(?!\d|[.,]\d)`;
const RATE = String.raw`\d{1,2}(?:[.,]\d{1,2})?`;
const OPTIONAL_PARENTHESIS = String.raw`(?: ?\([^)]{0,30}\))?`;
const AMOUNT_TAIL = String.raw` ?(?:in ${CURRENCY_TOKEN} ?)?[:=]? ?(?:(${CURRENCY_TOKEN}) ?)?(${AMOUNT})(?: ?(${CURRENCY_TOKEN}))?`;

const labelStart = String.raw`(?<![\p{L}\d])`;
const labelEnd = String.raw`(?![\p{L}])`;

/** What the readers need of a match: the whole text, its groups and where it starts. */
export interface LineMatch {
  0: string;
  [group: number]: string | undefined;
  index: number;
}

export interface LinePattern {
  exec(line: string): LineMatch | null;
}

/**
 * A label ("Rechnungsnummer", "Net total") and the value after it, as two patterns: the label
 * is found anywhere on the line, the value is read where the label ends (sticky). One pattern
 * per label with the value's grammar in each made a hundred large patterns; split, each part is
 * small enough for the ReDoS check (test/unit/security/regex-safety.test.ts) to prove linear.
 */
export class LabelledValuePattern implements LinePattern {
  private readonly label: RegExp;
  private readonly value: RegExp;

  constructor(label: string, value: string, options: { labelStart?: string; labelEnd?: boolean } = {}) {
    this.label = new RegExp(`${options.labelStart ?? labelStart}(?:${label})${options.labelEnd === false ? '' : labelEnd}`, 'giu');
    this.value = new RegExp(value, 'iuy');
  }

  /** Both parts, for the ReDoS check. */
  get patterns(): readonly RegExp[] {
    return [this.label, this.value];
  }

  /** The first label occurrence followed by a value; groups are the label's, then the value's. */
  exec(line: string): LineMatch | null {
    this.label.lastIndex = 0;
    for (let label = this.label.exec(line); label !== null; label = this.label.exec(line)) {
      this.value.lastIndex = label.index + label[0].length;
      const value = this.value.exec(line);
      if (value) return Object.assign([label[0] + value[0], ...label.slice(1), ...value.slice(1)] as [string, ...(string | undefined)[]], { index: label.index });
      if (label[0].length === 0) this.label.lastIndex += 1;
    }
    return null;
  }
}

function labelPattern(label: string, tail: string): LabelledValuePattern {
  return new LabelledValuePattern(label, tail);
}

/** Label followed directly by one amount: "Brutto 104,00 €", "Total TTC : -233,47 €". */
function amountPatterns(labels: readonly string[]): LabelledValuePattern[] {
  return labels.map((label) => labelPattern(label, `${OPTIONAL_PARENTHESIS}${AMOUNT_TAIL}`));
}

export const NET_TOTAL_PATTERNS = amountPatterns([
  String.raw`rechnungssumme ?netto`,
  String.raw`summe ?netto`,
  String.raw`gesamt ?netto`,
  String.raw`netto-?(?:betrag|summe|gesamt)?`,
  String.raw`rechnungssumme ?ohne ?(?:u?st|mwst)\.?`,
  String.raw`net ?total`,
  String.raw`total ?net`,
  String.raw`net ?amount`,
  String.raw`total ?\(?excl(?:uding|\.)? ?(?:vat|tax)\)?`,
  String.raw`total ?ht`,
  String.raw`montant ?ht`,
  String.raw`total ?hors ?taxes?`,
  String.raw`sum ?eks(?:kl)?\.? ?mva`,
  String.raw`(?:beløp|belopp|summa|total) ?(?:eks|ekskl|exkl|excl)\.? ?(?:mva|moms)`,
  String.raw`veroton ?(?:summa|yhteensä|hinta)`,
  String.raw`netto ?yhteensä`,
  String.raw`subtotal`,
]);

export const VAT_TOTAL_PATTERNS = amountPatterns([
  String.raw`(?:u?st|mwst|umsatzsteuer)\.? ?gesamt`,
  String.raw`gesamt ?(?:u?st|mwst)\.?`,
  String.raw`summe ?(?:u?st|mwst|umsatzsteuer)\.?`,
  String.raw`vat ?total`,
  String.raw`total ?(?:vat|tax(?:es)?)`,
  String.raw`tax ?total`,
  String.raw`(?:sum|totalt|total) ?(?:mva|moms)`,
  String.raw`(?:mva|moms) ?(?:totalt|i ?alt)`,
  String.raw`(?:alv|arvonlisävero) ?yhteensä`,
  String.raw`(?:total|montant) ?(?:de ?la ?)?tva`,
]);

/** Amounts that are explicitly VAT-inclusive. */
export const GROSS_TOTAL_PATTERNS = amountPatterns([
  String.raw`rechnungssumme ?brutto`,
  String.raw`summe ?brutto`,
  String.raw`gesamt ?brutto`,
  String.raw`brutto-?(?:betrag|summe|gesamt)?`,
  String.raw`total ?\(?incl(?:uding|\.)? ?(?:vat|tax)\)?`,
  String.raw`total ?ttc`,
  String.raw`montant ?ttc`,
  String.raw`(?:sum|totalt|total|beløp|belopp|summa|i ?alt) ?(?:inkl|incl)\.? ?(?:mva|moms)`,
  String.raw`yhteensä ?sis\.? ?alv`,
  String.raw`verollinen ?(?:summa|yhteensä|hinta)`,
]);

/** The document's final amount: what the recipient has to pay. */
export const AMOUNT_DUE_PATTERNS = amountPatterns([
  String.raw`zahlbetrag`,
  String.raw`zu ?zahlen(?:der ?betrag)?`,
  String.raw`gesamtbetrag`,
  String.raw`rechnungsbetrag`,
  String.raw`endbetrag`,
  String.raw`gesamtsumme`,
  String.raw`due ?payable`,
  String.raw`amount ?(?:due|payable)`,
  String.raw`(?:total|balance) ?due`,
  String.raw`total ?(?:amount|to ?pay)`,
  String.raw`grand ?total`,
  String.raw`invoice ?total`,
  String.raw`(?:beløp ?)?å ?betale`,
  String.raw`(?:belopp ?)?att ?betala`,
  String.raw`at ?betale`,
  String.raw`maksettava(?: ?yhteensä)?`,
  String.raw`(?:net|total|montant) ?à ?payer`,
  String.raw`te ?betalen`,
  String.raw`^total`,
  String.raw`^yhteensä`,
]);

/** "USt. (19 %) 16,61 €": a single VAT amount, optionally with its rate, and nothing after it. */
export const SINGLE_VAT_LINE = labelPattern(String.raw`(?:u?st|mwst|umsatzsteuer|vat|mva|moms|alv|tva)\.?`, String.raw` ?\(? ?(?:(${RATE}) ?%)? ?\)?${AMOUNT_TAIL} ?$`);

/** "7% 160,00 € 11,20 €": rate, taxable amount and tax amount ending a line. */
export const VAT_BREAKDOWN_ROW = new LabelledValuePattern(
  String.raw`(${RATE}) ?%`,
  String.raw` ?\)? ?:? ?(?:${CURRENCY_TOKEN} ?)?(${AMOUNT}) ?(?:${CURRENCY_TOKEN})? (?:${CURRENCY_TOKEN} ?)?(${AMOUNT}) ?(?:${CURRENCY_TOKEN})? ?$`,
  { labelStart: String.raw`(?<![\d.,])`, labelEnd: false },
);

/** A document number must contain a digit; letters, "-", "/", ".", "_" and "|" may join it. */
const DOCUMENT_NUMBER = String.raw`((?=[\p{L}\d\-/._|]{0,39}\d)[\p{L}\d][\p{L}\d\-/._|]{0,39})`;

export const INVOICE_NUMBER_PATTERNS = [
  String.raw`rechnungs-? ?(?:nummer|nr\.?|no\.?)`,
  String.raw`rechnung ?(?:nr\.?|nummer|no\.?|#)`,
  String.raw`invoice ?(?:number|no\.?|nr\.?|#|id)`,
  String.raw`faktura-? ?(?:nummer|nr\.?|no\.?|#)`,
  String.raw`laskun ?(?:numero|nro|nr\.?)`,
  String.raw`laskunumero`,
  String.raw`lasku ?(?:nro|nr\.?|#)`,
  String.raw`num[ée]ro ?de ?(?:la ?)?facture`,
  String.raw`n[°º] ?(?:de ?)?facture`,
  String.raw`facture ?(?:n[°º]|no\.?|num[ée]ro|#)`,
  String.raw`avoir ?(?:n[°º]|no\.?|#)`,
  String.raw`gutschrift(?:s-?nummer| ?(?:nr\.?|nummer|#))`,
  String.raw`credit ?note ?(?:number|no\.?|#)`,
  String.raw`kreditnota ?(?:nummer|nr\.?|#)`,
  String.raw`factuur-? ?(?:nummer|nr\.?)`,
].map((label) => labelPattern(label, String.raw` ?[:#.]? ?${DOCUMENT_NUMBER}`));

const PRINTED_DATE = String.raw`(\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{4})(?!\d)`;
const DATE_TAIL = String.raw` ?[:.]? ?${PRINTED_DATE}`;

export const ISSUE_DATE_PATTERNS = [
  String.raw`rechnungs-?datum`,
  String.raw`datum ?der ?rechnung`,
  String.raw`beleg-?datum`,
  String.raw`ausstellungsdatum`,
  String.raw`invoice ?date`,
  String.raw`date ?of ?(?:the ?)?invoice`,
  String.raw`date ?of ?issue`,
  String.raw`issue ?date`,
  String.raw`issued ?(?:at|on)`,
  String.raw`faktura-? ?dat(?:o|um)`,
  String.raw`laskun ?(?:päivämäärä|pvm)`,
  String.raw`laskupäivä`,
  String.raw`date ?de ?(?:la ?)?facture`,
  String.raw`date ?de ?facturation`,
  String.raw`date ?d['’]émission`,
  String.raw`factuurdatum`,
].map((label) => labelPattern(label, DATE_TAIL));

/** Last resort: a line that starts with a bare "Date"/"Datum". */
export const GENERIC_DATE_PATTERN = new RegExp(String.raw`^(?:datum|date|dato|päiväys)${labelEnd}${DATE_TAIL}`, 'iu');

export const DUE_DATE_PATTERNS = [
  String.raw`fälligkeits-?datum`,
  String.raw`fällig ?(?:am|bis(?: ?zum)?)?`,
  String.raw`zahlbar ?bis(?: ?zum)?`,
  String.raw`due ?date`,
  String.raw`payment ?due(?: ?date)?`,
  String.raw`due ?(?:on|by)`,
  String.raw`(?:pay|payable|remit) ?(?:by|until|before)`,
  String.raw`forfalls?dato`,
  String.raw`forfaldsdato`,
  String.raw`förfallo(?:datum|dag)`,
  String.raw`eräpäivä`,
  String.raw`date ?d['’]échéance`,
  String.raw`échéance`,
  String.raw`vervaldatum`,
].map((label) => labelPattern(label, DATE_TAIL));

// Labels with words in between ("zahlbar innerhalb 14 Tagen bis"): the words are read with the
// value, where the label ends, rather than searched for along the whole line.
DUE_DATE_PATTERNS.splice(
  3,
  0,
  new LabelledValuePattern(String.raw`zahlbar`, String.raw`[^.\n]{0,40}? bis(?: ?zum)?${labelEnd}${DATE_TAIL}`, { labelEnd: false }),
  new LabelledValuePattern(String.raw`überweisen ?sie`, String.raw`[^.\n]{0,30}? bis(?: ?zum)?${labelEnd}${DATE_TAIL}`, { labelEnd: false }),
);

export const ANY_PRINTED_DATE = new RegExp(PRINTED_DATE, 'u');

export const CURRENCY_LABEL = new RegExp(
  String.raw`${labelStart}(?:währung|currency|valuta|devise|valuutta)${labelEnd} ?:? ?(?:[\p{L} ]{0,15}\( ?)?([A-Z]{3})(?![A-Za-z])`,
  'u',
);

const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { '€': 'EUR', '£': 'GBP' };

/** Currency symbols and unambiguous ISO codes; "$" and "kr" name several currencies and are ignored. */
export const CURRENCY_MENTION = /€|£|(?<![A-Za-z])(?:EUR|GBP|USD|CHF|NOK|SEK|DKK|PLN|CZK|HUF)(?![A-Za-z])/g;

export function currencyCodeOf(token: string | undefined): string | null {
  if (token === undefined) return null;
  return CURRENCY_SYMBOLS[token] ?? token.toUpperCase();
}

/** Credit notes announce themselves in their title. */
export const CREDIT_NOTE_TITLE = new RegExp(
  String.raw`^(?:gutschrift|rechnungskorrektur|stornorechnung|credit ?note|credit ?memo|kreditnota|kreditfaktura|hyvityslasku|avoir)${labelEnd}`,
  'iu',
);

/** Company legal forms; a text segment ending in one of them is a company name. */
export const COMPANY_NAME = new RegExp(
  String.raw`^[\p{L}\d][\p{L}\d&.,'’\- ]{1,80} (?:GmbH(?: ?& ?Co\.? ?KG)?|AG|KG|OHG|UG(?: ?\(haftungsbeschränkt\))?|e\. ?K\.|Ltd\.?|Limited|LLC|Inc\.?|Corp\.?|PLC|AS|ASA|A/S|AB|ApS|Oy|Oyj|SARL|SAS|SA|S\.A\.|BV|B\.V\.|NV|N\.V\.|S\.r\.l\.|SpA|S\.p\.A\.)$`,
  'u',
);

/** Labels that introduce the seller's name on the same line; the name is the rest of the line ("Verkäufer: ...", "Name: ..." does not count). */
export const SUPPLIER_LABEL = new RegExp(
  String.raw`^(?:verkäufer|lieferant|rechnungs(?:er)?steller|seller|supplier|vendor|leverandør|leverantör|säljare|myyjä|fournisseur|vendeur)${labelEnd} ?:? ?`,
  'iu',
);

/** Separators of the one-line sender address printed above the address window. */
export const SENDER_LINE_SEPARATOR = / ?[•●·|] ?| [-–] /u;

/** Longer lines are cut: no printed label or amount needs more. */
export const MAX_LINE_LENGTH = 400;

/** A text line as the patterns expect it: every whitespace run one space, at most MAX_LINE_LENGTH characters. */
export function pdfTextLine(line: string): string {
  return line.slice(0, MAX_LINE_LENGTH * 4).replace(/\s+/g, ' ').slice(0, MAX_LINE_LENGTH);
}

/**
 * Reads a printed amount with exactly two decimals: "104,00" → "104.00", "1.234,56" →
 * "1234.56", "1,234.56" → "1234.56". Null when grouping and decimal separator collide.
 */
export function parsePrintedAmount(raw: string): DecimalString | null {
  const text = raw.replace('−', '-').trim();
  const decimalSeparator = text.at(-3);
  const integerPart = text.slice(0, -3);
  const groupSeparators = integerPart.replace(/[-\d]/g, '');
  if (decimalSeparator === undefined || groupSeparators.includes(decimalSeparator)) return null;
  if (new Set(groupSeparators).size > 1) return null;
  return normalizeDecimal(`${integerPart.replace(/[^-\d]/g, '')}.${text.slice(-2)}`);
}

/** "19" / "5,5" → decimal string. */
export function parsePrintedRate(raw: string): DecimalString | null {
  return normalizeDecimal(raw);
}
