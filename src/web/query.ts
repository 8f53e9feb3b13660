// A GET form sends every field, empty ones too; the API refuses an empty filter value. These keep
// the named fields that have a value, as the API's query (strings, as a query string gives them).
export function filledQuery(query: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of keys) {
    const value = query[key];
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string' && v !== '').join(',') : value;
    if (typeof text === 'string' && text.trim() !== '') kept[key] = text.trim();
  }
  return kept;
}

// The URL of the same list with some parameters changed (a next page, a cleared filter).
export function listUrl(path: string, query: Record<string, string>, changes: Record<string, string | null> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...changes })) if (value !== null && value !== '') params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
