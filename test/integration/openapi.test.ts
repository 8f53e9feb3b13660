import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/routes.js';
import { call } from '../support/api.js';

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, version 1.0.0', async () => {
    const response = await call('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.info.version).toBe('1.0.0');
    const result = await new Validator().validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route with its required level', async () => {
    const { body } = await call('/v1/openapi.json');
    for (const route of allRoutes) {
      const operation = body.paths[route.path]?.[route.method];
      expect(operation, `${route.method.toUpperCase()} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.operationId);
      expect(['read', 'write', 'admin', 'none']).toContain(operation['x-required-level']);
    }
  });
});
