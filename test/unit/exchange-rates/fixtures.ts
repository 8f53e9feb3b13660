import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixturesRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/exchange-rates');

export function fixture(name: string): string {
  return readFileSync(path.join(fixturesRoot, name), 'utf8');
}
