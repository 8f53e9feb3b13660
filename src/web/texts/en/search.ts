export const search = {
  title: 'Search',
  label: 'Search',
  placeholder: 'Invoice, agreement, alert, claim…',
  submit: 'Search',
  resultsFor: 'Results for',
  resultsForQuery: (text: string) => `Results for “${text}”`,
  none: 'Nothing found.',
  more: 'More results',
  kinds: {
    invoice: 'Invoices',
    agreement: 'Agreements',
    alert: 'Alerts',
    claim: 'Claims',
    topic: 'Topics',
  } as Record<string, string>,
};
