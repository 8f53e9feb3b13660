// The words of the overview and search pages, in one place so a second language (Norwegian) can
// be added beside English without touching the pages or views: add `no` with the same keys and
// choose by the organization's or user's language once one is recorded.

const en = {
  overview: {
    title: 'Overview',
    spend: 'Spend',
    openAlerts: 'Open alerts',
    claims: 'Claims',
    agreements: 'Agreements',
    nextSteps: 'Suggested next steps',
    noNextSteps: 'Nothing waits for you.',
    charts: 'Charts',
    noCurrency: 'no currency',
    uncategorized: 'Uncategorized',
    noAgreement: 'No agreement',
    foundVsRecovered: 'Overcharges found vs recovered per month',
    found: 'Found',
    recovered: 'Recovered',
    month: 'Month',
    openImpact: 'Open impact',
    impactByAgreement: 'Open impact by agreement',
    impactByTopic: 'Open impact by topic',
    agreementsExpiring: 'Agreements expiring in the next 90 days',
    agreement: 'Agreement',
    untitledAgreement: 'Untitled agreement',
    topic: 'Topic',
    expires: 'Expires',
    daysLeft: 'Days left',
    dataTable: 'Data table',
    noData: 'No data yet.',
    recent: 'last 7 days',
  },
  search: {
    title: 'Search',
    label: 'Search',
    placeholder: 'Invoice, agreement, alert, claim…',
    submit: 'Search',
    resultsFor: 'Results for',
    none: 'Nothing found.',
    more: 'More results',
    kinds: {
      invoice: 'Invoices',
      agreement: 'Agreements',
      alert: 'Alerts',
      claim: 'Claims',
      topic: 'Topics',
    } as Record<string, string>,
  },
};

export type Texts = typeof en;
export const texts: Texts = en;
