// 7. A charge already billed on another invoice of the same supplier (`priorCharges`).
//
// Same item: the same article number when both lines have one; otherwise the same normalized
// description, in the same unit when both give a unit.
// - With periods (the line's own, else its invoice's; the caller fills prior charges the same
//   way): the prior charges' periods overlap this line's. Impact = the net amount times the share
//   of the line's days already billed (all of it when fully covered).
// - Without periods on either side: the same quantity and the same net amount, issued within
//   DUPLICATE_WINDOW_DAYS days of each other, and evidence that it is the same delivery: the same
//   order reference, a near-equal invoice number, or the same delivery date (two different order
//   references rule it out unless the numbers are near-equal). Equal lines alone are no evidence:
//   weekly and fortnightly repeat orders buy the same items. Impact = the net amount.
// - A line with a period and one without are not compared (nothing tells them apart or together).
// Confidence: by article number high when the period is fully covered with the same quantity,
// one step less for a partial cover or another quantity; by description one step less again;
// no-period matches high by article number with the same order or a near-equal number, medium
// with the same delivery date only, one step less by description.
import { dayNumber, daysBetween, periodDays, periodOf, showPeriod, type Period } from './dates.js';
import { lessSure } from './match.js';
import { type Dec, decOrNull, isMaterial, lineFigures, money } from './money.js';
import { capitalize, fingerprint, invoiceSource, lineKey, lineLabel, numbered, quoteLine } from './findings.js';
import { normalizeDescription, normalizeItemId, sameUnit } from './text.js';
import type { CheckInput, CheckLine, Checker, Confidence, Finding, PriorCharge } from './types.js';

const CODE = 'duplicate_charge';
export const DUPLICATE_WINDOW_DAYS = 14;
const MAX_CITED = 5;

export const duplicateChargeChecker: Checker = {
  code: CODE,
  title: 'Charge already billed on another invoice',
  run(input) {
    if (input.invoice.documentType === 'credit_note') return [];
    return input.invoice.lines.flatMap((line) => {
      const finding = duplicateOf(input, line);
      return finding ? [finding] : [];
    });
  },
};

// Earlier charges by normalized article number and description, built once per check: a
// supplier that bills often has thousands, and every line looks them up.
interface PreparedPrior {
  prior: PriorCharge;
  itemId: string | null;
  description: string | null;
  issueDay: number | null;
  quantity: Dec | null;
  net: Dec | null;
}

interface PriorIndex {
  byItemId: Map<string, PreparedPrior[]>;
  byDescription: Map<string, PreparedPrior[]>;
}

const priorIndexes = new WeakMap<readonly PriorCharge[], PriorIndex>();
// What a charge's comparisons need, worked out once per charge object: the checks of a run's
// batch share the rows of their supplier's earlier charges, each check a selection of them, and
// normalizing every row's texts and amounts again per check was most of this checker's time.
const preparedPriors = new WeakMap<PriorCharge, PreparedPrior>();

function preparedPrior(prior: PriorCharge): PreparedPrior {
  const cached = preparedPriors.get(prior);
  if (cached) return cached;
  const prepared = {
    prior,
    itemId: normalizeItemId(prior.sellerItemId),
    description: normalizeDescription(prior.description),
    issueDay: prior.issueDate === null ? null : dayNumber(prior.issueDate),
    quantity: decOrNull(prior.quantity),
    net: decOrNull(prior.netAmount),
  };
  preparedPriors.set(prior, prepared);
  return prepared;
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  const list = map.get(key) ?? [];
  map.set(key, list);
  return list;
}

// Only charges of other invoices with a positive amount can be billed twice.
function priorIndexOf(input: CheckInput): PriorIndex {
  const cached = priorIndexes.get(input.priorCharges);
  if (cached) return cached;
  const index: PriorIndex = { byItemId: new Map(), byDescription: new Map() };
  for (const prior of input.priorCharges) {
    if (prior.invoiceId === input.invoice.id) continue;
    const prepared = preparedPrior(prior);
    if (!(prepared.net?.gt(0) ?? false)) continue;
    if (prepared.itemId !== null) listIn(index.byItemId, prepared.itemId).push(prepared);
    if (prepared.description !== null) listIn(index.byDescription, prepared.description).push(prepared);
  }
  priorIndexes.set(input.priorCharges, index);
  return index;
}

// Same item: the same article number when both lines give one, else the same description in a
// unit that does not contradict.
function sameItemCandidates(input: CheckInput, line: CheckLine): Candidate[] {
  const index = priorIndexOf(input);
  const lineId = normalizeItemId(line.sellerItemId);
  const byId: Candidate[] =
    lineId === null
      ? []
      : (index.byItemId.get(lineId) ?? []).map((prepared) => ({
          prior: prepared.prior,
          prepared,
          by: 'seller_item_id',
        }));
  const description = normalizeDescription(line.description);
  const byDescription: Candidate[] = (description === null ? [] : (index.byDescription.get(description) ?? []))
    .filter(
      ({ prior, itemId }) => (lineId === null || itemId === null) && sameUnit(line.unitCode, prior.unitCode) !== false,
    )
    .map((prepared) => ({ prior: prepared.prior, prepared, by: 'description' }));
  return [...byId, ...byDescription];
}

function equalDecimals(a: Dec | null, b: Dec | null): boolean {
  return a !== null && b !== null && a.eq(b);
}

interface Candidate {
  prior: PriorCharge;
  prepared: PreparedPrior;
  by: 'seller_item_id' | 'description';
}

function duplicateOf(input: CheckInput, line: CheckLine): Finding | null {
  const { invoice } = input;
  const { netAmount: net, quantity } = lineFigures(line);
  if (net === null || net.lte(0)) return null;
  const period = periodOf(line.periodStart, line.periodEnd) ?? periodOf(invoice.periodStart, invoice.periodEnd);
  // Matches in issue-date order; sorted after the filters below (which keep their order), since a
  // line's candidates are every earlier charge of its item and most of them are no match.
  const byDate = (list: Candidate[]) =>
    list.sort(
      (a, b) =>
        (a.prior.issueDate ?? '').localeCompare(b.prior.issueDate ?? '') ||
        a.prior.lineId.localeCompare(b.prior.lineId),
    );
  const candidates = sameItemCandidates(input, line);

  if (period) {
    const overlapping = byDate(
      candidates.filter((candidate) => {
        const priorPeriod = periodOf(candidate.prior.periodStart, candidate.prior.periodEnd);
        return priorPeriod !== null && priorPeriod.start <= period.end && period.start <= priorPeriod.end;
      }),
    );
    if (overlapping.length === 0) return null;
    const covered = coveredDays(
      period,
      overlapping.map((candidate) => periodOf(candidate.prior.periodStart, candidate.prior.periodEnd)!),
    );
    const total = periodDays(period);
    const impact = covered === total ? net : net.times(covered).div(total);
    const sameQuantity = overlapping.every((candidate) => equalDecimals(quantity, candidate.prepared.quantity));
    let confidence: Confidence = 'high';
    if (covered < total || !sameQuantity) confidence = lessSure(confidence);
    if (overlapping.some((candidate) => candidate.by === 'description')) confidence = lessSure(confidence);
    const coverText =
      covered === total
        ? `its whole period ${showPeriod(period)} was already billed`
        : `${covered} of the ${total} days of its period ${showPeriod(period)} were already billed; pro rata that is ${money(impact, invoice.currencyCode)}`;
    return finding(input, line, overlapping, impact, confidence, coverText);
  }

  const issued = invoice.issueDate;
  if (issued === null) return null;
  const issuedDay = dayNumber(issued);
  const repeats = byDate(
    candidates.filter(
      ({ prior, prepared }) =>
        periodOf(prior.periodStart, prior.periodEnd) === null &&
        prepared.issueDay !== null &&
        Math.abs(issuedDay - prepared.issueDay) <= DUPLICATE_WINDOW_DAYS &&
        equalDecimals(quantity, prepared.quantity) &&
        equalDecimals(net, prepared.net),
    ),
  );
  // Equal lines alone are a repeat order as often as a double billing: a duplicate needs evidence.
  const evidenced = repeats.flatMap((candidate) => {
    const found = evidenceOf(invoice, candidate.prior);
    return found ? [{ candidate, found }] : [];
  });
  if (evidenced.length === 0) return null;
  const strongest = evidenced.find(({ found }) => found.strong) ?? evidenced[0]!;
  let confidence: Confidence = strongest.found.strong ? 'high' : 'medium';
  if (evidenced.some(({ candidate }) => candidate.by === 'description')) confidence = lessSure(confidence);
  const text = `the same quantity for the same amount was billed within ${DUPLICATE_WINDOW_DAYS} days of this invoice, ${strongest.found.text}`;
  return finding(
    input,
    line,
    evidenced.map(({ candidate }) => candidate),
    net,
    confidence,
    text,
  );
}

interface Evidence {
  /** The same order or a near-equal invoice number (a re-sent invoice); a delivery date is weaker. */
  strong: boolean;
  text: string;
}

const normalizedReference = (reference: string | null | undefined): string | null =>
  reference ? reference.toLowerCase().replace(/[^a-z0-9]+/g, '') || null : null;

// What says two equal charges without a period are one delivery billed twice, not two orders:
// the same order reference, the same delivery date, or a near-equal invoice number. Two different
// order references say they are two orders, unless the invoice numbers say otherwise.
function evidenceOf(invoice: CheckInput['invoice'], prior: PriorCharge): Evidence | null {
  const number = nearEqualNumbers(invoice.invoiceNumber, prior.invoiceNumber);
  if (number)
    return {
      strong: true,
      text: `under a near-equal invoice number (${invoice.invoiceNumber} and ${prior.invoiceNumber})`,
    };
  const order = normalizedReference(invoice.orderReference);
  const priorOrder = normalizedReference(prior.orderReference);
  if (order !== null && priorOrder !== null) {
    if (order === priorOrder) return { strong: true, text: `for the same order reference ${invoice.orderReference}` };
    return null;
  }
  if (invoice.deliveryDate && invoice.deliveryDate === prior.deliveryDate)
    return { strong: false, text: `for the same delivery date ${invoice.deliveryDate}` };
  return null;
}

/**
 * A re-sent invoice under a slightly changed number: the same number but for case and
 * punctuation ("INV-1001" / "inv 1001"), or one number with a short suffix or prefix added
 * ("1001" / "1001-2", "1001B", "R1001"). Two plain numbers ("1001" / "10012") are a sequence.
 */
export function nearEqualNumbers(a: string | null | undefined, b: string | null | undefined): boolean {
  const left = normalizedReference(a);
  const right = normalizedReference(b);
  if (left === null || right === null) return false;
  if (left === right) return true;
  const [short, long] =
    left.length <= right.length
      ? [a!.trim().toLowerCase(), b!.trim().toLowerCase()]
      : [b!.trim().toLowerCase(), a!.trim().toLowerCase()];
  if (short.length < 3 || !long.includes(short)) return false;
  const extra = long.startsWith(short)
    ? long.slice(short.length)
    : long.endsWith(short)
      ? long.slice(0, long.length - short.length)
      : null;
  if (extra === null) return false;
  if (/^\d+$/.test(short) && /^\d+$/.test(long)) return false;
  // A suffix after a separator ("-2", "/b") or of letters ("B"); a prefix of letters ("R", "K-").
  return long.startsWith(short)
    ? /^[-_/ .][a-z0-9]{1,2}$|^[a-z]{1,2}$/.test(extra)
    : /^[a-z]{1,2}[-_/ .]?$/.test(extra);
}

// Days of `period` inside at least one of `others` (overlaps counted once).
function coveredDays(period: Period, others: Period[]): number {
  const clipped = others
    .map((other) => ({
      start: other.start > period.start ? other.start : period.start,
      end: other.end < period.end ? other.end : period.end,
    }))
    .filter((other) => other.start <= other.end)
    .sort((a, b) => a.start.localeCompare(b.start));
  let days = 0;
  let reachedEnd: string | null = null;
  for (const part of clipped) {
    const start = reachedEnd !== null && part.start <= reachedEnd ? nextDay(reachedEnd) : part.start;
    if (start <= part.end) days += daysBetween(start, part.end) + 1;
    if (reachedEnd === null || part.end > reachedEnd) reachedEnd = part.end;
  }
  return days;
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function finding(
  input: CheckInput,
  line: CheckLine,
  matches: Candidate[],
  impact: Dec,
  confidence: Confidence,
  why: string,
): Finding | null {
  const { invoice } = input;
  if (!isMaterial(impact, invoice.currencyCode)) return null;
  const cited = matches.slice(0, MAX_CITED);
  const citations = [
    { source: invoiceSource(), quote: quoteLine(invoice, line) },
    ...cited.map(({ prior }) => ({ source: invoiceSource(), quote: quotePrior(prior) })),
  ];
  const refs = cited
    .map(({ prior }, index) => `invoice ${prior.invoiceNumber ?? prior.invoiceId} [${index + 2}]`)
    .join(', ');
  const more = matches.length > cited.length ? ` and ${matches.length - cited.length} more` : '';
  return {
    checker: CODE,
    fingerprint: fingerprint(CODE, lineKey(line)),
    title: `Charge already billed: ${line.description ?? line.sellerItemId ?? `line ${line.lineNumber ?? line.position + 1}`}`,
    explanation:
      `${capitalize(lineLabel(line))} [1] bills ${matches[0]!.by === 'seller_item_id' ? 'the same article' : 'an item of the same description'} as ${refs}${more}: ${why}. ` +
      `Impact ${money(impact, invoice.currencyCode)}${invoice.currencyCode ? ` ${invoice.currencyCode}` : ''}.`,
    citations: numbered(citations),
    impactAmount: money(impact, invoice.currencyCode),
    expected: null,
    confidence,
    invoiceItemId: line.id,
    correctionType: 'modify_item',
  };
}

function quotePrior(prior: PriorCharge): string {
  const quantity = decOrNull(prior.quantity);
  const net = decOrNull(prior.netAmount);
  const period = periodOf(prior.periodStart, prior.periodEnd);
  return (
    `Invoice ${prior.invoiceNumber ?? prior.invoiceId}${prior.issueDate ? ` of ${prior.issueDate}` : ''}: ${prior.description ?? '(no description)'}` +
    `${prior.sellerItemId ? ` (article ${prior.sellerItemId})` : ''}` +
    `${quantity ? `, quantity ${quantity.toFixed()}${prior.unitCode ? ` ${prior.unitCode}` : ''}` : ''}` +
    `${net ? `, net amount ${net.toFixed(Math.max(2, net.decimalPlaces()))}` : ''}` +
    `${period ? `, period ${showPeriod(period)}` : ''}`
  );
}
