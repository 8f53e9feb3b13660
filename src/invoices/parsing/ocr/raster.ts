/**
 * The image steps before OCR, on 8-bit grayscale pages (0 black, 255 white) as pdftoppm writes
 * them (binary PGM): the skew angle of the text lines, a rotation that straightens them, a
 * global threshold and a 3×3 majority filter that removes specks. Plain typed-array loops: a
 * 300 dpi A4 page is 8.7 million pixels, so every step is linear and allocation-light.
 */

export interface GrayImage {
  width: number;
  height: number;
  /** Row-major, one byte per pixel, 0 black .. 255 white. */
  pixels: Uint8Array;
}

/** Pages larger than this (about A3 at 400 dpi) are not images pdftoppm makes at our resolution. */
export const MAX_PIXELS = 40_000_000;

/** Reads a binary PGM (P5, maxval 255), the format of `pdftoppm -gray`. */
export function parsePgm(bytes: Uint8Array): GrayImage {
  const header: string[] = [];
  let offset = 0;
  // Four header tokens (magic, width, height, maxval), separated by whitespace, with # comments.
  while (header.length < 4 && offset < bytes.length) {
    const byte = bytes[offset] as number;
    if (byte === 0x23) {
      while (offset < bytes.length && bytes[offset] !== 0x0a) offset += 1;
    } else if (isSpace(byte)) {
      offset += 1;
    } else {
      let token = '';
      while (offset < bytes.length && !isSpace(bytes[offset] as number))
        token += String.fromCharCode(bytes[offset++] as number);
      header.push(token);
    }
  }
  offset += 1; // the single whitespace byte after maxval
  const [magic, widthText, heightText, maxText] = header;
  const width = Number(widthText);
  const height = Number(heightText);
  if (
    magic !== 'P5' ||
    maxText !== '255' ||
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width <= 0 ||
    height <= 0
  ) {
    throw new Error('not an 8-bit binary PGM image');
  }
  if (width * height > MAX_PIXELS)
    throw new Error(`the page image has ${width}×${height} pixels, more than ${MAX_PIXELS}`);
  if (bytes.length - offset < width * height) throw new Error('the PGM image is truncated');
  return { width, height, pixels: new Uint8Array(bytes.subarray(offset, offset + width * height)) };
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Binary PGM (P5): what tesseract reads from its standard input. */
export function encodePgm(image: GrayImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1');
  return Buffer.concat([header, Buffer.from(image.pixels.buffer, image.pixels.byteOffset, image.pixels.byteLength)]);
}

/**
 * The angle, in degrees, of the text lines: lines run along y = c + x·tan(angle), with y growing
 * downwards (a positive angle descends to the right). Found by the projection profile: the page's
 * dark pixels, projected across lines tilted at the right angle, pile up in sharp peaks (the sum
 * of squared bin counts is largest). Searched within ±maxDegrees on a reduced copy, coarse then fine.
 */
export function estimateSkew(image: GrayImage, maxDegrees = 5): number {
  const points = darkPoints(image, Math.max(1, Math.round(image.width / 800)));
  if (points.count < 50) return 0;
  const score = (degrees: number) => projectionScore(points, degrees);
  let best = 0;
  let bestScore = score(0);
  for (let degrees = -maxDegrees; degrees <= maxDegrees + 1e-9; degrees += 0.25) {
    const value = score(degrees);
    if (value > bestScore) [best, bestScore] = [degrees, value];
  }
  const coarse = best;
  for (let degrees = coarse - 0.25; degrees <= coarse + 0.25 + 1e-9; degrees += 0.02) {
    const value = score(degrees);
    if (value > bestScore) [best, bestScore] = [degrees, value];
  }
  return Math.round(best * 100) / 100;
}

interface Points {
  xs: Float64Array;
  ys: Float64Array;
  count: number;
  /** The reduced image's size, for the profile's bins. */
  width: number;
  height: number;
}

/** Dark pixels of a copy reduced by `step` in each direction (a block is dark if its mean is). */
function darkPoints(image: GrayImage, step: number): Points {
  const width = Math.floor(image.width / step);
  const height = Math.floor(image.height / step);
  const threshold = otsuThreshold(image);
  const xs: number[] = [];
  const ys: number[] = [];
  const area = step * step;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let total = 0;
      for (let dy = 0; dy < step; dy += 1) {
        const row = (y * step + dy) * image.width + x * step;
        for (let dx = 0; dx < step; dx += 1) total += image.pixels[row + dx] as number;
      }
      if (total / area < threshold) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys), count: xs.length, width, height };
}

function projectionScore(points: Points, degrees: number): number {
  const radians = (degrees * Math.PI) / 180;
  const sin = Math.sin(radians);
  const cos = Math.cos(radians);
  const margin = Math.ceil(Math.abs(sin) * points.width) + 1;
  const bins = new Float64Array(points.height + 2 * margin + 2);
  for (let index = 0; index < points.count; index += 1) {
    const bin = Math.round((points.ys[index] as number) * cos - (points.xs[index] as number) * sin) + margin;
    if (bin >= 0 && bin < bins.length) bins[bin] = (bins[bin] as number) + 1;
  }
  let sum = 0;
  for (const count of bins) sum += count * count;
  return sum;
}

/**
 * Straightens lines that run at `degrees` (as estimateSkew measures it): every output pixel takes
 * the bilinear value of the source point it came from, rotated about the page centre; what comes
 * from outside the page is white.
 */
export function rotate(image: GrayImage, degrees: number): GrayImage {
  const { width, height, pixels } = image;
  const out = new Uint8Array(width * height);
  const radians = (degrees * Math.PI) / 180;
  const sin = Math.sin(radians);
  const cos = Math.cos(radians);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let v = 0; v < height; v += 1) {
    const dv = v - cy;
    // Source position of (u, v): x = cx + du·cos − dv·sin, y = cy + du·sin + dv·cos.
    let x = cx - cx * cos - dv * sin;
    let y = cy - cx * sin + dv * cos;
    const row = v * width;
    for (let u = 0; u < width; u += 1, x += cos, y += sin) {
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      if (x0 < 0 || y0 < 0 || x0 >= width - 1 || y0 >= height - 1) {
        out[row + u] = 255;
        continue;
      }
      const fx = x - x0;
      const fy = y - y0;
      const i = y0 * width + x0;
      const top = (pixels[i] as number) * (1 - fx) + (pixels[i + 1] as number) * fx;
      const bottom = (pixels[i + width] as number) * (1 - fx) + (pixels[i + width + 1] as number) * fx;
      out[row + u] = top * (1 - fy) + bottom * fy + 0.5;
    }
  }
  return { width, height, pixels: out };
}

/** Otsu's threshold: the gray level that best separates ink from paper. */
export function otsuThreshold(image: GrayImage): number {
  const histogram = new Float64Array(256);
  const { pixels } = image;
  // Every fourth pixel is plenty for a histogram of a page.
  for (let index = 0; index < pixels.length; index += 4)
    histogram[pixels[index] as number] = (histogram[pixels[index] as number] as number) + 1;
  let total = 0;
  let weighted = 0;
  for (let level = 0; level < 256; level += 1) {
    total += histogram[level] as number;
    weighted += level * (histogram[level] as number);
  }
  let background = 0;
  let backgroundSum = 0;
  let best = 128;
  let bestVariance = -1;
  for (let level = 0; level < 256; level += 1) {
    background += histogram[level] as number;
    if (background === 0) continue;
    const foreground = total - background;
    if (foreground === 0) break;
    backgroundSum += level * (histogram[level] as number);
    const meanBack = backgroundSum / background;
    const meanFore = (weighted - backgroundSum) / foreground;
    const variance = background * foreground * (meanBack - meanFore) ** 2;
    if (variance > bestVariance) [best, bestVariance] = [level, variance];
  }
  return best + 1;
}

/**
 * Thresholds the page (ink 0, paper 255) and removes noise with a 3×3 majority filter (the median
 * of a two-level image): a pixel is ink when at least five of the nine pixels around it are.
 * Specks up to 2×2 pixels vanish, holes in strokes fill, and strokes two or more pixels wide
 * (all text at 300 dpi) keep their shape.
 */
export function binarizeAndDenoise(image: GrayImage, threshold = otsuThreshold(image)): GrayImage {
  const { width, height, pixels } = image;
  const ink = new Uint8Array(width * height);
  for (let index = 0; index < pixels.length; index += 1) ink[index] = (pixels[index] as number) < threshold ? 1 : 0;
  // Horizontal sums of three, then vertical sums of those: the 3×3 count in two passes.
  const rows = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = 0; x < width; x += 1) {
      rows[row + x] =
        (ink[row + x] as number) +
        (x > 0 ? (ink[row + x - 1] as number) : 0) +
        (x + 1 < width ? (ink[row + x + 1] as number) : 0);
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = 0; x < width; x += 1) {
      const count =
        (rows[row + x] as number) +
        (y > 0 ? (rows[row - width + x] as number) : 0) +
        (y + 1 < height ? (rows[row + width + x] as number) : 0);
      out[row + x] = count >= 5 ? 0 : 255;
    }
  }
  return { width, height, pixels: out };
}

export interface SpeckOptions {
  /** A blot no wider and no taller than this many pixels is small enough to be dirt... */
  maxSize: number;
  /** ...and is dirt when no other ink is within this many pixels of it. */
  clearance: number;
  /**
   * A blot at most this thick and at least ruleLength long is a piece of a ruling line (a thin
   * rule breaks into dashes when scanned); 0 keeps them.
   */
  ruleThickness: number;
  ruleLength: number;
}

/**
 * At 300 dpi: blots up to 0.5 mm with 1 mm of blank paper around them (a full stop sits by its
 * digits), and pieces of rules up to 0.4 mm thick and 3.4 mm long (an en dash of 10 pt is 2 mm).
 */
export const SPECKS_AT_300_DPI: SpeckOptions = { maxSize: 6, clearance: 12, ruleThickness: 5, ruleLength: 40 };

/** The options for another resolution. */
export function specksAt(dpi: number): SpeckOptions {
  const scale = dpi / 300;
  const { maxSize, clearance, ruleThickness, ruleLength } = SPECKS_AT_300_DPI;
  return {
    maxSize: Math.max(2, Math.round(maxSize * scale)),
    clearance: Math.round(clearance * scale),
    ruleThickness: Math.max(2, Math.round(ruleThickness * scale)),
    ruleLength: Math.round(ruleLength * scale),
  };
}

/**
 * Removes specks from a black and white page: small connected blots of ink with only paper around
 * them (full stops, commas and the dots of an i are as small, but sit next to other ink), and the
 * thin long pieces a scanned ruling line breaks into.
 */
export function removeSpecks(image: GrayImage, options: SpeckOptions = SPECKS_AT_300_DPI): GrayImage {
  const { width, height } = image;
  const pixels = new Uint8Array(image.pixels);
  // Ink counts of every rectangle from the origin (a summed-area table), for the clearance test.
  const stride = width + 1;
  const sums = new Int32Array(stride * (height + 1));
  for (let y = 0; y < height; y += 1) {
    let row = 0;
    for (let x = 0; x < width; x += 1) {
      row += pixels[y * width + x] === 0 ? 1 : 0;
      sums[(y + 1) * stride + x + 1] = (sums[y * stride + x + 1] as number) + row;
    }
  }
  const inkIn = (x0: number, y0: number, x1: number, y1: number) => {
    const a = Math.max(0, x0);
    const b = Math.max(0, y0);
    const c = Math.min(width, x1 + 1);
    const d = Math.min(height, y1 + 1);
    return (
      (sums[d * stride + c] as number) -
      (sums[b * stride + c] as number) -
      (sums[d * stride + a] as number) +
      (sums[b * stride + a] as number)
    );
  };
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  const blot: number[] = [];
  for (let start = 0; start < pixels.length; start += 1) {
    if (pixels[start] !== 0 || seen[start]) continue;
    // Flood fill the blot (8-connected); a blot too large to be a speck is still filled, so its
    // pixels are not visited again.
    stack.length = 0;
    stack.push(start);
    seen[start] = 1;
    blot.length = 0;
    let minX = width;
    let minY = height;
    let maxX = 0;
    let maxY = 0;
    while (stack.length > 0) {
      const index = stack.pop() as number;
      const x = index % width;
      const y = (index - x) / width;
      blot.push(index);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (let dy = -1; dy <= 1; dy += 1) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx += 1) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (pixels[next] === 0 && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    const blotWidth = maxX - minX + 1;
    const blotHeight = maxY - minY + 1;
    if (
      options.ruleThickness > 0 &&
      Math.min(blotWidth, blotHeight) <= options.ruleThickness &&
      Math.max(blotWidth, blotHeight) >= options.ruleLength
    ) {
      for (const index of blot) pixels[index] = 255;
      continue;
    }
    if (blotWidth > options.maxSize || blotHeight > options.maxSize) continue;
    const c = options.clearance;
    if (inkIn(minX - c, minY - c, maxX + c, maxY + c) !== blot.length) continue;
    // A dot between two words of a line ("Acme AS · Org.nr 123") is a separator, not dirt.
    const reach = 2 * c;
    const between =
      inkIn(minX - reach, minY - c / 2, minX - 1, maxY + c / 2) > 0 &&
      inkIn(maxX + 1, minY - c / 2, maxX + reach, maxY + c / 2) > 0;
    if (!between) for (const index of blot) pixels[index] = 255;
  }
  return { width, height, pixels };
}

/** Half the size in each direction, for a quick look: a 2×2 block is ink when two of its pixels are. */
export function halve(image: GrayImage): GrayImage {
  const width = Math.floor(image.width / 2);
  const height = Math.floor(image.height / 2);
  const pixels = new Uint8Array(width * height);
  const source = image.pixels;
  for (let y = 0; y < height; y += 1) {
    const top = 2 * y * image.width;
    const bottom = top + image.width;
    for (let x = 0; x < width; x += 1) {
      const sum =
        (source[top + 2 * x] as number) +
        (source[top + 2 * x + 1] as number) +
        (source[bottom + 2 * x] as number) +
        (source[bottom + 2 * x + 1] as number);
      pixels[y * width + x] = sum <= 2 * 255 ? 0 : 255;
    }
  }
  return { width, height, pixels };
}

/**
 * Erases ruling lines from a black and white page: runs of ink at least `minRun` pixels long,
 * across or down the page. Tesseract reads a table's rules as rows of dashes and letters ("ee
 * eee") and merges the rows they touch; no glyph has such a run (a dash is a fraction of it).
 */
export function removeRules(image: GrayImage, minRun: number): GrayImage {
  const { width, height } = image;
  const pixels = new Uint8Array(image.pixels);
  const rule = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    let start = -1;
    for (let x = 0; x <= width; x += 1) {
      const ink = x < width && image.pixels[row + x] === 0;
      if (ink && start < 0) start = x;
      if (!ink && start >= 0) {
        if (x - start >= minRun) rule.fill(1, row + start, row + x);
        start = -1;
      }
    }
  }
  for (let x = 0; x < width; x += 1) {
    let start = -1;
    for (let y = 0; y <= height; y += 1) {
      const ink = y < height && image.pixels[y * width + x] === 0;
      if (ink && start < 0) start = y;
      if (!ink && start >= 0) {
        if (y - start >= minRun) for (let index = start; index < y; index += 1) rule[index * width + x] = 1;
        start = -1;
      }
    }
  }
  for (let index = 0; index < pixels.length; index += 1) if (rule[index]) pixels[index] = 255;
  return { width, height, pixels };
}

/**
 * Erases the thin pieces of a scanned ruling line, also where the line runs close to text (a
 * table's header row between two rules): in each pixel row, ink that is thin where it is (at most
 * `maxThickness` pixels tall) and has paper at `maxThickness + 2` pixels above and below it, in
 * the same pixel column, covering at least half of a run of at least `minRun` pixels with gaps
 * up to `maxGap`. A glyph's thin strokes (the top of an "e", the bar of a "T") have the rest of
 * the glyph above or below them, and a line of text leaves no such run: a rule does.
 */
export function removeThinRules(
  image: GrayImage,
  options: { minRun: number; maxThickness: number; maxGap: number },
): GrayImage {
  const { width, height } = image;
  const source = image.pixels;
  const pixels = new Uint8Array(source);
  const thin = new Uint8Array(width * height);
  for (let x = 0; x < width; x += 1) {
    let start = -1;
    for (let y = 0; y <= height; y += 1) {
      const ink = y < height && source[y * width + x] === 0;
      if (ink && start < 0) start = y;
      if (!ink && start >= 0) {
        if (y - start <= options.maxThickness) for (let row = start; row < y; row += 1) thin[row * width + x] = 1;
        start = -1;
      }
    }
  }
  const away = options.maxThickness + 2;
  // Paper, or a thin line of its own (the other line of a double rule).
  const paper = (y: number, x: number) =>
    y < 0 || y >= height || source[y * width + x] !== 0 || thin[y * width + x] === 1;
  // Thin ink with paper above and below it in its own pixel column.
  const alone = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = 0; x < width; x += 1) {
      if (thin[row + x] && paper(y - away, x) && paper(y + away, x) && paper(y - away - 1, x) && paper(y + away + 1, x))
        alone[row + x] = 1;
    }
  }
  // Pieces of a rule are dashes at least two thicknesses long; the thin top of an "o" or an "n"
  // is shorter, so a line of text does not add up to a rule however its letters sit.
  const minPiece = 2 * options.maxThickness;
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    // A scanned rule wanders a pixel up or down along the page: three rows are looked at together.
    const aloneAt = (x: number) =>
      alone[row + x] === 1 ||
      (y > 0 && alone[row - width + x] === 1) ||
      (y + 1 < height && alone[row + width + x] === 1);
    let start = -1;
    let last = -1;
    let covered = 0;
    const close = () => {
      const length = last - start + 1;
      if (length < options.minRun || covered < RULE_COVERAGE * length) return;
      // Its short pieces too, also those just past its first and last long piece.
      const from = Math.max(0, start - options.maxGap);
      const to = Math.min(width - 1, last + options.maxGap);
      for (let band = Math.max(0, y - 1); band <= Math.min(height - 1, y + 1); band += 1) {
        for (let x = from; x <= to; x += 1) if (thin[band * width + x]) pixels[band * width + x] = 255;
      }
    };
    let x = 0;
    while (x < width) {
      if (!aloneAt(x)) {
        x += 1;
        continue;
      }
      let end = x;
      while (end + 1 < width && aloneAt(end + 1)) end += 1;
      const piece = end - x + 1;
      if (piece >= minPiece) {
        if (start >= 0 && x - last > options.maxGap + 1) {
          close();
          start = -1;
        }
        if (start < 0) {
          start = x;
          covered = 0;
        }
        last = end;
        covered += piece;
      }
      x = end + 1;
    }
    if (start >= 0) close();
  }
  return { width, height, pixels };
}

/** The share of a rule's length its pieces cover (a light rule scans into sparse dashes). */
const RULE_COVERAGE = 0.25;
