// Quantity tiers written in one price cell: "1-99: 10.00, 100+: 9.50", "1–49 12,00 / 50+ 11,00",
// "from 100: 9.50". The price item has one amount and no quantity range (an amount or a rate, as
// the contract's price model has it), so each tier becomes a price item of its own with the same
// description, article number and unit; the tier is kept in the row's cells for the download.

export interface PriceTier {
  /** As written: "1-99", "100+". */
  range: string;
  /** The tier's price text as written: "10.00". */
  price: string;
}

// A tier's quantity range, at the start of the text or after a separator: "1-99", "1 – 99",
// "100+", ">= 100", "≥100", "from 100" (and the same in our languages), followed by ":" or "=".
// Read from text whose white space is one space each, so no run of spaces can be split two ways.
const RANGE =
  /(?:^|[ ,;/|])((?:\d+ ?[-–—] ?\d+)|(?:\d+ ?\+)|(?:(?:>=|≥|>|from|fra|från|ab|vanaf|à partir de|dès|alkaen) ?\d+)) ?(?:pcs|stk|st|kpl|pce|pc)?\.? ?[:=]/giu;

const MAX_TIERS = 20;

/** The tiers of a price cell; null unless it holds at least two of them, each with a price. */
export function readTiers(written: string): PriceTier[] | null {
  const text = written.replace(/\s+/gu, ' ');
  const starts = [...text.matchAll(RANGE)].slice(0, MAX_TIERS + 1);
  if (starts.length < 2 || starts.length > MAX_TIERS) return null;
  // Nothing but whitespace may come before the first tier.
  if (text.slice(0, starts[0]!.index).trim() !== '') return null;
  const tiers: PriceTier[] = [];
  for (const [position, match] of starts.entries()) {
    const priceStart = match.index + match[0].length;
    const priceEnd = starts[position + 1]?.index ?? text.length;
    const price = text
      .slice(priceStart, priceEnd)
      .trim()
      .replace(/[,;/|]$/u, '')
      .trim();
    if (price === '') return null;
    tiers.push({ range: match[1]!.replace(/\s+/gu, ' ').trim(), price });
  }
  return tiers;
}
