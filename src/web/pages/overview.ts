import { z } from 'zod';
import {
  countChart,
  expiringChart,
  foundVsRecoveredCharts,
  groupCharts,
  lastMonths,
  supplierSpendCharts,
  type Chart,
  type ChartLanguage,
  type Money,
} from '../charts.js';
import { definePage } from '../page.js';
import { formatterFor } from '../format.js';
import { codeLabel } from '../labels.js';
import { requestLocale } from '../texts/index.js';

// The home page (/app): the API's overview (GET /v1/overview: spend, open alerts, claims,
// agreements, next steps) and charts drawn on the server from the API's own reads: alert and claim
// metrics per month (found vs recovered), invoice spend per supplier, open alerts grouped by
// agreement and by topic, and the overview's agreements expiring soonest. Every money chart is one
// currency's.

// Months in the found-vs-recovered chart (this month and the ones before it).
const MONTHS = 6;
const GROUPS = '10';
// Suppliers per currency in the spend chart; the rest is one bar.
const SUPPLIERS = '8';

// An API link of a next step (`/v1/invoices?check_statuses=…`) as the application's page.
export function appLink(apiLink: string): string {
  return apiLink.startsWith('/v1/') ? `/app/${apiLink.slice('/v1/'.length)}` : apiLink;
}

export const overviewPages = [
  definePage({
    path: '',
    nav: 'overview',
    title: (t) => t.overview.title,
    view: 'overview',
    query: z.object({}).passthrough(),
    load: async ({ call, ctx, t: words }) => {
      const t = words.overview;
      const language: ChartLanguage = { t, fmt: formatterFor(requestLocale(ctx)) };
      const today = new Date();
      const months = lastMonths(today, MONTHS);
      const [overview, bySupplier, byAgreement, byTopic, byChecker, found, refunds] = await Promise.all([
        call('getOverview'),
        call('getInvoiceSpendBySupplier', { query: { limit: SUPPLIERS } }),
        call('getAlertGroups', {
          query: { group_by: 'agreement', statuses: 'pending', limit: GROUPS },
        }),
        call('getAlertGroups', { query: { group_by: 'topic', statuses: 'pending', limit: GROUPS } }),
        // Every alert found, whatever became of it: what the checks find most.
        call('getAlertGroups', { query: { group_by: 'checker', limit: GROUPS } }),
        // Found: the impact of the alerts recorded in the month (whatever became of them since).
        Promise.all(
          months.map((m) => call('getAlertMetrics', { query: { created_from: m.from, created_before: m.before } })),
        ),
        // Recovered: the refunds dated in the month, of claims in any status.
        call('getClaimRefundsByMonth', {
          query: { refunded_from: months[0]!.from.slice(0, 10), refunded_through: dayBefore(months.at(-1)!.before) },
        }),
      ]);
      const recovered = new Map(refunds.months.map((m) => [m.month, m.refunds]));
      const perMonth = months.map((m, i) => ({
        month: m.month,
        found: found[i]!.impact.map((r): Money => ({
          currency_code: r.currency_code,
          amount: r.total,
        })),
        recovered: recovered.get(m.month) ?? [],
      }));
      const byCheck = countChart(
        t.alertsByCheck,
        t.check,
        t.alertCount,
        byChecker.data.map((g) => ({
          label: g.key === null ? t.addedByPeople : codeLabel(g.key, words.codes),
          count: g.count,
        })),
        language,
      );
      const expiring = expiringChart(overview.agreements.expiring_soon.soonest, today, language);
      const sections: { id: string; heading: string; charts: Chart[] }[] = [
        { id: 'found-vs-recovered', heading: t.foundVsRecovered, charts: foundVsRecoveredCharts(perMonth, language) },
        {
          id: 'spend-by-supplier',
          heading: t.spendBySupplier,
          charts: supplierSpendCharts(bySupplier.currencies, language),
        },
        {
          id: 'impact-by-agreement',
          heading: t.impactByAgreement,
          charts: groupCharts(t.impactByAgreement, t.agreement, byAgreement.data, language, t.noAgreement),
        },
        {
          id: 'impact-by-topic',
          heading: t.impactByTopic,
          charts: groupCharts(t.impactByTopic, t.topic, byTopic.data, language),
        },
        { id: 'alerts-by-check', heading: t.alertsByCheck, charts: byCheck ? [byCheck] : [] },
        { id: 'agreements-expiring', heading: t.agreementsExpiring, charts: expiring ? [expiring] : [] },
      ];
      const nextSteps = overview.next_steps.map((step) => ({ ...step, href: appLink(step.link) }));
      return { overview, sections, nextSteps, t };
    },
  }),
];

function dayBefore(isoTimestamp: string): string {
  return new Date(Date.parse(isoTimestamp) - 86_400_000).toISOString().slice(0, 10);
}
