// Instruction directives: lines of an agreement's free-text `instructions` that the deterministic
// checks read back (docs/topics-and-suggestions.md). One directive per line:
//
//   Do not flag: <checker>[ for item "<item>"][ at unit price <amount>[ <CUR>]][ (ref <fingerprint>)][. Reason: <text>]
//
// Every condition given must hold for a finding to be suppressed; a directive naming only the
// checker silences that checker for the whole agreement (people may write that; we never suggest
// it). Lines that are not directives are left to people (and ignored here).
import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { foldText } from '../price-lists/normalize.js';

export interface Directive {
  checker: string;
  // A seller item id or a line description, as written.
  item: string | null;
  unitPrice: string | null;
  currencyCode: string | null;
  // A finding fingerprint: the one problem, for findings no item can name (whole-invoice ones).
  ref: string | null;
  reason: string | null;
}

// What a check knows about a finding before it becomes an alert. For a line finding, itemKey is
// the flagged line's seller item id, else its description (itemKeyOf), and unitPrice its unit
// price; both null for whole-invoice findings. currencyCode (the invoice's) is optional: when
// given, a directive naming another currency does not cover the finding.
export interface SuppressionSubject {
  checker: string;
  fingerprint: string;
  itemKey: string | null;
  unitPrice: string | null;
  currencyCode?: string | null;
}

/** The item a directive names for a line: its seller item id, else its description. */
export function itemKeyOf(line: { sellerItemId: string | null; description: string | null } | null): string | null {
  return line?.sellerItemId?.trim() || line?.description?.trim() || null;
}

const DIRECTIVE = new RegExp(
  [
    String.raw`^\s*(?:[-*•]\s*)?do not flag:\s*(?<checker>[a-z0-9_\-]+)`,
    String.raw`(?:\s+for item\s+"(?<item>(?:[^"\\]|\\.)*)")?`,
    String.raw`(?:\s+at unit price\s+(?<price>-?\d+(?:\.\d+)?)(?:\s+(?<currency>[a-z]{3})\b)?)?`,
    String.raw`(?:\s+\(ref\s+(?<ref>[^\s()]+)\))?`,
    String.raw`\s*[.;]?\s*(?:reason:\s*(?<reason>.*?))?\s*$`,
  ].join(''),
  'i',
);

const unescapeQuoted = (text: string) => text.replace(/\\(.)/g, '$1');
const escapeQuoted = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

// "AB-100.2", "ab 100 2" and "AB1002" name the same item; so do "Kopipapir A4," and "kopipapir a4".
export function compactItem(text: string | null): string | null {
  if (!text) return null;
  return foldText(text).replace(/ /g, '') || null;
}

export function parseDirective(line: string): Directive | null {
  const match = DIRECTIVE.exec(line);
  if (!match?.groups) return null;
  const g = match.groups;
  return {
    checker: g.checker!.toLowerCase(),
    item: g.item !== undefined ? unescapeQuoted(g.item) : null,
    unitPrice: g.price ?? null,
    currencyCode: g.currency?.toUpperCase() ?? null,
    ref: g.ref ?? null,
    reason: g.reason ? g.reason : null,
  };
}

/** Every directive in the instructions, in order; other text is ignored. */
export function parseDirectives(instructions: string | null): Directive[] {
  if (!instructions) return [];
  return instructions.split(/\r?\n/).flatMap((line) => parseDirective(line) ?? []);
}

export function formatDirective(directive: Directive): string {
  const parts = [`Do not flag: ${directive.checker}`];
  if (directive.item !== null) parts.push(` for item "${escapeQuoted(oneLine(directive.item))}"`);
  if (directive.unitPrice !== null) parts.push(` at unit price ${directive.unitPrice}${directive.currencyCode ? ` ${directive.currencyCode}` : ''}`);
  if (directive.ref !== null) parts.push(` (ref ${directive.ref})`);
  const reason = directive.reason ? oneLine(directive.reason) : '';
  if (reason) parts.push(`. Reason: ${reason}`);
  return parts.join('');
}

/** What the directive does, without its wording or reason: equal keys suppress the same findings. */
export function directiveKey(directive: Directive): string {
  const canonical = [
    directive.checker.toLowerCase(),
    compactItem(directive.item),
    directive.unitPrice === null ? null : new Decimal(directive.unitPrice).toFixed(),
    directive.currencyCode?.toUpperCase() ?? null,
    directive.ref,
  ];
  return createHash('sha256').update(JSON.stringify(['directive', ...canonical])).digest('hex').slice(0, 32);
}

function itemMatches(item: string, subject: SuppressionSubject): boolean {
  const wanted = compactItem(item);
  return wanted !== null && compactItem(subject.itemKey) === wanted;
}

function priceMatches(directive: Directive, subject: SuppressionSubject): boolean {
  if (subject.unitPrice === null) return false;
  if (!new Decimal(directive.unitPrice!).eq(new Decimal(subject.unitPrice))) return false;
  if (directive.currencyCode && subject.currencyCode) return directive.currencyCode === subject.currencyCode.toUpperCase();
  return true;
}

export function directiveCovers(directive: Directive, subject: SuppressionSubject): boolean {
  if (directive.checker !== subject.checker.toLowerCase()) return false;
  if (directive.ref !== null && directive.ref !== subject.fingerprint) return false;
  if (directive.item !== null && !itemMatches(directive.item, subject)) return false;
  if (directive.unitPrice !== null && !priceMatches(directive, subject)) return false;
  return true;
}

/** Whether the agreement's instructions say not to raise this finding. */
export function isSuppressed(subject: SuppressionSubject, directives: Directive[]): boolean {
  return directives.some((directive) => directiveCovers(directive, subject));
}
