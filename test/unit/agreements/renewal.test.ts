import { describe, expect, it } from 'vitest';
import { addMonths, extended, renewalActionOf, RenewalError } from '../../../src/agreements/renewal.js';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const iso = (date: Date | null) => date?.toISOString().slice(0, 10) ?? null;

describe('renewal', () => {
  it('asks to cancel an auto-renewing agreement by expiration minus notice', () => {
    const action = renewalActionOf({
      expirationDate: day('2026-12-31'),
      autoRenews: true,
      renewalPeriodMonths: 12,
      noticePeriodDays: 90,
    });
    expect(action.kind).toBe('cancel_by');
    expect(iso(action.deadline)).toBe('2026-10-02');
  });

  it('asks to renew an agreement that does not renew itself', () => {
    const action = renewalActionOf({
      expirationDate: day('2026-06-30'),
      autoRenews: false,
      renewalPeriodMonths: null,
      noticePeriodDays: null,
    });
    expect(action).toEqual({ kind: 'renew_by', deadline: day('2026-06-30') });
  });

  it('has nothing due without an expiration date', () => {
    expect(
      renewalActionOf({ expirationDate: null, autoRenews: true, renewalPeriodMonths: 12, noticePeriodDays: 30 }),
    ).toEqual({ kind: null, deadline: null });
  });

  it('extends by whole calendar months, clamped to the month end', () => {
    expect(iso(addMonths(day('2026-01-31'), 1))).toBe('2026-02-28');
    expect(iso(addMonths(day('2027-12-31'), 2))).toBe('2028-02-29');
    expect(
      iso(
        extended({
          expirationDate: day('2026-12-31'),
          autoRenews: false,
          renewalPeriodMonths: 12,
          noticePeriodDays: null,
        }),
      ),
    ).toBe('2027-12-31');
    expect(() =>
      extended({
        expirationDate: day('2026-12-31'),
        autoRenews: false,
        renewalPeriodMonths: null,
        noticePeriodDays: null,
      }),
    ).toThrow(RenewalError);
  });
});
