// The frame around every page: header, navigation, error pages and the partials lists share.
export const shell = {
  brand: 'Invoice Compliance',
  skipLink: 'Skip to content',
  // The header's sections (src/web/render.ts, NAV), by id.
  nav: {
    overview: 'Overview',
    invoices: 'Invoices',
    review: 'Review',
    agreements: 'Agreements',
    alerts: 'Alerts',
    claims: 'Claims',
    runs: 'Runs',
    integrations: 'Integrations',
    teams: 'Teams',
    settings: 'Settings',
  },
  navLabel: 'Main',
  searchLabel: 'Search everything',
  searchPlaceholder: 'Invoice, agreement, alert, claim…',
  searchButton: 'Search',
  organization: 'Organization',
  switchOrganization: 'Switch',
  myTeamsPart: "My teams' part",
  showEverything: 'Show everything',
  everything: 'Everything',
  showMyTeamsPart: "Show my teams' part",
  signOut: 'Sign out',
  // The error page (src/web/page.ts, renderFailure).
  errorTitles: {
    notFound: 'Not found',
    notAllowed: 'Not allowed',
    failed: 'Something went wrong',
    refused: 'This did not work',
  },
  errorStatus: (status: number) => `Status ${status}`,
  requestId: 'request id',
  backToInvoices: 'Back to invoices',
  // An action's refusal shown on its page (views/refusal.eta).
  refused: 'This did not work.',
  // Paging and sorting of the lists (views/pager.eta, sort-fields.eta, sort-th.eta).
  firstPage: 'First page',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  sortBy: 'Sort by',
  order: 'Order',
  descending: 'Descending',
  ascending: 'Ascending',
  // A sortable column's tooltip: what a click does.
  sortAction: (label: string, direction: 'asc' | 'desc') =>
    `Sort by ${label.toLowerCase()}, ${direction === 'asc' ? 'ascending' : 'descending'}`,
  // The list filters' pickers (src/web/pickers.ts).
  picker: {
    supplier: { one: 'supplier', many: 'suppliers' },
    agreement: { one: 'agreement', many: 'agreements' },
    chosen: (count: number, many: string) => `${count} ${many} chosen.`,
    noneContains: (one: string, text: string) => `No ${one} has a name containing “${text}”.`,
    firstContaining: (count: number, many: string, text: string) =>
      `The first ${count} ${many} whose name contains “${text}”; type more of the name to narrow it.`,
    containing: (count: number, word: string, text: string) => `${count} ${word} whose name contains “${text}”.`,
  },
  // A secret shown once (views/secret-created.eta).
  copyNow: 'Copy it now: it is not shown again.',
  copy: 'Copy',
  backToSettings: 'Back to settings',
};
