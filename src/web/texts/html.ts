// A sentence with markup in it (a name in <strong>) stays one text per language, so the word order
// can differ; its values are escaped here, so a view prints the result raw (<%~ %>) safely.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

// html`You are invited to <strong>${name}</strong>.`: the literal parts as written, every value escaped.
export function html(parts: TemplateStringsArray, ...values: (string | number)[]): string {
  return parts.reduce((out, part, i) => out + part + (i < values.length ? escapeHtml(String(values[i])) : ''), '');
}
