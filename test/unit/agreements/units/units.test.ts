import { describe, expect, it } from 'vitest';
import { foldText } from '../../../../src/agreements/price-lists/normalize.js';
import { canonicalUnit, compareUnits, readUnit, UNIT_TABLE } from '../../../../src/agreements/units/index.js';

describe('the unit table', () => {
  it('gives every word, symbol and name one code only, and every code once', () => {
    const codes = UNIT_TABLE.map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const entry of UNIT_TABLE) {
      const keys = [
        entry.code,
        entry.name,
        ...(entry.symbol ? [entry.symbol] : []),
        ...Object.values(entry.words).flat(),
      ];
      for (const key of new Set(keys.map((k) => foldText(k).replace(/ /g, '')))) {
        const other = owner.get(key);
        if (other !== undefined && other !== entry.code) clashes.push(`${key}: ${other} and ${entry.code}`);
        owner.set(key, entry.code);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('has words in each of the eight languages for the units price lists use most', () => {
    for (const code of ['H87', 'PK', 'PR', 'RO', 'HUR', 'DAY', 'MON']) {
      const entry = UNIT_TABLE.find((e) => e.code === code)!;
      expect(Object.keys(entry.words).sort(), code).toEqual(['da', 'de', 'en', 'fi', 'fr', 'nl', 'no', 'sv']);
    }
  });
});

describe('reading a unit', () => {
  it('reads codes, symbols and names with certainty and words as a mapping', () => {
    expect(readUnit('KGM')).toMatchObject({ code: 'KGM', how: 'code' });
    expect(readUnit('kg')).toMatchObject({ code: 'KGM', how: 'symbol' });
    expect(readUnit('box')).toMatchObject({ code: 'BX', how: 'name' });
    expect(readUnit('förp')).toMatchObject({ code: 'PK', how: 'word' });
    expect(readUnit('Förp.')).toMatchObject({ code: 'PK', how: 'word' });
    expect(readUnit('Paar')).toMatchObject({ code: 'PR', how: 'word' });
    expect(readUnit('Rolle')).toMatchObject({ code: 'RO', how: 'word' });
    expect(readUnit('kpl')).toMatchObject({ code: 'H87', how: 'word' });
    expect(readUnit('Stück')).toMatchObject({ code: 'H87', how: 'word' });
    expect(readUnit('käyttäjä')).toMatchObject({ code: 'C62', how: 'word' });
    expect(readUnit('døgn')).toMatchObject({ code: 'DAY', how: 'word' });
    expect(readUnit('m²')).toMatchObject({ code: 'MTK' });
    expect(readUnit('zorkmids')).toMatchObject({ code: null, how: 'unknown' });
    expect(readUnit('')).toBeNull();
  });

  it('reads a price per unit and period, and "per"/"pr." before the unit', () => {
    expect(readUnit('user/month')).toMatchObject({ code: 'C62', perPeriod: 'month' });
    expect(readUnit('TB/month')).toMatchObject({ code: 'E35', perPeriod: 'month' });
    expect(readUnit('pr. stk')).toMatchObject({ code: 'H87', perPeriod: null });
    expect(readUnit('per kg')).toMatchObject({ code: 'KGM', how: 'symbol' });
    expect(readUnit('kr/stk')).toMatchObject({ code: 'H87', perPeriod: null });
    expect(readUnit('EUR per kg')).toMatchObject({ code: 'KGM', how: 'symbol' });
    expect(readUnit('€/h')).toMatchObject({ code: 'HUR' });
    expect(readUnit('pce/month')).toMatchObject({ code: 'H87', perPeriod: 'month' });
    expect(canonicalUnit('stk')).toBe('piece');
    expect(canonicalUnit('EA')).toBe('piece');
  });
});

describe('comparing units', () => {
  it('agrees without a guess on the same code, symbol or text', () => {
    expect(compareUnits('KGM', 'kg')).toEqual({ agree: true, guess: null });
    expect(compareUnits('BX', 'box')).toEqual({ agree: true, guess: null });
    expect(compareUnits('Timer', 'timer')).toEqual({ agree: true, guess: null });
    expect(compareUnits('widgets', 'Widgets')).toEqual({ agree: true, guess: null });
  });

  it('agrees through a word or a family of codes, and names the guess', () => {
    expect(compareUnits('PK', 'förp')).toEqual({ agree: true, guess: '"förp" read as PK (package)' });
    expect(compareUnits('PR', 'Paar').guess).toBe('"Paar" read as PR (pair)');
    expect(compareUnits('C62', 'EA')).toEqual({ agree: true, guess: 'C62 (one) and EA (each) taken as the same unit' });
    expect(compareUnits('H87', 'stk').agree).toBe(true);
    expect(compareUnits('H87', 'kpl').agree).toBe(true);
    const perMonth = compareUnits('E35', 'TB/month');
    expect(perMonth.agree).toBe(true);
    expect(perMonth.guess).toContain('per month');
    expect(compareUnits('ltk', 'BX')).toEqual({ agree: true, guess: '"ltk" read as BX (box)' });
  });

  it('agrees when a price per unit and period is billed in that period, and names the guess', () => {
    const billedMonthly = compareUnits('MON', 'user/month');
    expect(billedMonthly.agree).toBe(true);
    expect(billedMonthly.guess).toContain('its quantity taken to count user-months');
    expect(compareUnits('EUR per TB per month', 'mnd').guess).toContain('TB-months');
    expect(compareUnits('user/month', 'ANN').agree).toBe(false);
    expect(compareUnits('user/month', 'MON/year').agree).toBe(false);
  });

  it('disagrees on other units, and says nothing when a side gives none', () => {
    expect(compareUnits('EA', 'förp').agree).toBe(false);
    expect(compareUnits('KGM', 'LTR').agree).toBe(false);
    expect(compareUnits('user/month', 'user/year').agree).toBe(false);
    expect(compareUnits('zorkmids', 'EA').agree).toBe(false);
    expect(compareUnits(null, 'EA')).toEqual({ agree: null, guess: null });
  });
});
