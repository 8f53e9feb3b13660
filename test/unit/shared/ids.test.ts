import { describe, expect, it } from 'vitest';
import { orderedUuids } from '../../../src/shared/ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('orderedUuids', () => {
  it('gives version 7 UUIDs that increase in the order given, unique across calls', () => {
    const first = orderedUuids(70_000);
    const second = orderedUuids(10);
    expect(first.every((id) => UUID_V7.test(id))).toBe(true);
    expect(first.every((id, index) => index === 0 || first[index - 1]! < id)).toBe(true);
    expect(new Set([...first, ...second]).size).toBe(70_010);
    expect(orderedUuids(0)).toEqual([]);
  });

  it('starts with the time in milliseconds, so later calls sort after earlier ones', () => {
    const [id] = orderedUuids(1);
    const millis = Number.parseInt(id!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(millis - Date.now())).toBeLessThan(5_000);
  });
});
