// How the claim letter writes amounts, quantities and dates for a person. Amounts arrive as exact
// decimal strings and are only regrouped here, digit by digit: never through a float, so what the
// supplier reads is exactly what the database holds.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A plain decimal string: optional minus, digits, optional fraction. Checked without a regex. */
export function isDecimalString(value: string): boolean {
  const body = value.startsWith('-') ? value.slice(1) : value;
  const [whole = '', fraction, extra] = body.split('.');
  if (extra !== undefined || whole === '' || !isDigits(whole)) return false;
  return fraction === undefined || (fraction !== '' && isDigits(fraction));
}

function isDigits(text: string): boolean {
  for (const char of text) if (char < '0' || char > '9') return false;
  return true;
}

/**
 * "1234567.50" -> "1,234,567.50"; "-12.5" -> "-12.5". The fraction is kept exactly as given (the
 * service already renders amounts with their recorded scale). Anything that is not a plain decimal
 * string is returned unchanged rather than guessed at.
 */
export function groupThousands(value: string): string {
  if (!isDecimalString(value)) return value;
  const negative = value.startsWith('-');
  const [whole, fraction] = (negative ? value.slice(1) : value).split('.') as [string, string | undefined];
  let grouped = '';
  for (let end = whole.length; end > 0; end -= 3) {
    const group = whole.slice(Math.max(0, end - 3), end);
    grouped = grouped === '' ? group : `${group},${grouped}`;
  }
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/**
 * Money for the letter: grouped digits with at least two decimals ("1250" -> "1,250.00",
 * "0.000125" stays as it is), or an en dash when there is none. Padding with zeros keeps the
 * value exact; the service renders unit prices without forced scale.
 */
export function showMoney(value: string | null): string {
  if (value === null) return '–';
  if (!isDecimalString(value)) return value;
  const places = decimalPlaces(value);
  const padded = places >= 2 ? value : `${value}${places === 0 ? '.' : ''}${'0'.repeat(2 - places)}`;
  return groupThousands(padded);
}

/** "12.5" + "DAY" -> "12.5 DAY"; missing parts are left out. */
export function showQuantity(quantity: string | null, unit: string | null): string {
  return [quantity === null ? null : groupThousands(quantity), unit]
    .filter((part) => part !== null && part !== '')
    .join(' ');
}

/** "2026-11-24T10:15:00Z" or "2026-11-24" -> "24 November 2026" (the calendar day in UTC). */
export function showLongDate(isoDateOrTimestamp: string): string {
  const day = calendarDay(isoDateOrTimestamp);
  if (day === null) return isoDateOrTimestamp;
  return `${day.day} ${MONTHS[day.month - 1]} ${day.year}`;
}

/** The agreement's period in words: both ends, one end, or nothing. */
export function showPeriod(startDate: string | null, endDate: string | null): string | null {
  if (startDate && endDate) return `${showLongDate(startDate)} to ${showLongDate(endDate)}`;
  if (startDate) return `from ${showLongDate(startDate)}`;
  if (endDate) return `until ${showLongDate(endDate)}`;
  return null;
}

/** The calendar day (UTC) of an ISO date or timestamp, or null when it is not one. */
export function calendarDay(isoDateOrTimestamp: string): { year: number; month: number; day: number } | null {
  const datePart = isoDateOrTimestamp.slice(0, 10);
  const [year, month, day] = datePart.split('-');
  if (datePart.length !== 10 || !year || !month || !day || year.length !== 4 || month.length !== 2 || day.length !== 2)
    return null;
  if (!isDigits(year) || !isDigits(month) || !isDigits(day)) return null;
  const parsed = { year: Number(year), month: Number(month), day: Number(day) };
  if (parsed.month < 1 || parsed.month > 12 || parsed.day < 1 || parsed.day > 31) return null;
  return parsed;
}

/** A date-only cell value for a spreadsheet: midnight UTC of the calendar day, or null. */
export function utcDate(isoDate: string | null): Date | null {
  if (isoDate === null) return null;
  const day = calendarDay(isoDate);
  return day === null ? null : new Date(Date.UTC(day.year, day.month - 1, day.day));
}

/** Decimal places of a decimal string ("12.50" -> 2, "3" -> 0). */
export function decimalPlaces(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

// Long free text is cut for the printed table (the spreadsheet exports carry it whole), so one
// line can never outgrow a page and measuring stays cheap whatever an invoice holds.
export const MAX_CELL_CHARS = 400;
export const MAX_NOTE_CHARS = 4_000;
// Names, titles, address lines and references: far beyond any real one, short enough for the head.
export const MAX_FIELD_CHARS = 200;
export const MAX_ADDRESS_LINES = 6;
