// Runs (background work): the list, one run with its progress and actions, and its items.
export const runs = {
  title: 'Runs',
  run: 'Run',
  // A run's kind as its name ("price import run").
  runTitle: (kind: string) => `${kind} run`,
  cancelled: 'The run is cancelled.',
  retried: 'The run is retried.',

  // The list.
  filterLabel: 'Filter runs',
  status: 'Status',
  any: 'Any',
  kind: 'Kind',
  filter: 'Filter',
  clear: 'Clear',
  noRuns: (filtered: boolean) => `No runs${filtered ? ' match these filters' : ' yet'}.`,
  progress: 'Progress',
  for: 'For',
  started: 'Started',
  finished: 'Finished',
  // "12 of 40, 2 failed" (the total is null while the run still finds its items).
  progressShort: (done: number, total: number | null, failed: number) =>
    `${done} of ${total === null ? '…' : total}${failed ? `, ${failed} failed` : ''}`,
  pages: 'Pages',

  // One run.
  items: 'Items',
  filterItems: 'Filter items',
  itemStatus: 'Item status',
  itemsFinished: 'Items finished',
  doneOf: (done: number, total: number) => `${done} of ${total}`,
  progressSentence: (p: {
    done: number;
    total: number | null;
    completed: number;
    failed: number;
    cancelled: number;
    running: number;
    queued: number;
  }) =>
    `${p.done} of ${p.total === null ? 'a number still being found' : p.total} items finished: ${p.completed} completed, ${p.failed} failed, ${p.cancelled} cancelled; ${p.running} running, ${p.queued} queued.`,
  created: 'Created',
  attempt: 'Attempt',
  retryOf: 'Retry of',
  earlierRun: 'an earlier run',
  runId: 'Run id',
  openTemporal: 'Open in Temporal UI',
  newTab: ' (opens in a new tab)',
  cancel: 'Cancel the run',
  retry: 'Retry the run',

  // Its items.
  noItems: (filtered: boolean) => `No items${filtered ? ' with this status' : ''}.`,
  itemsCaption: 'Items of the run',
  item: 'Item',
  record: 'Record',
  result: 'Result',
  itemPages: 'Item pages',
  firstItems: 'First items',
  moreItems: 'More items',
};
