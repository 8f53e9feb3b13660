import { describe, expect, it } from 'vitest';
import {
  barChartSvg,
  expiringChart,
  foundVsRecoveredByCurrency,
  foundVsRecoveredCharts,
  groupCharts,
  groupsByCurrency,
  lastMonths,
} from '../../../src/web/charts.js';
import { formatterFor } from '../../../src/web/format.js';
import { appLink } from '../../../src/web/pages/overview.js';
import { groupResults, resultHref } from '../../../src/web/pages/search.js';
import { textsFor } from '../../../src/web/texts/index.js';

const english = { t: textsFor('en').overview, fmt: formatterFor('en') };
const norwegian = { t: textsFor('nb').overview, fmt: formatterFor('nb') };

// The overview's charts: one chart per currency (never a sum across currencies), exact amounts in
// the data tables, accessible SVG.

describe('found vs recovered per month', () => {
  const months = [
    {
      month: '2026-10',
      found: [
        { currency_code: 'EUR', amount: '10.10' },
        { currency_code: 'NOK', amount: '100' },
      ],
      recovered: [{ currency_code: 'EUR', amount: '0.20' }],
    },
    {
      month: '2026-11',
      found: [
        { currency_code: 'EUR', amount: '0.1' },
        { currency_code: 'EUR', amount: '0.2' },
      ],
      recovered: [{ currency_code: 'NOK', amount: '50.005' }],
    },
  ];

  it('keeps one series pair per currency, summed exactly, with zeros for months without it', () => {
    expect(foundVsRecoveredByCurrency(months)).toEqual([
      { currency: 'EUR', months: ['2026-10', '2026-11'], found: ['10.1', '0.3'], recovered: ['0.2', '0'] },
      { currency: 'NOK', months: ['2026-10', '2026-11'], found: ['100', '0'], recovered: ['0', '50.005'] },
    ]);
  });

  it('draws one chart per currency with its exact data table', () => {
    const charts = foundVsRecoveredCharts(months, english);
    expect(charts.map((c) => c.currency)).toEqual(['EUR', 'NOK']);
    expect(charts[0]!.table.rows).toEqual([
      ['2026-10', '€10.10', '€0.20'],
      ['2026-11', '€0.30', '€0.00'],
    ]);
    expect(charts[1]!.table.rows[1]![2]).toContain('50.005');
    expect(charts[0]!.svg).toMatch(/^<svg role="img" aria-label="Overcharges found vs recovered per month \(EUR\)"/);
    expect(charts[0]!.svg).toContain('<title>Overcharges found vs recovered per month (EUR)</title>');
  });

  it('draws nothing for currencies with only zeros', () => {
    expect(
      foundVsRecoveredCharts(
        [{ month: '2026-11', found: [{ currency_code: 'EUR', amount: '0.00' }], recovered: [] }],
        english,
      ),
    ).toEqual([]);
  });
});

describe('open impact by group', () => {
  const groups = [
    {
      label: 'Cleaning',
      impact: [
        { currency_code: 'EUR', amount: '5.00' },
        { currency_code: 'SEK', amount: '70' },
      ],
    },
    { label: 'Office', impact: [{ currency_code: 'EUR', amount: '12.50' }] },
    {
      label: null,
      impact: [
        { currency_code: null, amount: '3' },
        { currency_code: 'EUR', amount: '0' },
      ],
    },
  ];

  it('splits each group by currency, largest first, never adding EUR to SEK', () => {
    expect(groupsByCurrency(groups, 10, 'Uncategorized')).toEqual([
      { currency: '', bars: [{ label: 'Uncategorized', amount: '3' }] },
      {
        currency: 'EUR',
        bars: [
          { label: 'Office', amount: '12.5' },
          { label: 'Cleaning', amount: '5' },
        ],
      },
      { currency: 'SEK', bars: [{ label: 'Cleaning', amount: '70' }] },
    ]);
  });

  it('keeps the top groups of each currency', () => {
    const many = Array.from({ length: 15 }, (_, i) => ({
      label: `A${i}`,
      impact: [{ currency_code: 'EUR', amount: String(i + 1) }],
    }));
    const [eur] = groupsByCurrency(many, 10, 'Uncategorized');
    expect(eur!.bars).toHaveLength(10);
    expect(eur!.bars[0]).toEqual({ label: 'A14', amount: '15' });
  });

  it('charts name their currency and carry the exact amounts', () => {
    const charts = groupCharts('Open impact by agreement', 'Agreement', groups, english);
    expect(charts.map((c) => c.title)).toEqual([
      'Open impact by agreement (no currency)',
      'Open impact by agreement (EUR)',
      'Open impact by agreement (SEK)',
    ]);
    expect(charts[1]!.table).toEqual({
      columns: ['Agreement', 'Open impact'],
      rows: [
        ['Office', '€12.50'],
        ['Cleaning', '€5.00'],
      ],
    });
  });
});

describe('helpers', () => {
  it('counts days to each expiration date', () => {
    const chart = expiringChart(
      [{ title: 'Cleaning', expiration_date: '2026-12-07' }],
      new Date('2026-11-27T10:00:00Z'),
      english,
    );
    expect(chart!.table.rows).toEqual([['Cleaning', '2026-12-07', '10']]);
    expect(expiringChart([], new Date(), english)).toBeNull();
  });

  it('lists the last months with their bounds', () => {
    expect(lastMonths(new Date('2026-01-15T00:00:00Z'), 2)).toEqual([
      { month: '2025-12', from: '2025-12-01T00:00:00.000Z', before: '2026-01-01T00:00:00.000Z' },
      { month: '2026-01', from: '2026-01-01T00:00:00.000Z', before: '2026-02-01T00:00:00.000Z' },
    ]);
  });

  it('escapes names in the SVG label', () => {
    const svg = barChartSvg({ label: 'A <b> & "c"', categories: ['x'], series: [{ name: 's', values: ['1'] }] });
    expect(svg).toContain('aria-label="A &lt;b&gt; &amp; &quot;c&quot;"');
    expect(svg).not.toContain('<b>');
  });

  it('draws a chart again when anything it shows changes, and the same picture the same', () => {
    const picture = { label: 'Impact (EUR)', categories: ['A', 'B'], series: [{ name: 'Open', values: ['10', '5'] }] };
    const first = barChartSvg(picture);
    expect(barChartSvg({ ...picture, categories: ['A', 'B'] })).toBe(first);
    const changed = barChartSvg({ ...picture, series: [{ name: 'Open', values: ['10', '7'] }] });
    expect(changed).not.toBe(first);
    expect(changed).toContain('aria-label="Impact (EUR)"');
    expect(barChartSvg({ ...picture, horizontal: true })).not.toBe(first);
    expect(barChartSvg({ ...picture, label: 'Impact (NOK)' })).toContain('aria-label="Impact (NOK)"');
  });

  it('links next steps and search results to the application', () => {
    expect(appLink('/v1/alerts?statuses=pending')).toBe('/app/alerts?statuses=pending');
    expect(resultHref({ type: 'claim', id: 'c1' })).toBe('/app/claims/c1');
    const results = [
      { type: 'alert', id: 'a', title: 'A', matched_field: 'title', matched_text: 'A', match: 'exact', url: '' },
      {
        type: 'invoice',
        id: 'i',
        title: 'I',
        matched_field: 'invoice_number',
        matched_text: 'I',
        match: 'exact',
        url: '',
      },
    ];
    expect(groupResults(results, textsFor('en').search).map((g) => g.label)).toEqual(['Invoices', 'Alerts']);
    expect(groupResults(results, textsFor('nb').search).map((g) => g.label)).toEqual(['Fakturaer', 'Varsler']);
  });

  it('draws the Norwegian charts in Norwegian words and numbers, cached apart from the English ones', () => {
    const months = [{ month: '2026-11', found: [{ currency_code: 'NOK', amount: '1234.5' }], recovered: [] }];
    const [english_] = foundVsRecoveredCharts(months, english);
    const [norsk] = foundVsRecoveredCharts(months, norwegian);
    expect(english_!.table).toEqual({
      columns: ['Month', 'Found', 'Recovered'],
      rows: [['2026-11', 'NOK\u00a01,234.50', 'NOK\u00a00.00']],
    });
    expect(norsk!.table).toEqual({
      columns: ['Måned', 'Funnet', 'Tilbakebetalt'],
      rows: [['2026-11', '1\u00a0234,50\u00a0kr', '0,00\u00a0kr']],
    });
    expect(norsk!.title).toBe('Overfakturering funnet og tilbakebetalt per måned (NOK)');
    expect(norsk!.svg).toContain('<title>Overfakturering funnet og tilbakebetalt per måned (NOK)</title>');
    expect(norsk!.svg).not.toBe(english_!.svg);
    // The same words and numbers in another locale are another picture: the cache keeps them apart.
    const picture = { label: 'x', categories: ['a'], series: [{ name: 's', values: ['2500'] }] };
    expect(barChartSvg(picture)).toContain('2,500');
    expect(barChartSvg({ ...picture, locale: 'nb-NO' })).toContain('2\u00a0500');
    expect(barChartSvg(picture)).toContain('2,500');
  });
});
