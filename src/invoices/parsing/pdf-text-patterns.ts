/**
 * Label vocabularies and value patterns for reading invoices from PDF text, in English,
 * German, Norwegian/Swedish/Danish, Finnish, French and Dutch. Each list is in priority
 * order: the first label that matches anywhere in the document wins.
 *
 * All patterns are used with the `iu` flags; label boundaries use \p{L} because \b does not
 * know that "ä" is a letter.
 */
import { normalizeDecimal } from './decimal.js';
import type { DecimalString } from './model.js';

const CURRENCY_TOKEN = String.raw`(?:€|£|EUR|GBP|USD|CHF|NOK|SEK|DKK|PLN|CZK|HUF)`;
/** An amount with exactly two decimals, optionally grouped: 104,00 · 1.234,56 · 1,234.56 · 1 234,56. */
const AMOUNT = String.raw`[-−]?(?:\d{1,3}(?:[ .,'’]\d{3})+|\d+)[.,]\d{2}(?!\d|[.,]\d)`;
const RATE = String.raw`\d{1,2}(?:[.,]\d{1,2})?`;
const OPTIONAL_PARENTHESIS = String.raw`(?:\s*\([^)]{0,30}\))?`;
const AMOUNT_TAIL = String.raw`\s*(?:in\s+${CURRENCY_TOKEN}\s*)?[:=]?\s*(?:(${CURRENCY_TOKEN})\s*)?(${AMOUNT})(?:\s*(${CURRENCY_TOKEN}))?`;

const labelStart = String.raw`(?<![\p{L}\d])`;
const labelEnd = String.raw`(?![\p{L}])`;

function labelPattern(label: string, tail: string): RegExp {
  return new RegExp(`${labelStart}(?:${label})${labelEnd}${tail}`, 'iu');
}

/** Label followed directly by one amount: "Brutto 104,00 €", "Total TTC : -233,47 €". */
function amountPatterns(labels: readonly string[]): RegExp[] {
  return labels.map((label) => labelPattern(label, `${OPTIONAL_PARENTHESIS}${AMOUNT_TAIL}`));
}

export const NET_TOTAL_PATTERNS = amountPatterns([
  String.raw`rechnungssumme\s*netto`,
  String.raw`summe\s*netto`,
  String.raw`gesamt\s*netto`,
  String.raw`netto-?(?:betrag|summe|gesamt)?`,
  String.raw`rechnungssumme\s*ohne\s*(?:u?st|mwst)\.?`,
  String.raw`net\s*total`,
  String.raw`total\s*net`,
  String.raw`net\s*amount`,
  String.raw`total\s*\(?excl(?:uding|\.)?\s*(?:vat|tax)\)?`,
  String.raw`total\s*ht`,
  String.raw`montant\s*ht`,
  String.raw`total\s*hors\s*taxes?`,
  String.raw`sum\s*eks(?:kl)?\.?\s*mva`,
  String.raw`(?:beløp|belopp|summa|total)\s*(?:eks|ekskl|exkl|excl)\.?\s*(?:mva|moms)`,
  String.raw`veroton\s*(?:summa|yhteensä|hinta)`,
  String.raw`netto\s*yhteensä`,
  String.raw`subtotal`,
]);

export const VAT_TOTAL_PATTERNS = amountPatterns([
  String.raw`(?:u?st|mwst|umsatzsteuer)\.?\s*gesamt`,
  String.raw`gesamt\s*(?:u?st|mwst)\.?`,
  String.raw`summe\s*(?:u?st|mwst|umsatzsteuer)\.?`,
  String.raw`vat\s*total`,
  String.raw`total\s*(?:vat|tax(?:es)?)`,
  String.raw`tax\s*total`,
  String.raw`(?:sum|totalt|total)\s*(?:mva|moms)`,
  String.raw`(?:mva|moms)\s*(?:totalt|i\s*alt)`,
  String.raw`(?:alv|arvonlisävero)\s*yhteensä`,
  String.raw`(?:total|montant)\s*(?:de\s*la\s*)?tva`,
]);

/** Amounts that are explicitly VAT-inclusive. */
export const GROSS_TOTAL_PATTERNS = amountPatterns([
  String.raw`rechnungssumme\s*brutto`,
  String.raw`summe\s*brutto`,
  String.raw`gesamt\s*brutto`,
  String.raw`brutto-?(?:betrag|summe|gesamt)?`,
  String.raw`total\s*\(?incl(?:uding|\.)?\s*(?:vat|tax)\)?`,
  String.raw`total\s*ttc`,
  String.raw`montant\s*ttc`,
  String.raw`(?:sum|totalt|total|beløp|belopp|summa|i\s*alt)\s*(?:inkl|incl)\.?\s*(?:mva|moms)`,
  String.raw`yhteensä\s*sis\.?\s*alv`,
  String.raw`verollinen\s*(?:summa|yhteensä|hinta)`,
]);

/** The document's final amount: what the recipient has to pay. */
export const AMOUNT_DUE_PATTERNS = amountPatterns([
  String.raw`zahlbetrag`,
  String.raw`zu\s*zahlen(?:der\s*betrag)?`,
  String.raw`gesamtbetrag`,
  String.raw`rechnungsbetrag`,
  String.raw`endbetrag`,
  String.raw`gesamtsumme`,
  String.raw`due\s*payable`,
  String.raw`amount\s*(?:due|payable)`,
  String.raw`(?:total|balance)\s*due`,
  String.raw`total\s*(?:amount|to\s*pay)`,
  String.raw`grand\s*total`,
  String.raw`invoice\s*total`,
  String.raw`(?:beløp\s*)?å\s*betale`,
  String.raw`(?:belopp\s*)?att\s*betala`,
  String.raw`at\s*betale`,
  String.raw`maksettava(?:\s*yhteensä)?`,
  String.raw`(?:net|total|montant)\s*à\s*payer`,
  String.raw`te\s*betalen`,
  String.raw`^total`,
  String.raw`^yhteensä`,
]);

/** "USt. (19 %) 16,61 €": a single VAT amount, optionally with its rate, and nothing after it. */
export const SINGLE_VAT_LINE = new RegExp(
  String.raw`${labelStart}(?:u?st|mwst|umsatzsteuer|vat|mva|moms|alv|tva)\.?${labelEnd}\s*\(?\s*(?:(${RATE})\s?%)?\s*\)?${AMOUNT_TAIL}\s*$`,
  'iu',
);

/** "7% 160,00 € 11,20 €": rate, taxable amount and tax amount ending a line. */
export const VAT_BREAKDOWN_ROW = new RegExp(
  String.raw`(?<![\d.,])(${RATE})\s?%\s*\)?\s*:?\s*(?:${CURRENCY_TOKEN}\s*)?(${AMOUNT})\s*(?:${CURRENCY_TOKEN})?\s+(?:${CURRENCY_TOKEN}\s*)?(${AMOUNT})\s*(?:${CURRENCY_TOKEN})?\s*$`,
  'iu',
);

/** A document number must contain a digit; letters, "-", "/", ".", "_" and "|" may join it. */
const DOCUMENT_NUMBER = String.raw`((?=[\p{L}\d\-/._|]*\d)[\p{L}\d][\p{L}\d\-/._|]{0,39})`;

export const INVOICE_NUMBER_PATTERNS = [
  String.raw`rechnungs-?\s?(?:nummer|nr\.?|no\.?)`,
  String.raw`rechnung\s*(?:nr\.?|nummer|no\.?|#)`,
  String.raw`invoice\s*(?:number|no\.?|nr\.?|#|id)`,
  String.raw`faktura-?\s*(?:nummer|nr\.?|no\.?|#)`,
  String.raw`laskun\s*(?:numero|nro|nr\.?)`,
  String.raw`laskunumero`,
  String.raw`lasku\s*(?:nro|nr\.?|#)`,
  String.raw`num[ée]ro\s*de\s*(?:la\s*)?facture`,
  String.raw`n[°º]\s*(?:de\s*)?facture`,
  String.raw`facture\s*(?:n[°º]|no\.?|num[ée]ro|#)`,
  String.raw`avoir\s*(?:n[°º]|no\.?|#)`,
  String.raw`gutschrift(?:s-?nummer|\s*(?:nr\.?|nummer|#))`,
  String.raw`credit\s*note\s*(?:number|no\.?|#)`,
  String.raw`kreditnota\s*(?:nummer|nr\.?|#)`,
  String.raw`factuur-?\s*(?:nummer|nr\.?)`,
].map((label) => labelPattern(label, String.raw`\s*[:#.]?\s*${DOCUMENT_NUMBER}`));

const PRINTED_DATE = String.raw`(\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{4})(?!\d)`;
const DATE_TAIL = String.raw`\s*[:.]?\s*${PRINTED_DATE}`;

export const ISSUE_DATE_PATTERNS = [
  String.raw`rechnungs-?datum`,
  String.raw`datum\s*der\s*rechnung`,
  String.raw`beleg-?datum`,
  String.raw`ausstellungsdatum`,
  String.raw`invoice\s*date`,
  String.raw`date\s*of\s*(?:the\s*)?invoice`,
  String.raw`date\s*of\s*issue`,
  String.raw`issue\s*date`,
  String.raw`issued\s*(?:at|on)`,
  String.raw`faktura-?\s*dat(?:o|um)`,
  String.raw`laskun\s*(?:päivämäärä|pvm)`,
  String.raw`laskupäivä`,
  String.raw`date\s*de\s*(?:la\s*)?facture`,
  String.raw`date\s*de\s*facturation`,
  String.raw`date\s*d['’]émission`,
  String.raw`factuurdatum`,
].map((label) => labelPattern(label, DATE_TAIL));

/** Last resort: a line that starts with a bare "Date"/"Datum". */
export const GENERIC_DATE_PATTERN = new RegExp(String.raw`^(?:datum|date|dato|päiväys)${labelEnd}${DATE_TAIL}`, 'iu');

export const DUE_DATE_PATTERNS = [
  String.raw`fälligkeits-?datum`,
  String.raw`fällig\s*(?:am|bis(?:\s*zum)?)?`,
  String.raw`zahlbar\s*bis(?:\s*zum)?`,
  String.raw`zahlbar[^.\n]{0,40}?\sbis(?:\s*zum)?`,
  String.raw`überweisen\s*sie[^.\n]{0,30}?\sbis(?:\s*zum)?`,
  String.raw`due\s*date`,
  String.raw`payment\s*due(?:\s*date)?`,
  String.raw`due\s*(?:on|by)`,
  String.raw`(?:pay|payable|remit)\s*(?:by|until|before)`,
  String.raw`forfalls?dato`,
  String.raw`forfaldsdato`,
  String.raw`förfallo(?:datum|dag)`,
  String.raw`eräpäivä`,
  String.raw`date\s*d['’]échéance`,
  String.raw`échéance`,
  String.raw`vervaldatum`,
].map((label) => labelPattern(label, DATE_TAIL));

export const ANY_PRINTED_DATE = new RegExp(PRINTED_DATE, 'u');

export const CURRENCY_LABEL = new RegExp(
  String.raw`${labelStart}(?:währung|currency|valuta|devise|valuutta)${labelEnd}\s*:?\s*(?:[\p{L} ]{0,15}\(\s*)?([A-Z]{3})(?![A-Za-z])`,
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
  String.raw`^(?:gutschrift|rechnungskorrektur|stornorechnung|credit\s*note|credit\s*memo|kreditnota|kreditfaktura|hyvityslasku|avoir)${labelEnd}`,
  'iu',
);

/** Company legal forms; a text segment ending in one of them is a company name. */
export const COMPANY_NAME = new RegExp(
  String.raw`^[\p{L}\d][\p{L}\d&.,'’\- ]{1,80}\s(?:GmbH(?:\s*&\s*Co\.?\s*KG)?|AG|KG|OHG|UG(?:\s*\(haftungsbeschränkt\))?|e\.\s?K\.|Ltd\.?|Limited|LLC|Inc\.?|Corp\.?|PLC|AS|ASA|A/S|AB|ApS|Oy|Oyj|SARL|SAS|SA|S\.A\.|BV|B\.V\.|NV|N\.V\.|S\.r\.l\.|SpA|S\.p\.A\.)$`,
  'u',
);

/** Labels that introduce the seller's name on the same line ("Verkäufer: ...", "Name: ..." does not count). */
export const SUPPLIER_LABEL = new RegExp(
  String.raw`^(?:verkäufer|lieferant|rechnungs(?:er)?steller|seller|supplier|vendor|leverandør|leverantör|säljare|myyjä|fournisseur|vendeur)${labelEnd}\s*:?\s*(.*)$`,
  'iu',
);

/** Separators of the one-line sender address printed above the address window. */
export const SENDER_LINE_SEPARATOR = /\s*[•●·|]\s*|\s+[-–]\s+/u;

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
