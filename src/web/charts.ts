import { Decimal } from 'decimal.js';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { Formatter } from './format.js';
import type { Texts } from './texts/index.js';

// The overview's charts: server-side SVG (Apache ECharts' SSR renderer), so they work without
// JavaScript. Money is never added across currencies: every money chart is one currency's, and
// amounts are summed with decimal.js. The bars are drawn from numbers (the picture only); the data
// table beside each chart carries the exact amounts (for screen readers and for reading).

export interface Money {
  currency_code: string | null;
  amount: string;
}

export interface ChartTable {
  columns: string[];
  rows: string[][];
}

export interface Chart {
  title: string;
  // Null for charts that are not money (agreements expiring).
  currency: string | null;
  svg: string;
  table: ChartTable;
}

// The request's language: the overview's words and its number formats. Everything drawn from it
// is part of the picture, so the drawn-chart cache below never serves one language's SVG to another.
export interface ChartLanguage {
  t: Texts['overview'];
  fmt: Formatter;
}

const NO_CURRENCY = '';
const currencyKey = (code: string | null) => code ?? NO_CURRENCY;
const currencyName = (key: string, t: Texts['overview']) => (key === NO_CURRENCY ? t.noCurrency : key);
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ---- Data: per currency, exact ----

export interface MonthFigures {
  // 'YYYY-MM'
  month: string;
  found: Money[];
  recovered: Money[];
}

export interface MonthSeries {
  currency: string;
  months: string[];
  found: string[];
  recovered: string[];
}

// One series pair per currency seen in any month; a month without that currency shows 0.
export function foundVsRecoveredByCurrency(months: MonthFigures[]): MonthSeries[] {
  const currencies = new Set<string>();
  for (const month of months)
    for (const entry of [...month.found, ...month.recovered]) currencies.add(currencyKey(entry.currency_code));
  const sumOf = (entries: Money[], currency: string) =>
    entries
      .filter((e) => currencyKey(e.currency_code) === currency)
      .reduce((sum, e) => sum.plus(e.amount), new Decimal(0))
      .toString();
  return [...currencies].sort(byKey).map((currency) => ({
    currency,
    months: months.map((m) => m.month),
    found: months.map((m) => sumOf(m.found, currency)),
    recovered: months.map((m) => sumOf(m.recovered, currency)),
  }));
}

export interface Group {
  label: string | null;
  impact: Money[];
}

export interface GroupBars {
  currency: string;
  bars: { label: string; amount: string }[];
}

// Each group's impact split by currency: one bar list per currency, largest first, at most `top`.
export function groupsByCurrency(groups: Group[], top: number, unnamed: string): GroupBars[] {
  const perCurrency = new Map<string, { label: string; amount: Decimal }[]>();
  for (const group of groups) {
    for (const entry of group.impact) {
      const key = currencyKey(entry.currency_code);
      const amount = new Decimal(entry.amount);
      if (amount.isZero()) continue;
      const bars = perCurrency.get(key) ?? [];
      bars.push({ label: group.label ?? unnamed, amount });
      perCurrency.set(key, bars);
    }
  }
  return [...perCurrency.keys()].sort(byKey).map((currency) => ({
    currency,
    bars: perCurrency
      .get(currency)!
      .sort((a, b) => b.amount.comparedTo(a.amount) || byKey(a.label, b.label))
      .slice(0, top)
      .map((bar) => ({ label: bar.label, amount: bar.amount.toString() })),
  }));
}

// ---- Pictures ----

// Only the parts these charts draw with. Each setOption walks every registered component and
// processor, so the full 'echarts' bundle (every chart type and component) costs CPU per chart for
// nothing; the SVG is the same (docs/benchmarks.md, bench:web).
echarts.use([BarChart, GridComponent, LegendComponent, SVGRenderer]);

// Drawn at a phone-friendly width; the SVG scales to its container (viewBox).
const WIDTH = 520;
const PALETTE = ['#0b5cad', '#1d6b35', '#8a4b00', '#6f42c1'];
const TEXT = '#1b1f24';
const FONT = { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', fontSize: 12, color: TEXT };

interface BarPicture {
  label: string;
  categories: string[];
  series: { name: string; values: string[] }[];
  // Horizontal bars: long names on the left (agreements, topics).
  horizontal?: boolean;
  // Counts and days: whole-number ticks (no 0.5 alerts).
  integers?: boolean;
  // The value axis's numbers in this locale's way (e.g. nb-NO: "1 000"); absent, ECharts' own
  // (English grouping).
  locale?: string;
}

// Axis ticks in the picture's locale: the tick is a number ECharts chose (the picture only; the
// data table holds the exact amounts). One formatter per locale, kept.
const tickFormats = new Map<string, Intl.NumberFormat>();
function tickFormatter(locale: string): (value: number) => string {
  let format = tickFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
    tickFormats.set(locale, format);
  }
  const chosen = format;
  return (value) => chosen.format(value);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const shorten = (text: string, max = 20) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// The overview draws about a dozen charts per request, each costing ECharts a full layout, and
// mostly the same ones as the request before (the data changes far less often than the page is
// opened). The SVG is a pure function of the picture, so the last pictures drawn are kept, keyed
// by their whole content (what the SVG shows, nothing else: the same for any organization).
const DRAWN_KEPT = 100;
const drawn = new Map<string, string>();

export function barChartSvg(picture: BarPicture): string {
  // The whole picture, so a field added to it later is part of the key without a change here.
  const key = JSON.stringify(picture);
  const kept = drawn.get(key);
  if (kept !== undefined) {
    // Most recently used last, so the oldest is the one dropped.
    drawn.delete(key);
    drawn.set(key, kept);
    return kept;
  }
  const svg = drawBarChart(picture);
  drawn.set(key, svg);
  if (drawn.size > DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
  return svg;
}

// ECharts SSR renders an SVG string; the instance is disposed at once (else it keeps the process
// alive). The SVG gets role="img", an aria-label and a <title>, and scales to its container.
function drawBarChart(picture: BarPicture): string {
  const height = picture.horizontal ? Math.max(160, 60 + picture.categories.length * 34) : 280;
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height });
  try {
    const categoryAxis = {
      type: 'category' as const,
      data: picture.categories.map((c) => shorten(c)),
      axisLabel: { ...FONT, interval: 0 },
      inverse: picture.horizontal,
    };
    const valueAxis = {
      type: 'value' as const,
      axisLabel: picture.locale ? { ...FONT, formatter: tickFormatter(picture.locale) } : FONT,
      minInterval: picture.integers ? 1 : undefined,
    };
    chart.setOption({
      animation: false,
      color: PALETTE,
      textStyle: FONT,
      legend: picture.series.length > 1 ? { top: 0, itemGap: 28, textStyle: FONT } : undefined,
      // The margins are kept as given: on the server ECharts estimates text widths without the
      // browser's font, and fitting labels by that estimate cut long names off on the left. The
      // left margin holds a shortened name (20 characters) in a wide browser font.
      grid: {
        left: picture.horizontal ? 184 : 56,
        right: 24,
        top: picture.series.length > 1 ? 36 : 16,
        bottom: 32,
        outerBoundsMode: 'none',
      },
      xAxis: picture.horizontal ? valueAxis : categoryAxis,
      yAxis: picture.horizontal ? categoryAxis : valueAxis,
      series: picture.series.map((s) => ({
        type: 'bar',
        name: s.name,
        data: s.values.map((v) => Number(v)),
        barMaxWidth: 28,
      })),
    });
    const svg = chart.renderToSVGString();
    const label = escapeXml(picture.label);
    return svg
      .replace(/^<svg /, `<svg role="img" aria-label="${label}" class="chart-svg" preserveAspectRatio="xMinYMin meet" `)
      .replace(/^(<svg[^>]*>)/, `$1<title>${label}</title>`);
  } finally {
    chart.dispose();
  }
}

// ---- The overview's charts ----

// English pictures keep ECharts' own axis numbers (as they were drawn before languages came).
const axisLocale = (fmt: Formatter) => (fmt.locale === 'en-GB' ? undefined : fmt.locale);

export function foundVsRecoveredCharts(months: MonthFigures[], { t, fmt }: ChartLanguage): Chart[] {
  return foundVsRecoveredByCurrency(months)
    .filter((s) => [...s.found, ...s.recovered].some((v) => !new Decimal(v).isZero()))
    .map((s) => {
      const currency = currencyName(s.currency, t);
      const title = `${t.foundVsRecovered} (${currency})`;
      const code = s.currency === NO_CURRENCY ? null : s.currency;
      return {
        title,
        currency,
        svg: barChartSvg({
          label: title,
          categories: s.months,
          series: [
            { name: t.found, values: s.found },
            { name: t.recovered, values: s.recovered },
          ],
          locale: axisLocale(fmt),
        }),
        table: {
          columns: [t.month, t.found, t.recovered],
          rows: s.months.map((month, i) => [month, fmt.money(s.found[i], code), fmt.money(s.recovered[i], code)]),
        },
      };
    });
}

export function groupCharts(
  title: string,
  groupColumn: string,
  groups: Group[],
  { t, fmt }: ChartLanguage,
  unnamed: string = t.uncategorized,
): Chart[] {
  return groupsByCurrency(groups, 10, unnamed).map((g) => {
    const currency = currencyName(g.currency, t);
    const label = `${title} (${currency})`;
    const code = g.currency === NO_CURRENCY ? null : g.currency;
    return {
      title: label,
      currency,
      svg: barChartSvg({
        label,
        categories: g.bars.map((b) => b.label),
        series: [{ name: t.openImpact, values: g.bars.map((b) => b.amount) }],
        horizontal: true,
        locale: axisLocale(fmt),
      }),
      table: {
        columns: [groupColumn, t.openImpact],
        rows: g.bars.map((b) => [b.label, fmt.money(b.amount, code)]),
      },
    };
  });
}

// Counts, not money (no currency): one bar per group, e.g. alerts by the check that found them.
export function countChart(
  title: string,
  groupColumn: string,
  countColumn: string,
  groups: { label: string; count: number }[],
  { fmt }: ChartLanguage,
): Chart | null {
  if (groups.length === 0) return null;
  return {
    title,
    currency: null,
    svg: barChartSvg({
      label: title,
      categories: groups.map((g) => g.label),
      series: [{ name: countColumn, values: groups.map((g) => String(g.count)) }],
      horizontal: true,
      integers: true,
      locale: axisLocale(fmt),
    }),
    table: { columns: [groupColumn, countColumn], rows: groups.map((g) => [g.label, String(g.count)]) },
  };
}

export interface ExpiringAgreement {
  title: string | null;
  expiration_date: string;
}

// Days from today (UTC) to each expiration date.
export function expiringChart(agreements: ExpiringAgreement[], today: Date, { t, fmt }: ChartLanguage): Chart | null {
  if (agreements.length === 0) return null;
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const titles = agreements.map((a) => a.title ?? t.untitledAgreement);
  const days = agreements.map((a) =>
    String(Math.round((Date.parse(`${a.expiration_date}T00:00:00Z`) - start) / 86_400_000)),
  );
  return {
    title: t.agreementsExpiring,
    currency: null,
    svg: barChartSvg({
      label: t.agreementsExpiring,
      categories: titles,
      series: [{ name: t.daysLeft, values: days }],
      horizontal: true,
      integers: true,
      locale: axisLocale(fmt),
    }),
    table: {
      columns: [t.agreement, t.expires, t.daysLeft],
      rows: agreements.map((a, i) => [titles[i]!, a.expiration_date, days[i]!]),
    },
  };
}

// The first days of the last `count` months (UTC), oldest first, and the first day after each.
export function lastMonths(today: Date, count: number): { month: string; from: string; before: string }[] {
  const months = [];
  for (let back = count - 1; back >= 0; back--) {
    const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1));
    const next = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
    months.push({ month: from.toISOString().slice(0, 7), from: from.toISOString(), before: next.toISOString() });
  }
  return months;
}

// ---- Spend by supplier (issue 28) ----

export interface CurrencySupplierSpend {
  currency_code: string;
  supplier_count: number;
  suppliers: { supplier_id: string | null; name: string | null; net: string; invoice_count: number }[];
  other_suppliers: { supplier_count: number; net: string };
}

// One chart per currency (getInvoiceSpendBySupplier ranks each currency on its own): the largest
// suppliers by net spend, and the rest as one bar so the bars still add up to the currency's spend.
export function supplierSpendCharts(currencies: CurrencySupplierSpend[], { t, fmt }: ChartLanguage): Chart[] {
  return currencies.map((c) => {
    const title = `${t.spendBySupplier} (${c.currency_code})`;
    const bars = c.suppliers.map((s) => ({
      label: s.name ?? t.unknownSupplier,
      net: s.net,
      invoices: String(s.invoice_count),
    }));
    if (c.other_suppliers.supplier_count > 0)
      bars.push({
        label: t.otherSuppliers(c.other_suppliers.supplier_count),
        net: c.other_suppliers.net,
        invoices: '',
      });
    return {
      title,
      currency: c.currency_code,
      svg: barChartSvg({
        label: title,
        categories: bars.map((b) => b.label),
        series: [{ name: t.netSpend, values: bars.map((b) => b.net) }],
        horizontal: true,
        locale: axisLocale(fmt),
      }),
      table: {
        columns: [t.supplier, t.netSpend, t.invoiceCount],
        rows: bars.map((b) => [b.label, fmt.money(b.net, c.currency_code), b.invoices]),
      },
    };
  });
}
