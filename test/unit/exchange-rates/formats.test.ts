import { describe, expect, it } from 'vitest';
import { detectFormat, parseRateFile, RateFileError } from '../../../src/exchange-rates/index.js';
import { fixture } from './fixtures.js';

describe('detectFormat', () => {
  it('recognises each published file', () => {
    expect(detectFormat(fixture('eurofxref-hist.csv'))).toBe('ecb_eurofxref');
    expect(detectFormat(fixture('eurofxref.csv'))).toBe('ecb_eurofxref');
    expect(detectFormat(fixture('norges-bank-exr-en.csv'))).toBe('norges_bank_exr');
    expect(detectFormat(fixture('norges-bank-exr-no.csv'))).toBe('norges_bank_exr');
    expect(detectFormat('\ufeffBASE_CUR,QUOTE_CUR,TIME_PERIOD,OBS_VALUE\n')).toBe('norges_bank_exr');
  });

  it('recognises nothing else', () => {
    expect(detectFormat('')).toBeNull();
    expect(detectFormat('Date,Amount,Description\n2025-12-19,10,x\n')).toBeNull();
    expect(detectFormat('<?xml version="1.0"?><gesmes:Envelope/>')).toBeNull();
    expect(detectFormat('FREQ;BASE_CUR;TIME_PERIOD\n')).toBeNull();
  });
});

describe('parseRateFile', () => {
  it('parses with the detected format', () => {
    const { format, rows } = parseRateFile(fixture('norges-bank-exr-no.csv'));
    expect(format).toBe('norges_bank_exr');
    expect(rows).toHaveLength(6);
  });

  it('refuses an unknown file with a RateFileError', () => {
    expect(() => parseRateFile('a,b\n1,2\n')).toThrow(RateFileError);
    expect(() => parseRateFile('   ')).toThrow('The file is empty.');
  });
});
