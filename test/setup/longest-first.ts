import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The unit and integration files that take longest, started first in their project
// (docs/testing.md, "How the suite is laid out"): with two workers, a long file started last runs
// on alone. Without a record of earlier runs (a clean clone, CI) vitest starts the largest files
// first; large-selections.test.ts is short but seeds 66,000 invoices and 72,600
// alerts, and started last it ran on alone for minutes after the other worker had finished: the
// integration project took 482 s with it last and 294-319 s with it first or in the middle. With
// a record, vitest already starts the longest first and this changes nothing.
const LONGEST = [
  'test/unit/security/linear-time.test.ts',
  'test/unit/agreements/documents/extraction/hostile.test.ts',
  'test/unit/claims/export/render-pdf.test.ts',
  'test/integration/large-selections.test.ts',
  'test/integration/integrations.test.ts',
  'test/integration/transaction-conflicts.test.ts',
];

const isLongest = (file: TestSpecification) => LONGEST.some((name) => file.moduleId.endsWith(name));

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Within each project, in the order the projects come: the longest files, then the rest.
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    return projects.flatMap((project) => {
      const ofProject = sorted.filter((file) => file.project.name === project);
      return [...ofProject.filter(isLongest), ...ofProject.filter((file) => !isLongest(file))];
    });
  }
}
