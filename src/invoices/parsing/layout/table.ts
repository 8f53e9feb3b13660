/**
 * The line table: a header row of column words, column boundaries from the header and from the
 * whitespace the rows leave between columns ("text edges"), rows that start where the amount
 * column holds a number, wrapped description lines joined to the row above, and the table
 * continued on later pages under a repeated header. Page subtotals and carry-forwards are not
 * lines: they are recognised by their words and by their arithmetic.
 */
import { Decimal } from 'decimal.js';
import type { DecimalString } from '../model.js';
import { TermIndex } from './label-match.js';
import { COLUMN_LABELS, NUMERIC_ROLES, TOTAL_LABELS, labelWords, type ColumnRole } from './labels.js';
import type { Line } from '../../../shared/layout/lines.js';
import { numberShape, parseNumber, parseRate, type DecimalMark } from '../../../shared/layout/numbers.js';
import type { Word } from '../../../shared/layout/words.js';

const COLUMN_TERMS = new TermIndex(COLUMN_LABELS);
const TOTAL_TERMS = new TermIndex(TOTAL_LABELS);

export interface HeaderColumn {
  roles: ColumnRole[];
  x0: number;
  x1: number;
}

export interface TableHeader {
  line: Line;
  columns: HeaderColumn[];
}

export interface TableRow {
  cells: Partial<Record<ColumnRole, string>>;
  /** Lines the row was read from (its first line and wrapped description lines). */
  lines: Line[];
  /** The columns the row was cut into (its page's header): where each cell's ink is. */
  bands: readonly Band[];
}

export interface ReadTable {
  header: TableHeader;
  /** Column roles in header order, as finally assigned. */
  roles: ColumnRole[];
  rows: TableRow[];
  /** Every line that belongs to the table (headers, rows, carry-forwards), not to be read as labels. */
  tableLines: Set<number>;
  /** Rows dropped as page subtotals or carry-forwards. */
  skippedRows: number;
}

/** A header row: at least three column words, one of them a price or amount, nearly nothing else. */
export function parseHeaderLine(line: Line, ocr = false): TableHeader | null {
  const exact = headerColumns(line, false);
  // OCR misreads a header word now and then ("Jtem no.", "AnzahllME" for "Anzahl ME"): on a line
  // that already holds column words, a word that is one slip from a column word is read as it.
  // Only for OCR: a text layer's unknown header word is what was printed.
  if (!ocr || exact.unknownWords === 0 || exact.columns.length < 2) return asHeader(line, exact);
  const tolerant = headerColumns(line, true);
  return asHeader(line, tolerant.unknownWords < exact.unknownWords ? tolerant : exact) ?? asHeader(line, exact);
}

interface HeaderWords {
  columns: HeaderColumn[];
  unknownWords: number;
}

function asHeader(line: Line, { columns, unknownWords }: HeaderWords): TableHeader | null {
  if (columns.length < 3 || unknownWords > columns.length / 2) return null;
  const roles = new Set(columns.flatMap((column) => column.roles));
  if (!roles.has('amount') && !roles.has('unitPrice')) return null;
  if (!roles.has('description') && !roles.has('quantity') && !roles.has('itemNumber')) return null;
  return { line, columns };
}

function headerColumns(line: Line, tolerant: boolean): HeaderWords {
  const columns: HeaderColumn[] = [];
  let unknownWords = 0;
  for (const segment of line.segments) {
    let words: Word[] = segment.words;
    while (words.length > 0) {
      const match = COLUMN_TERMS.matchStart(words) ?? (tolerant ? misreadColumnWord(words) : null);
      if (!match) {
        const first = words[0];
        // Units and currencies printed in headers ("Price (EUR)", "Amount NOK", "%") are not unknown.
        if (
          first &&
          !/^(?:\(?[A-Z]{3}\)?|[%€$£]|\(?%\)?|\(?kr\)?|excl|incl|ex|inkl|eks|ekskl|exkl|ht|ttc|btw|mva|moms|alv)$/iu.test(
            first.text,
          )
        )
          unknownWords += 1;
        words = words.slice(1);
        continue;
      }
      const last = match.used.at(-1) ?? match.used[0];
      const firstUsed = match.used[0];
      if (!firstUsed || !last) break;
      columns.push({ roles: match.keys, x0: firstUsed.x, x1: last.x + last.width });
      words = match.rest;
    }
  }
  return { columns, unknownWords };
}

/** The column term at the start of `words` once its first word is read as the column word it nearly is. */
function misreadColumnWord(words: readonly Word[]): ReturnType<typeof COLUMN_TERMS.matchStart> {
  const [first, ...rest] = words;
  if (!first) return null;
  const labels = labelWords(first.text);
  if (labels.length !== 1) return null;
  const label = labels[0] as string;
  const near = COLUMN_TERMS.nearWord(label);
  if (near) return COLUMN_TERMS.matchStart([{ ...first, text: near }, ...rest]);
  const split = COLUMN_TERMS.splitWords(label);
  if (!split) return null;
  // The two words share the misread word's box in proportion to their letters.
  const leftWidth = (first.width * split[0].length) / label.length;
  const parts: Word[] = [
    { ...first, text: split[0], width: leftWidth },
    {
      ...first,
      text: split[1],
      x: first.x + first.width - (first.width * split[1].length) / label.length,
      width: (first.width * split[1].length) / label.length,
    },
  ];
  return COLUMN_TERMS.matchStart([...parts, ...rest]);
}

/** Chooses one role per column: unique where possible, the first listed where not. */
export function assignRoles(columns: readonly HeaderColumn[]): ColumnRole[][] {
  const choices = columns.map((column) => column.roles);
  const assignments: ColumnRole[][] = [];
  const walk = (index: number, taken: ColumnRole[]) => {
    if (assignments.length >= 24) return;
    if (index === choices.length) {
      assignments.push(taken);
      return;
    }
    const options = choices[index] ?? [];
    let placed = false;
    for (const role of options) {
      if (taken.includes(role) && role !== 'description') continue;
      placed = true;
      walk(index + 1, [...taken, role]);
    }
    if (!placed) walk(index + 1, [...taken, options[0] ?? 'description']);
  };
  walk(0, []);
  // Two "amount" columns: the second is the gross (or VAT) amount, the first the net line amount.
  return assignments.map((roles) => {
    const seen = new Set<ColumnRole>();
    return roles.map((role) => {
      if (role === 'amount' && seen.has('amount')) return 'grossAmount';
      seen.add(role);
      return role;
    });
  });
}

/**
 * A header printed over two or three lines ("Prix" / "unitaire" around "Description  Quantité"):
 * words just above and below the header line that stand over or under no other header word
 * join the cell they overlap, or form a cell of their own.
 */
function withStackedHeaderWords(lines: readonly Line[], header: TableHeader, ocr: boolean): TableHeader {
  const { line } = header;
  const near = lines.filter(
    (other) => other !== line && other.page === line.page && Math.abs(other.y - line.y) < 1.1 * line.height,
  );
  if (near.length === 0) return header;
  // The header line's own cells stay whole ("Prix HT" is one label, not "Prix" and "HT").
  const cells: Word[][] = line.segments.map((segment) => [...segment.words]);
  for (const word of near.flatMap((other) => other.words).sort((a, b) => a.x - b.x)) {
    const cell = cells.find((existing) =>
      existing.some((other) => other.x < word.x + word.width && word.x < other.x + other.width),
    );
    if (cell) cell.push(word);
    else cells.push([word]);
  }
  cells.sort((a, b) => Math.min(...a.map((word) => word.x)) - Math.min(...b.map((word) => word.x)));
  const segments = cells.map((cell) => {
    const ordered = [...cell].sort((a, b) => a.y - b.y || a.x - b.x);
    return {
      words: ordered,
      text: ordered.map((word) => word.text).join(' '),
      x0: Math.min(...cell.map((word) => word.x)),
      x1: Math.max(...cell.map((word) => word.x + word.width)),
    };
  });
  const merged = parseHeaderLine({ ...line, segments }, ocr);
  return merged && merged.columns.length > header.columns.length ? { line, columns: merged.columns } : header;
}

/** `ocr`: the words are OCR's, and a header word may be misread (parseHeaderLine). */
export function readTable(lines: readonly Line[], mark: DecimalMark, ocr = false): ReadTable | null {
  const headers = lines
    .map((line) => {
      const header = parseHeaderLine(line, ocr);
      return { line, header: header ? withStackedHeaderWords(lines, header, ocr) : null };
    })
    .filter((entry) => entry.header !== null);
  const first = headers[0]?.header;
  if (!first) return null;
  const sameTable = headers
    .filter((entry) => entry.header && sameColumns(entry.header, first))
    .map((entry) => entry.header as TableHeader);
  let best: ReadTable | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  let bestVerified = 0;
  const tryRoles = (roles: ColumnRole[], minimum = Number.NEGATIVE_INFINITY, moreVerified = false) => {
    const table = readRows(lines, sameTable, roles, mark);
    const score = tableScore(table, mark);
    const verified = verifiedRows(table, mark);
    if (score > bestScore && score >= minimum && (!moreVerified || verified > bestVerified)) {
      best = table;
      bestScore = score;
      bestVerified = verified;
    }
  };
  const assignments = assignRoles(first.columns);
  for (const roles of assignments) tryRoles(roles);
  // The header words may lie ("Amount" over the quantities): when the rows' arithmetic does not
  // hold, the other readings of the numeric columns compete on it.
  const rows = (best as ReadTable | null)?.rows.length ?? 0;
  // Another reading wins only when most of its rows verify: "cannot tell" never beats "wrong".
  // It must also verify more rows than the header's reading: quantity × price is symmetric, so a
  // reading that swaps them verifies the same rows, and one that merely fails fewer (a row it
  // cannot check instead of one that does not add up) says nothing against the header.
  if (assignments[0] && rows > 0 && bestScore < rows * 0.8)
    for (const roles of numericPermutations(assignments[0])) tryRoles(roles, rows * 0.5, true);
  return best;
}

const PERMUTED_ROLES: readonly ColumnRole[] = ['quantity', 'unitPrice', 'amount', 'grossAmount'];

/** Every assignment of quantity, unit price and amount to the columns that hold one of them. */
function numericPermutations(roles: readonly ColumnRole[]): ColumnRole[][] {
  const slots = roles.flatMap((role, index) => (PERMUTED_ROLES.includes(role) ? [index] : []));
  if (slots.length < 3 || slots.length > 4) return [];
  const variants: ColumnRole[][] = [];
  const pool =
    slots.length === 3 ? ['quantity', 'unitPrice', 'amount'] : ['quantity', 'unitPrice', 'amount', 'grossAmount'];
  const permute = (remaining: ColumnRole[], chosen: ColumnRole[]) => {
    if (remaining.length === 0) {
      const variant = [...roles];
      slots.forEach((slot, index) => (variant[slot] = chosen[index] as ColumnRole));
      variants.push(variant);
      return;
    }
    remaining.forEach((role, index) =>
      permute([...remaining.slice(0, index), ...remaining.slice(index + 1)], [...chosen, role]),
    );
  };
  permute(pool as ColumnRole[], []);
  return variants;
}

function sameColumns(a: TableHeader, b: TableHeader): boolean {
  if (a.columns.length !== b.columns.length) return false;
  return a.columns.every((column, index) => column.roles.join() === b.columns[index]?.roles.join());
}

/** Rows whose quantity × price − discount equals their amount, more is better. */
export function tableScore(table: ReadTable, mark: DecimalMark): number {
  let score = table.rows.length * 0.01;
  for (const row of table.rows) {
    const check = rowArithmetic(row.cells, mark);
    if (check === true) score += 1;
    else if (check === false) score -= 0.5;
  }
  return score;
}

function verifiedRows(table: ReadTable, mark: DecimalMark): number {
  return table.rows.filter((row) => rowArithmetic(row.cells, mark) === true).length;
}

/** true when quantity × unit price − discount = amount; null when the row cannot say. */
export function rowArithmetic(cells: TableRow['cells'], mark: DecimalMark): boolean | null {
  const quantity = cells.quantity === undefined ? null : quantityOf(cells.quantity, mark).quantity;
  // As tableLines reads it: a price may break the document's grouping rules as a quantity may.
  const price = cells.unitPrice === undefined ? null : lenientNumber(cells.unitPrice, mark);
  const amount = cells.amount === undefined ? null : parseNumber(cells.amount, mark);
  if (amount === null) return null;
  if (quantity === null || price === null) return null;
  const gross = new Decimal(quantity).times(price);
  const discount = cells.discount === undefined ? null : discountOf(cells.discount, gross, mark);
  const expected = discount === null ? gross : gross.minus(discount);
  const tolerance = Decimal.max(new Decimal('0.011'), new Decimal(quantity).abs().times('0.005'));
  // Credit notes print negative amounts beside positive quantities and prices.
  return expected.abs().minus(new Decimal(amount).abs()).abs().lte(tolerance);
}

/** A discount cell: a percent of the gross line, or an amount. */
export function discountOf(cell: string, gross: Decimal, mark: DecimalMark): Decimal | null {
  const shape = numberShape(cell);
  if (!shape) return null;
  if (shape.percent) {
    const rate = parseRate(cell, mark);
    return rate === null ? null : gross.times(rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  }
  const value = parseNumber(cell, mark);
  return value === null ? null : new Decimal(value).abs();
}

/** "12", "12 stk", "2,5 h", "12pcs": the quantity and the unit written with it. */
export function quantityOf(cell: string, mark: DecimalMark): { quantity: DecimalString | null; unit: string | null } {
  const whole = lenientNumber(cell.trim(), mark);
  if (whole !== null) return { quantity: whole, unit: null };
  const words = cell.split(' ').filter((word) => word !== '');
  // "1 171 stk": the longest run of leading words that is one number.
  for (let end = words.length - 1; end >= 2; end -= 1) {
    const grouped = lenientNumber(words.slice(0, end).join(' '), mark);
    if (grouped !== null) return { quantity: grouped, unit: words.slice(end).join(' ') || null };
  }
  const first = words[0] ?? '';
  const direct = lenientNumber(first, mark);
  if (direct !== null) return { quantity: direct, unit: words.slice(1).join(' ') || null };
  const glued = /^(\d+(?:[.,]\d+)?)(\p{L}{1,6}\.?)$/u.exec(first);
  if (glued?.[1]) return { quantity: lenientNumber(glued[1], mark), unit: glued[2] ?? null };
  // "stk 12": the unit first.
  const last = words.at(-1) ?? '';
  const after = words.length === 2 ? lenientNumber(last, mark) : null;
  if (after !== null) return { quantity: after, unit: first };
  return { quantity: null, unit: null };
}

/** A quantity may break the document's grouping rules ("1.5" on a decimal-comma invoice). */
export function lenientNumber(text: string, mark: DecimalMark): DecimalString | null {
  return parseNumber(text, mark) ?? parseNumber(text, mark === ',' ? '.' : ',');
}

export interface Band {
  role: ColumnRole;
  /** Left boundary (words starting at or after it and before the next band belong here). */
  from: number;
}

function readRows(
  lines: readonly Line[],
  headers: readonly TableHeader[],
  roles: readonly ColumnRole[],
  mark: DecimalMark,
): ReadTable {
  const tableLines = new Set<number>();
  const rows: TableRow[] = [];
  let skippedRows = 0;
  let runningSum = new Decimal(0);
  const header = headers[0] as TableHeader;
  for (const [headerIndex, pageHeader] of headers.entries()) {
    tableLines.add(pageHeader.line.index);
    const nextHeaderIndex = headers[headerIndex + 1]?.line.index ?? Number.POSITIVE_INFINITY;
    const body = bodyLines(lines, pageHeader, nextHeaderIndex);
    const bands = columnBands(pageHeader, roles, body);
    let current: TableRow | null = null;
    let ended = false;
    for (const line of body) {
      if (ended) break;
      const leading = totalsLabel(line);
      const cells = cellsOf(line, bands);
      const amount = cells.amount === undefined ? null : parseNumber(lastToken(cells.amount), mark);
      const itemNumbers =
        (cells.quantity !== undefined && quantityOf(cells.quantity, mark).quantity !== null) ||
        (cells.unitPrice !== undefined && lenientNumber(cells.unitPrice, mark) !== null);
      if (leading && !itemNumbers) {
        if (leading.keys.includes('carryForward')) {
          tableLines.add(line.index);
          skippedRows += 1;
          continue;
        }
        ended = true;
        continue;
      }
      const numbers = numericRoles(cells, mark);
      // A row printed over two lines with its amount on the second ("9,90  20 Stk" / "198,00"):
      // numbers in columns the row has not filled yet complete it.
      if (
        current &&
        numbers.length > 0 &&
        !hasAmount(current, mark) &&
        numbers.every((role) => current?.cells[role] === undefined) &&
        isNear(line, current)
      ) {
        for (const [role, value] of Object.entries(cells) as Array<[ColumnRole, string]>) {
          if (role === 'description')
            current.cells.description = current.cells.description ? `${current.cells.description} ${value}` : value;
          else current.cells[role] ??= role === 'amount' ? lastToken(value) : value;
        }
        current.lines.push(line);
        tableLines.add(line.index);
        if (amount !== null) runningSum = runningSum.plus(amount);
        continue;
      }
      if (amount !== null || numbers.includes('quantity') || numbers.includes('unitPrice')) {
        // A row without quantity or price whose amount is the sum so far is a page subtotal.
        if (amount !== null && !cells.quantity && !cells.unitPrice && rows.length > 0 && runningSum.equals(amount)) {
          tableLines.add(line.index);
          skippedRows += 1;
          current = null;
          continue;
        }
        current = {
          cells: { ...cells, ...(cells.amount === undefined ? {} : { amount: lastToken(cells.amount) }) },
          lines: [line],
          bands,
        };
        rows.push(current);
        if (amount !== null) runningSum = runningSum.plus(amount);
        tableLines.add(line.index);
        continue;
      }
      if (current && isContinuation(line, current, bands)) {
        // Under a row's item number, a second identifier (a GTIN, "(EAN)") is not description.
        const { itemNumber, ...rest } = cells;
        if (itemNumber !== undefined && current.cells.itemNumber === undefined) current.cells.itemNumber = itemNumber;
        const text = Object.values(rest).join(' ').trim();
        if (text) current.cells.description = current.cells.description ? `${current.cells.description} ${text}` : text;
        current.lines.push(line);
        tableLines.add(line.index);
      }
    }
  }
  // Rows that never got an amount nor a price are headings, not lines.
  const priced = rows.filter(
    (row) =>
      hasAmount(row, mark) || (row.cells.unitPrice !== undefined && lenientNumber(row.cells.unitPrice, mark) !== null),
  );
  return { header, roles: [...roles], rows: priced, tableLines, skippedRows };
}

function hasAmount(row: TableRow, mark: DecimalMark): boolean {
  return row.cells.amount !== undefined && parseNumber(lastToken(row.cells.amount), mark) !== null;
}

/** The numeric columns of a line that hold a number. */
function numericRoles(cells: TableRow['cells'], mark: DecimalMark): ColumnRole[] {
  return (Object.entries(cells) as Array<[ColumnRole, string]>)
    .filter(
      ([role, value]) =>
        NUMERIC_ROLES.has(role) &&
        (role === 'quantity'
          ? quantityOf(value, mark).quantity !== null
          : lenientNumber(lastToken(value), mark) !== null || numberShape(value)?.percent === true),
    )
    .map(([role]) => role);
}

function isNear(line: Line, row: TableRow): boolean {
  const last = row.lines.at(-1);
  return last !== undefined && last.page === line.page && line.y - last.y <= 2.5 * Math.max(line.height, last.height);
}

/** A cell of the line that starts with a totals word ("Net total", "Übertrag", "MVA 25 %"). */
function totalsLabel(line: Line): { keys: string[] } | null {
  for (const segment of line.segments) {
    const match = TOTAL_TERMS.matchStart(segment.words);
    if (match) return match;
  }
  return null;
}

function lastToken(text: string): string {
  const words = text.split(' ').filter((word) => word !== '' && !/^(?:[A-Z]{3}|[€$£]|kr\.?)$/u.test(word));
  // "1 234,56" is one word with a space inside only when joined; join the digit groups back.
  return words.join(' ');
}

/** The lines under a header: on its page, until a wide vertical gap, the next header or the page's end. */
function bodyLines(lines: readonly Line[], header: TableHeader, nextHeaderIndex: number): Line[] {
  const body: Line[] = [];
  let previous = header.line;
  for (let index = header.line.index + 1; index < lines.length && index < nextHeaderIndex; index += 1) {
    const line = lines[index];
    if (!line || line.page !== header.line.page) break;
    const gap = line.y - previous.y;
    if (gap > 4.5 * Math.max(previous.height, line.height)) break;
    body.push(line);
    previous = line;
  }
  return body;
}

/** A wrapped description line: close below the row, with its words in the text columns only. */
function isContinuation(line: Line, row: TableRow, bands: readonly Band[]): boolean {
  const last = row.lines.at(-1);
  if (!last || line.page !== last.page) return false;
  if (line.y - last.y > 1.9 * Math.max(line.height, last.height)) return false;
  return line.words.every((word) => {
    const role = roleAt(bands, word.x);
    return role === 'description' || role === 'itemNumber' || role === 'position' || role === 'unit';
  });
}

/**
 * Column boundaries: between two header cells, the x where the fewest body words cross, so a
 * long description or a wide right-aligned number stays in its column.
 */
function columnBands(header: TableHeader, roles: readonly ColumnRole[], body: readonly Line[]): Band[] {
  const words = body.flatMap((line) => line.words);
  const bands: Band[] = [{ role: roles[0] ?? 'description', from: Number.NEGATIVE_INFINITY }];
  for (let index = 1; index < header.columns.length; index += 1) {
    const left = header.columns[index - 1] as HeaderColumn;
    const right = header.columns[index] as HeaderColumn;
    const role = roles[index] ?? 'description';
    const low = left.x1;
    const high = NUMERIC_ROLES.has(role) ? Math.max(right.x0, (right.x0 + right.x1) / 2) : right.x0;
    bands.push({ role, from: boundary(words, low, high) });
  }
  return bands;
}

function boundary(words: readonly Word[], low: number, high: number): number {
  if (high <= low) return (low + high) / 2;
  const candidates = [low + 0.5, high - 0.5, (low + high) / 2];
  for (const word of words) {
    if (word.x > low && word.x < high) candidates.push(word.x - 0.5);
    const end = word.x + word.width;
    if (end > low && end < high) candidates.push(end + 0.5);
  }
  const middle = (low + high) / 2;
  let best = middle;
  let bestCrossings = Number.POSITIVE_INFINITY;
  for (const x of candidates) {
    if (x < low || x > high) continue;
    let crossings = 0;
    for (const word of words) if (word.x < x && word.x + word.width > x) crossings += 1;
    if (crossings < bestCrossings || (crossings === bestCrossings && Math.abs(x - middle) < Math.abs(best - middle))) {
      best = x;
      bestCrossings = crossings;
    }
  }
  return best;
}

function roleAt(bands: readonly Band[], x: number): ColumnRole {
  let role = bands[0]?.role ?? 'description';
  for (const band of bands) if (x + 0.01 >= band.from) role = band.role;
  return role;
}

/** The line's words, column by column (columnOf). */
function cellsOf(line: Line, bands: readonly Band[]): TableRow['cells'] {
  const cells: TableRow['cells'] = {};
  for (const word of line.words) {
    const role = columnOf(word, bands);
    cells[role] = cells[role] ? `${cells[role]} ${word.text}` : word.text;
  }
  return cells;
}

/** The column a word belongs to: the band its left edge is in, a number's right edge for numbers. */
export function columnOf(word: Word, bands: readonly Band[]): ColumnRole {
  // Numbers are right-aligned: a wide one reaches left into the column before its own.
  const right = roleAt(bands, word.x + word.width - 0.5);
  return NUMERIC_ROLES.has(right) && numberShape(word.text) !== null ? right : roleAt(bands, word.x);
}

/** Where a column's cells lie across the page: from its band's left boundary to the next band's. */
export function bandSpan(bands: readonly Band[], role: ColumnRole): { from: number; to: number } | null {
  const index = bands.findIndex((band) => band.role === role);
  const band = bands[index];
  if (!band) return null;
  return { from: band.from, to: bands[index + 1]?.from ?? Number.POSITIVE_INFINITY };
}
