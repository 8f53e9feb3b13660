import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order of the files in each group of projects (docs/testing.md, "How the suite is laid out").
//
// The files that take longest start first, in the order listed (longest first, as measured in
// full runs: docs/benchmarks.md): with every worker busy, a long file started last runs on alone.
// Without a record of earlier runs (a clean clone, CI) vitest starts the largest files first;
// large-selections.test.ts is short but seeds 66,000 invoices and 72,600 alerts, and started last
// it ran on alone for minutes after the other workers had finished. In a clean clone's run,
// large-invoices and admin-cli, not listed then, started in the last minute and were its tail.
//
// The rest of a group's files take turns by folder (test/integration, test/browser, test/crash),
// each in proportion to its number of files: the browser files (chromium, one page after another)
// run beside integration files (mostly waiting on the stack's workflows), so the cores stay busy.
// One folder after another left a core half idle through each.
const LONGEST = [
  // unit
  'test/unit/security/linear-time.test.ts',
  'test/unit/security/regex-safety.test.ts',
  'test/unit/shared/isolated.test.ts',
  'test/unit/agreements/documents/extraction/hostile.test.ts',
  'test/unit/claims/export/render-pdf.test.ts',
  // integration and crash (crash-recovery waits for scale-out's hold on the crash stack, so it is
  // left to the middle of the sequence)
  'test/crash/start-sigterm.test.ts',
  'test/crash/scale-out.test.ts',
  'test/integration/integrations.test.ts',
  'test/integration/transaction-conflicts.test.ts',
  'test/integration/large-selections.test.ts',
  'test/integration/large-invoices.test.ts',
  'test/browser/finance-fixes.test.ts',
  'test/integration/notifications.test.ts',
  'test/integration/scanned-invoices.test.ts',
  'test/browser/pages.test.ts',
  'test/browser/whole-job.test.ts',
  'test/integration/api-fuzz.test.ts',
  'test/integration/notification-channels.test.ts',
  'test/integration/admin-cli.test.ts',
];

const rank = (file: TestSpecification) => {
  const index = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
  return index === -1 ? LONGEST.length : index;
};

const folderOf = (file: TestSpecification) => /\/test\/([^/]+)\//.exec(file.moduleId)?.[1] ?? '';

// Each folder's files spread evenly over the sequence: the k-th of a folder's n files goes at
// position (k + 0.5) / n of the way.
function interleaveByFolder(files: TestSpecification[]): TestSpecification[] {
  const folders = [...new Set(files.map(folderOf))];
  const placed = folders.flatMap((folder) => {
    const inFolder = files.filter((file) => folderOf(file) === folder);
    return inFolder.map((file, k) => ({ file, at: (k + 0.5) / inFolder.length }));
  });
  return placed.sort((a, b) => a.at - b.at).map(({ file }) => file);
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const longest = sorted.filter((file) => rank(file) < LONGEST.length).sort((a, b) => rank(a) - rank(b));
    return [...longest, ...interleaveByFolder(sorted.filter((file) => rank(file) === LONGEST.length))];
  }
}
