import { describe, expect, it } from 'vitest';
import { allowedChanges } from '../../../../src/web/pages/claims.js';
import { credentialFields } from '../../../../src/web/pages/integrations.js';
import { shownLines } from '../../../../src/web/pages/invoices.js';
import { codeLabel } from '../../../../src/web/labels.js';
import { recordUrl, resultText, temporalUiUrl } from '../../../../src/web/pages/runs.js';
import { textsFor } from '../../../../src/web/texts/index.js';

describe('web pages: pure helpers', () => {
  it('shows the first 200 lines of an invoice and every line with an alert, or all lines when asked', () => {
    const lines = Array.from({ length: 1_000 }, (_, i) => ({ id: `l${i}` }));
    const alerts = new Map([['l700', [{ id: 'a1' }]]]);
    const first = shownLines(lines, alerts, false);
    expect(first.lines.map((l) => l.id)).toEqual([...lines.slice(0, 200).map((l) => l.id), 'l700']);
    expect(first.lines.at(-1)?.alerts).toEqual([{ id: 'a1' }]);
    expect(first).toMatchObject({ lineCount: 1_000, linesHidden: 799 });
    const all = shownLines(lines, alerts, true);
    expect(all.lines).toHaveLength(1_000);
    expect(all.linesHidden).toBe(0);
  });

  it('offers the claim status changes the state machine accepts, never back to pending', () => {
    const words = textsFor('en').claims;
    expect(allowedChanges('pending', words).map((c) => c.status)).toEqual(['in_progress', 'completed', 'cancelled']);
    expect(allowedChanges('in_progress', words).map((c) => c.status)).toEqual(['completed', 'cancelled']);
    expect(allowedChanges('completed', words)).toEqual([
      { status: 'in_progress', label: 'Reopen (in progress)', style: 'secondary' },
      { status: 'cancelled', label: 'Cancel claim', style: 'danger' },
    ]);
  });

  it("draws the connect form from a provider's credentials schema", () => {
    const fields = credentialFields({
      type: 'object',
      properties: {
        endpoint: { type: 'string', format: 'uri', description: 'Where' },
        region: { type: 'string', default: 'us-east-1' },
        secret_key: { type: 'string' },
        port: { type: 'integer' },
        verbose: { type: 'boolean', default: false },
      },
      required: ['endpoint', 'region', 'secret_key'],
    });
    expect(fields).toEqual([
      { name: 'endpoint', label: 'Endpoint', type: 'url', required: true, defaultValue: '', description: 'Where' },
      { name: 'region', label: 'Region', type: 'text', required: false, defaultValue: 'us-east-1', description: null },
      {
        name: 'secret_key',
        label: 'Secret key',
        type: 'password',
        required: true,
        defaultValue: '',
        description: null,
      },
      { name: 'port', label: 'Port', type: 'number', required: false, defaultValue: '', description: null },
      {
        name: 'verbose',
        label: 'Verbose',
        type: 'checkbox',
        required: false,
        defaultValue: 'false',
        description: null,
      },
    ]);
    expect(credentialFields({})).toEqual([]);
  });

  it('links a run to Temporal UI and its records to their pages, and says its results in words', () => {
    expect(
      temporalUiUrl({ TEMPORAL_UI_URL: 'https://temporal.example/', TEMPORAL_NAMESPACE: 'prod eu' }, 'sync-1'),
    ).toBe('https://temporal.example/namespaces/prod%20eu/workflows/sync-1');
    // Not set: no link at all (finance users have no Temporal UI).
    expect(temporalUiUrl({ TEMPORAL_UI_URL: undefined, TEMPORAL_NAMESPACE: 'default' }, 'sync-1')).toBeNull();
    expect(recordUrl({ type: 'invoice', id: 'abc' })).toBe('/app/invoices/abc');
    expect(recordUrl({ type: 'price_import', id: 'abc' })).toBeNull();
    expect(recordUrl(null)).toBeNull();
    const inWords = (code: string) => codeLabel(code, textsFor('en').codes);
    expect(resultText({ matches: 1, ended_total: 0, note: null }, inWords)).toBe(
      'matches 1 · ended total 0 · note null',
    );
    expect(resultText({ outcome: 'not_invoice', checker: 'duplicate_charge' }, inWords)).toBe(
      'outcome Not an invoice · checker Charged twice',
    );
    expect(resultText({ nested: { a: 1 } }, inWords)).toBe('{"nested":{"a":1}}');
    expect(resultText([1, 2], inWords)).toBe('[1,2]');
  });
});
