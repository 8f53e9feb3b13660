// A module that takes 1.5 s to load (as a parser's module tree does in a new helper on a loaded
// machine), for isolated.test.ts.
await new Promise((resolve) => setTimeout(resolve, 1_500));

export function quick(): string {
  return 'quick';
}
