import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RateFileError } from '../../../src/exchange-rates/index.js';

const fixturesRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/exchange-rates');

export function fixture(name: string): string {
  return readFileSync(path.join(fixturesRoot, name), 'utf8');
}

/** The RateFileError `run` throws (fails the test when it throws nothing or something else). */
export function errorOf(run: () => unknown): RateFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof RateFileError) return error;
    throw error;
  }
  throw new Error('expected a RateFileError');
}
