import { inject } from 'vitest';

// A thin HTTP client for integration tests: every call goes over the network to the real API.

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  rawBody?: string | Uint8Array;
  token?: string | null;
  organizationId?: string | null;
  headers?: Record<string, string>;
  // Another API process than the stack's (the scale-out test runs several).
  baseUrl?: string;
}

export async function call<T = any>(path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.organizationId) headers['X-Organization-Id'] = options.organizationId;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${options.baseUrl ?? inject('apiUrl')}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Non-JSON bodies (CSV, metrics) stay text.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export function expectError(response: ApiResponse, status: number, code: string): void {
  if (response.status !== status || response.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  if (typeof response.body.error.message !== 'string' || typeof response.body.error.request_id !== 'string') {
    throw new Error(`error body lacks message or request_id: ${JSON.stringify(response.body)}`);
  }
}

export async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
