import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const valid = {
  DATABASE_URL: 'postgresql://u@localhost/db',
  S3_ENDPOINT: 'http://localhost:9000',
  S3_ACCESS_KEY: 'a',
  S3_SECRET_KEY: 'b',
};

describe('configuration', () => {
  it('applies defaults', () => {
    const config = loadConfig(valid);
    expect(config.PORT).toBe(3500);
    expect(config.TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(config.ENABLE_TEST_WORKFLOWS).toBe(false);
    // No Temporal UI link unless one is configured; empty counts as not set.
    expect(config.TEMPORAL_UI_URL).toBeUndefined();
    expect(loadConfig({ ...valid, TEMPORAL_UI_URL: '' }).TEMPORAL_UI_URL).toBeUndefined();
    expect(loadConfig({ ...valid, TEMPORAL_UI_URL: 'https://temporal.example' }).TEMPORAL_UI_URL).toBe(
      'https://temporal.example',
    );
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ ...valid, DATABASE_URL: 'nope', PORT: 'abc' })).toThrow(ConfigError);
    try {
      loadConfig({ ...valid, DATABASE_URL: 'nope', PORT: 'abc' });
    } catch (error) {
      expect((error as Error).message).toContain('DATABASE_URL');
      expect((error as Error).message).toContain('PORT');
    }
  });
});
