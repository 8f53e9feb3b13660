import { describe, expect, it } from 'vitest';
import { scanMentions } from '../../../src/activity/mentions.js';
import { bodyLimitOf, MAX_JSON_BODY_BYTES } from '../../../src/http/body-limit.js';
import { supportRoutes } from '../../../src/support/routes.js';
import { allRoutes } from '../../../src/routes.js';

const A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('comment mentions', () => {
  it('finds @[user-id] mentions in order of first mention, each once, lower-cased', () => {
    expect(scanMentions(`Hi @[${B}] and @[${A.toUpperCase()}], again @[${B}]`)).toEqual([B, A]);
  });

  it('leaves anything else as text: wrong length, missing bracket, not hex, nested opener', () => {
    expect(
      scanMentions(`@[${A.slice(0, 35)}] @[${A}x] @[${A} @[zzzzzzzz-d9cb-469f-a165-70867728950e] @[@[${A}]`),
    ).toEqual([A]);
    expect(scanMentions('@[]')).toEqual([]);
    expect(scanMentions('')).toEqual([]);
  });

  it('scans a 10,000-character body of openers in linear time', () => {
    const started = performance.now();
    expect(scanMentions('@['.repeat(5_000))).toEqual([]);
    expect(scanMentions('@[0'.repeat(3_333))).toEqual([]);
    // Generous: a quadratic scan of this body would still pass a strict timing, so this only
    // guards against something far worse; the algorithm (one indexOf pass) is the real guarantee.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('body limits by route', () => {
  it('gives the support contact route its declared 32 MiB and every other route 2 MiB', () => {
    const limitOf = bodyLimitOf(allRoutes);
    expect(limitOf('POST', '/v1/support/contact')).toBe(supportRoutes[0]!.maxBodyBytes);
    expect(limitOf('POST', '/v1/support/contact')).toBe(32 * 1024 * 1024);
    expect(limitOf('GET', '/v1/support/contact')).toBe(MAX_JSON_BODY_BYTES);
    expect(limitOf('POST', '/v1/comments')).toBe(MAX_JSON_BODY_BYTES);
    expect(limitOf('POST', '/v1/support/contact/extra')).toBe(MAX_JSON_BODY_BYTES);
  });
});
