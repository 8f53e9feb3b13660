import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The projects of one group share its workers, and the group lasts as long as its last file: so
// the longest files start first, whatever their project, and short unit files fill the workers
// at the end. Vitest's own order runs one project's files, then the next one's, and without the
// durations of an earlier run (a clean clone, CI) orders by file size only.

// Without recorded durations: files that wait on a real stack first, then the larger file.
const KIND_RANK: Record<string, number> = { crash: 3, integration: 2, browser: 1, unit: 0 };

// Files that outlast all others by far (docs/testing.md, "How the suite is laid out"): first in any case.
const LONGEST = new Set(['test/integration/api-fuzz.test.ts']);

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const describe = (spec: TestSpecification) => {
      const file = spec.moduleId.slice(config.root.length + 1);
      const key = `${spec.project.name}:${file}`;
      return {
        spec,
        group: spec.project.config.sequence.groupOrder,
        longest: LONGEST.has(file),
        duration: cache.getFileTestResults(key)?.duration,
        rank: KIND_RANK[spec.project.name] ?? 0,
        size: cache.getFileStats(key)?.size ?? 0,
      };
    };
    return files
      .map(describe)
      .sort((a, b) => {
        if (a.group !== b.group) return a.group - b.group;
        if (a.longest !== b.longest) return a.longest ? -1 : 1;
        if (a.duration !== undefined && b.duration !== undefined) return b.duration - a.duration;
        if (a.rank !== b.rank) return b.rank - a.rank;
        return b.size - a.size;
      })
      .map(({ spec }) => spec);
  }
}
