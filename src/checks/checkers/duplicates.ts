// 7. A charge already billed on another invoice of the same supplier (`priorCharges`).
//
// Same item: the same article number when both lines have one; otherwise the same normalized
// description, in the same unit when both give a unit.
// - With periods (the line's own, else its invoice's; the caller fills prior charges the same
//   way): the prior charges' periods overlap this line's. Impact = the net amount times the share
//   of the line's days already billed (all of it when fully covered).
// - Without periods on either side: the same quantity and the same net amount, issued within
//   DUPLICATE_WINDOW_DAYS days of each other. Impact = the net amount. Two weeks catches a
//   re-sent invoice under a new number while leaving monthly repeat orders alone; weekly
//   identical deliveries do show, at medium confidence at most.
// - A line with a period and one without are not compared (nothing tells them apart or together).
// Confidence: by article number high when the period is fully covered with the same quantity,
// one step less for a partial cover or another quantity; by description one step less again;
// no-period matches medium by article number, low by description.
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
  const byId: Candidate[] = lineId === null ? [] : (index.byItemId.get(lineId) ?? []).map((prepared) => ({ prior: prepared.prior, prepared, by: 'seller_item_id' }));
  const description = normalizeDescription(line.description);
  const byDescription: Candidate[] = (description === null ? [] : (index.byDescription.get(description) ?? []))
    .filter(({ prior, itemId }) => (lineId === null || itemId === null) && sameUnit(line.unitCode, prior.unitCode) !== false)
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
  const byDate = (list: Candidate[]) => list.sort((a, b) => (a.prior.issueDate ?? '').localeCompare(b.prior.issueDate ?? '') || a.prior.lineId.localeCompare(b.prior.lineId));
  const candidates = sameItemCandidates(input, line);

  if (period) {
    const overlapping = byDate(
      candidates.filter((candidate) => {
        const priorPeriod = periodOf(candidate.prior.periodStart, candidate.prior.periodEnd);
        return priorPeriod !== null && priorPeriod.start <= period.end && period.start <= priorPeriod.end;
      }),
    );
    if (overlapping.length === 0) return null;
    const covered = coveredDays(period, overlapping.map((candidate) => periodOf(candidate.prior.periodStart, candidate.prior.periodEnd)!));
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
  if (repeats.length === 0) return null;
  const confidence: Confidence = repeats.every((candidate) => candidate.by === 'seller_item_id') ? 'medium' : 'low';
  const text = `the same quantity for the same amount was billed within ${DUPLICATE_WINDOW_DAYS} days of this invoice, and neither line names a period`;
  return finding(input, line, repeats, net, confidence, text);
}

// Days of `period` inside at least one of `others` (overlaps counted once).
function coveredDays(period: Period, others: Period[]): number {
  const clipped = others
    .map((other) => ({ start: other.start > period.start ? other.start : period.start, end: other.end < period.end ? other.end : period.end }))
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

function finding(input: CheckInput, line: CheckLine, matches: Candidate[], impact: Dec, confidence: Confidence, why: string): Finding | null {
  const { invoice } = input;
  if (!isMaterial(impact, invoice.currencyCode)) return null;
  const cited = matches.slice(0, MAX_CITED);
  const citations = [
    { source: invoiceSource(), quote: quoteLine(invoice, line) },
    ...cited.map(({ prior }) => ({ source: invoiceSource(), quote: quotePrior(prior) })),
  ];
  const refs = cited.map(({ prior }, index) => `invoice ${prior.invoiceNumber ?? prior.invoiceId} [${index + 2}]`).join(', ');
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
