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
import { isLineTerminator, isWhitespace, skipWhitespace, startsWithAsciiCaseless } from '../../shared/text-scan.js';
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

const escapeQuoted = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

// "AB-100.2", "ab 100 2" and "AB1002" name the same item; so do "Kopipapir A4," and "kopipapir a4".
export function compactItem(text: string | null): string | null {
  if (!text) return null;
  return foldText(text).replace(/ /g, '') || null;
}

// A directive is read by a scanner, one pass over the line. It accepts exactly what the pattern
//   ^\s*(?:[-*•]\s*)?do not flag:\s*(?<checker>[a-z0-9_\-]+)(?:\s+for item\s+"(?<item>(?:[^"\\]|\\.)*)")?
//   (?:\s+at unit price\s+(?<price>-?\d+(?:\.\d+)?)(?:\s+(?<currency>[a-z]{3})\b)?)?
//   (?:\s+\(ref\s+(?<ref>[^\s()]+)\))?\s*[.;]?\s*(?:reason:\s*(?<reason>.*?))?\s*$   (flags: i)
// accepted; that pattern took quadratic time on long lines of spaces, and it runs in API requests
// and once per finding in every check.
export function parseDirective(line: string): Directive | null {
  const scanner = new DirectiveScanner(line);
  return scanner.directive();
}

const CHECKER_CHARS = /^[a-z0-9_-]$/i;
const ASCII_LETTER = /^[a-z]$/i;
const ASCII_DIGIT = /^\d$/;
const WORD_CHAR = /^\w$/;

class DirectiveScanner {
  private at = 0;

  constructor(private readonly line: string) {}

  directive(): Directive | null {
    this.at = skipWhitespace(this.line, 0);
    if ('-*•'.includes(this.line[this.at] ?? 'x')) this.at = skipWhitespace(this.line, this.at + 1);
    if (!this.keyword('do not flag:')) return null;
    this.at = skipWhitespace(this.line, this.at);
    const checkerStart = this.at;
    this.skipWhile(CHECKER_CHARS);
    if (this.at === checkerStart) return null;
    const afterChecker = this.at;
    const parsed = this.conditionsAndReason(checkerStart);
    if (parsed) return parsed;
    // The pattern could also end the checker before a "reason:" written straight after it.
    if (
      startsWithAsciiCaseless(this.line, afterChecker - 'reason'.length, 'reason') &&
      this.line[afterChecker] === ':'
    ) {
      const checkerEnd = afterChecker - 'reason'.length;
      if (checkerEnd === checkerStart) return null;
      this.at = checkerEnd;
      const reason = this.tail();
      if (reason === false) return null;
      return {
        checker: this.line.slice(checkerStart, checkerEnd).toLowerCase(),
        item: null,
        unitPrice: null,
        currencyCode: null,
        ref: null,
        reason,
      };
    }
    return null;
  }

  private conditionsAndReason(checkerStart: number): Directive | null {
    const checker = this.line.slice(checkerStart, this.at).toLowerCase();
    const item = this.optional(() => this.item());
    const price = this.optional(() => this.price());
    const ref = this.optional(() => this.ref());
    const reason = this.tail();
    if (reason === false) return null;
    return {
      checker,
      item,
      unitPrice: price?.unitPrice ?? null,
      currencyCode: price?.currencyCode ?? null,
      ref,
      reason,
    };
  }

  // An optional part: on failure nothing is consumed, as when the pattern skips its group.
  private optional<T>(read: () => T | null): T | null {
    const start = this.at;
    const value = read();
    if (value === null) this.at = start;
    return value;
  }

  private item(): string | null {
    if (!this.spacedKeyword('for item') || !this.requiredSpace() || this.line[this.at] !== '"') return null;
    let text = '';
    for (let index = this.at + 1; index < this.line.length; index += 1) {
      const char = this.line[index]!;
      if (char === '"') {
        this.at = index + 1;
        return text;
      }
      if (char === '\\') {
        const next = this.line[index + 1];
        if (next === undefined || isLineTerminator(next)) return null;
        text += next; // unescaped: \" is ", \\ is \
        index += 1;
      } else text += char;
    }
    return null;
  }

  private price(): { unitPrice: string; currencyCode: string | null } | null {
    if (!this.spacedKeyword('at unit price') || !this.requiredSpace()) return null;
    const start = this.at;
    if (this.line[this.at] === '-') this.at += 1;
    const digitsStart = this.at;
    this.skipWhile(ASCII_DIGIT);
    if (this.at === digitsStart) return null;
    if (this.line[this.at] === '.' && ASCII_DIGIT.test(this.line[this.at + 1] ?? '')) {
      this.at += 1;
      this.skipWhile(ASCII_DIGIT);
    }
    const unitPrice = this.line.slice(start, this.at);
    const currencyCode = this.optional(() => this.currency());
    return { unitPrice, currencyCode };
  }

  private currency(): string | null {
    if (!this.requiredSpace()) return null;
    const code = this.line.slice(this.at, this.at + 3);
    if (code.length !== 3 || ![...code].every((char) => ASCII_LETTER.test(char))) return null;
    if (WORD_CHAR.test(this.line[this.at + 3] ?? ' ')) return null;
    this.at += 3;
    return code.toUpperCase();
  }

  private ref(): string | null {
    if (!this.spacedKeyword('(ref') || !this.requiredSpace()) return null;
    const start = this.at;
    while (
      this.at < this.line.length &&
      !isWhitespace(this.line[this.at]) &&
      this.line[this.at] !== '(' &&
      this.line[this.at] !== ')'
    )
      this.at += 1;
    if (this.at === start || this.line[this.at] !== ')') return null;
    const ref = this.line.slice(start, this.at);
    this.at += 1;
    return ref;
  }

  // `\s*[.;]?\s*(?:reason:\s*(?<reason>.*?))?\s*$`: the reason (null when absent or empty), or false when the line does not end so.
  private tail(): string | null | false {
    this.at = skipWhitespace(this.line, this.at);
    if (this.line[this.at] === '.' || this.line[this.at] === ';') this.at = skipWhitespace(this.line, this.at + 1);
    if (!this.keyword('reason:')) return this.at === this.line.length ? null : false;
    const reason = this.line.slice(skipWhitespace(this.line, this.at)).trimEnd();
    // `.` stops at a line break, so text after one is not part of a reason.
    if ([...reason].some(isLineTerminator)) return false;
    return reason === '' ? null : reason;
  }

  private keyword(keyword: string): boolean {
    if (!startsWithAsciiCaseless(this.line, this.at, keyword)) return false;
    this.at += keyword.length;
    return true;
  }

  // `\s+keyword`
  private spacedKeyword(keyword: string): boolean {
    return this.requiredSpace() && this.keyword(keyword);
  }

  private requiredSpace(): boolean {
    const after = skipWhitespace(this.line, this.at);
    if (after === this.at) return false;
    this.at = after;
    return true;
  }

  private skipWhile(pattern: RegExp): void {
    while (this.at < this.line.length && pattern.test(this.line[this.at]!)) this.at += 1;
  }
}

/** Every directive in the instructions, in order; other text is ignored. */
export function parseDirectives(instructions: string | null): Directive[] {
  if (!instructions) return [];
  return instructions.split(/\r?\n/).flatMap((line) => parseDirective(line) ?? []);
}

export function formatDirective(directive: Directive): string {
  const parts = [`Do not flag: ${directive.checker}`];
  if (directive.item !== null) parts.push(` for item "${escapeQuoted(oneLine(directive.item))}"`);
  if (directive.unitPrice !== null)
    parts.push(` at unit price ${directive.unitPrice}${directive.currencyCode ? ` ${directive.currencyCode}` : ''}`);
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
  return createHash('sha256')
    .update(JSON.stringify(['directive', ...canonical]))
    .digest('hex')
    .slice(0, 32);
}

function itemMatches(item: string, subject: SuppressionSubject): boolean {
  const wanted = compactItem(item);
  return wanted !== null && compactItem(subject.itemKey) === wanted;
}

function priceMatches(directive: Directive, subject: SuppressionSubject): boolean {
  if (subject.unitPrice === null) return false;
  if (!new Decimal(directive.unitPrice!).eq(new Decimal(subject.unitPrice))) return false;
  if (directive.currencyCode && subject.currencyCode)
    return directive.currencyCode === subject.currencyCode.toUpperCase();
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
