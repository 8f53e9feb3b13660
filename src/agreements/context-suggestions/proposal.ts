// Which instruction edit a dismissal suggests (pure; docs/topics-and-suggestions.md).
//   - a check alert on a line that names its item: `Do not flag: <checker> for item "<seller item id,
//     else description>" at unit price <p> <CUR>` -- the same problem on that item at that price,
//     on any invoice of the agreement;
//   - any other check alert (whole invoice, or a line naming nothing): `Do not flag: <checker>
//     (ref <fingerprint>)` -- exactly that problem;
//   - an alert a user recorded (no checker): a note naming its title. Checks never raise such
//     alerts, so there is nothing to suppress; the note keeps the decision in the agreement's
//     context for the people (and any later reader) of the instructions.
import { createHash } from 'node:crypto';
import { formatAmount } from '../../shared/money.js';
import { foldText } from '../price-lists/normalize.js';
import {
  compactItem,
  directiveKey,
  itemKeyOf,
  formatDirective,
  parseDirective,
  parseDirectives,
  type Directive,
  type SuppressionSubject,
} from './directives.js';

export interface DismissedAlert {
  checker: string | null;
  fingerprint: string | null;
  title: string;
  currencyCode: string | null;
  line: { sellerItemId: string | null; description: string | null; unitPrice: string | null } | null;
}

export interface Dismissal {
  category: string | null;
  note: string | null;
}

export interface Proposal {
  instruction: string;
  // Why it is suggested, for the person deciding.
  reason: string;
  // The same edit always has the same key, whatever the reason given (see directiveKey).
  editKey: string;
}

const MAX_REASON_CHARS = 500;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function clip(text: string): string {
  return text.length <= MAX_REASON_CHARS ? text : `${text.slice(0, MAX_REASON_CHARS - 1)}…`;
}

function reasonInLine(dismissal: Dismissal): string | null {
  const note = dismissal.note ? oneLine(dismissal.note) : '';
  if (note) return clip(note);
  return dismissal.category ? `dismissed as ${dismissal.category}` : null;
}

export function directiveFor(alert: DismissedAlert, reason: string | null): Directive | null {
  if (!alert.checker) return null;
  const item = itemKeyOf(alert.line);
  if (item) {
    const unitPrice = alert.line?.unitPrice ? formatAmount(alert.line.unitPrice) : null;
    return {
      checker: alert.checker,
      item,
      unitPrice,
      currencyCode: unitPrice ? alert.currencyCode : null,
      ref: null,
      reason,
    };
  }
  if (alert.fingerprint)
    return { checker: alert.checker, item: null, unitPrice: null, currencyCode: null, ref: alert.fingerprint, reason };
  return null;
}

function noteFor(alert: DismissedAlert, reason: string | null): { instruction: string; editKey: string } {
  const item = itemKeyOf(alert.line);
  const text = `Not an issue: "${oneLine(alert.title).replace(/"/g, "'")}"${item ? ` for item "${oneLine(item).replace(/"/g, "'")}"` : ''}${reason ? `. Reason: ${reason}` : ''}`;
  const editKey = createHash('sha256')
    .update(JSON.stringify(['note', foldText(alert.title), compactItem(item)]))
    .digest('hex')
    .slice(0, 32);
  return { instruction: text, editKey };
}

export function proposeEdit(alert: DismissedAlert, dismissal: Dismissal): Proposal {
  const inLine = reasonInLine(dismissal);
  const note = dismissal.note ? oneLine(dismissal.note) : '';
  const reason = clip(
    `Alert "${oneLine(alert.title)}" was dismissed${dismissal.category ? ` as ${dismissal.category}` : ''}${note ? `: ${note}` : '.'}`,
  );
  const directive = directiveFor(alert, inLine);
  if (directive) return { instruction: formatDirective(directive), reason, editKey: directiveKey(directive) };
  return { ...noteFor(alert, inLine), reason };
}

/** The alert as the checks would see it again; null for alerts no check raises. */
export function subjectOf(alert: DismissedAlert): SuppressionSubject | null {
  if (!alert.checker || !alert.fingerprint) return null;
  return {
    checker: alert.checker,
    fingerprint: alert.fingerprint,
    itemKey: itemKeyOf(alert.line),
    unitPrice: alert.line?.unitPrice ?? null,
    currencyCode: alert.currencyCode,
  };
}

/** Whether the instructions already hold this edit: the same directive (any reason), or the same note line. */
export function instructionPresent(instructions: string | null, instruction: string): boolean {
  const directive = parseDirective(instruction);
  if (directive) {
    const key = directiveKey(directive);
    return parseDirectives(instructions).some((existing) => directiveKey(existing) === key);
  }
  return (instructions ?? '').split(/\r?\n/).some((line) => oneLine(line) === oneLine(instruction));
}
