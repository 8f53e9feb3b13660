/**
 * Ink that tesseract's page segmentation left unread. With `--psm 3` tesseract first finds the
 * page's text blocks and reads only those; a narrow column of numbers standing apart from the
 * rest of a table (the quantities between a description and the prices) is now and then taken
 * for a picture or for nothing and silently dropped, and with it a whole column of the line
 * table. The prepared page holds only text and what is left of rules (specks and ruling lines
 * are erased), so ink outside every block that read words is text not read: each such region is
 * cropped and read again on its own as one uniform block (`--psm 6`).
 */
import type { GrayImage } from './raster.js';

export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** At most this many regions are read again: each costs a tesseract start. */
export const MAX_UNREAD_REGIONS = 4;
/** Grid cells of this size at 300 dpi: about a third of a 10 pt capital. */
const CELL_AT_300_DPI = 10;
/** Ink pixels a cell needs to count: what is left of a speck is less. */
const MIN_CELL_INK = 4;

/**
 * Rectangles of the page (pixels) with ink outside every one of `read` (the boxes of the text
 * blocks that gave words), grown into text-like regions: a region is at least a line of text tall
 * and wider than a stroke (a remnant of a vertical rule is not text), holds enough inked cells,
 * and the biggest MAX_UNREAD_REGIONS are returned, with a margin of white around them.
 */
export function unreadRegions(image: GrayImage, read: readonly PixelBox[], dpi: number): PixelBox[] {
  const cell = Math.max(4, Math.round((CELL_AT_300_DPI * dpi) / 300));
  const columns = Math.ceil(image.width / cell);
  const rows = Math.ceil(image.height / cell);
  const inked = inkedCells(image, read, cell, columns, rows);
  // A word gap joins cells into a word and a line, a line gap lines into a column.
  const regions = connectedRegions(inked, columns, rows, 3, 4);
  const minHeight = Math.ceil((20 * dpi) / 300 / cell);
  const minWidth = Math.ceil((24 * dpi) / 300 / cell);
  return regions
    .filter((region) => region.rows >= minHeight && region.columns >= minWidth && region.cells >= 6)
    .sort((a, b) => b.cells - a.cells)
    .slice(0, MAX_UNREAD_REGIONS)
    .map((region) => {
      const margin = cell * 2;
      const left = Math.max(0, region.column * cell - margin);
      const top = Math.max(0, region.row * cell - margin);
      const right = Math.min(image.width, (region.column + region.columns) * cell + margin);
      const bottom = Math.min(image.height, (region.row + region.rows) * cell + margin);
      return { left, top, width: right - left, height: bottom - top };
    });
}

function inkedCells(
  image: GrayImage,
  read: readonly PixelBox[],
  cell: number,
  columns: number,
  rows: number,
): Uint8Array {
  const counts = new Uint16Array(columns * rows);
  const { width, height, pixels } = image;
  for (let y = 0; y < height; y += 1) {
    const rowOffset = y * width;
    const cellRow = Math.floor(y / cell) * columns;
    for (let x = 0; x < width; x += 1) {
      if (pixels[rowOffset + x] !== 0) continue;
      const index = cellRow + Math.floor(x / cell);
      counts[index] = (counts[index] as number) + 1;
    }
  }
  const inked = new Uint8Array(columns * rows);
  for (let index = 0; index < counts.length; index += 1) inked[index] = (counts[index] ?? 0) >= MIN_CELL_INK ? 1 : 0;
  // Cells inside (or touching) a block that was read are not unread ink.
  for (const box of read) {
    const c0 = Math.max(0, Math.floor(box.left / cell) - 1);
    const c1 = Math.min(columns - 1, Math.floor((box.left + box.width) / cell) + 1);
    const r0 = Math.max(0, Math.floor(box.top / cell) - 1);
    const r1 = Math.min(rows - 1, Math.floor((box.top + box.height) / cell) + 1);
    for (let r = r0; r <= r1; r += 1) inked.fill(0, r * columns + c0, r * columns + c1 + 1);
  }
  return inked;
}

interface CellRegion {
  column: number;
  row: number;
  columns: number;
  rows: number;
  /** Inked cells in it. */
  cells: number;
}

/** Regions of inked cells, two cells joined when within `reachX` columns and `reachY` rows. */
function connectedRegions(
  inked: Uint8Array,
  columns: number,
  rows: number,
  reachX: number,
  reachY: number,
): CellRegion[] {
  const seen = new Uint8Array(inked.length);
  const regions: CellRegion[] = [];
  for (let start = 0; start < inked.length; start += 1) {
    if (inked[start] !== 1 || seen[start] === 1) continue;
    seen[start] = 1;
    const stack = [start];
    let [c0, c1, r0, r1, cells] = [columns, -1, rows, -1, 0];
    while (stack.length > 0) {
      const index = stack.pop() as number;
      const column = index % columns;
      const row = (index - column) / columns;
      cells += 1;
      c0 = Math.min(c0, column);
      c1 = Math.max(c1, column);
      r0 = Math.min(r0, row);
      r1 = Math.max(r1, row);
      for (let r = Math.max(0, row - reachY); r <= Math.min(rows - 1, row + reachY); r += 1) {
        for (let c = Math.max(0, column - reachX); c <= Math.min(columns - 1, column + reachX); c += 1) {
          const next = r * columns + c;
          if (inked[next] === 1 && seen[next] !== 1) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    regions.push({ column: c0, row: r0, columns: c1 - c0 + 1, rows: r1 - r0 + 1, cells });
  }
  return regions;
}

/** The parts of `image` inside `boxes`, one under the other with `gap` white rows between. */
export function stackRegions(
  image: GrayImage,
  boxes: readonly PixelBox[],
  gap: number,
): { image: GrayImage; tops: number[] } {
  const width = Math.max(1, ...boxes.map((box) => box.width));
  const tops: number[] = [];
  let height = 0;
  for (const box of boxes) {
    tops.push(height);
    height += box.height + gap;
  }
  const pixels = new Uint8Array(width * Math.max(1, height)).fill(255);
  boxes.forEach((box, index) => {
    for (let y = 0; y < box.height; y += 1) {
      const from = (box.top + y) * image.width + box.left;
      pixels.set(image.pixels.subarray(from, from + box.width), ((tops[index] as number) + y) * width);
    }
  });
  return { image: { width, height: Math.max(1, height), pixels }, tops };
}
