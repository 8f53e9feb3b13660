import { readFileSync } from 'node:fs';
import { openPdf } from '../../src/shared/pdfjs.ts';
import { wordsFromTextItems } from '../../src/invoices/parsing/layout/words.ts';
import { buildLines } from '../../src/invoices/parsing/layout/lines.ts';
import { findLabels } from '../../src/invoices/parsing/layout/fields.ts';
import { readTable } from '../../src/invoices/parsing/layout/table.ts';
const task = await openPdf(new Uint8Array(readFileSync(process.argv[2]!)));
const doc = await task.promise;
const words = [];
for (let p = 1; p <= doc.numPages; p++) { const page = await doc.getPage(p); const c = await page.getTextContent(); words.push(...wordsFromTextItems(c.items as any, p, page.view[3])); }
const lines = buildLines(words);
for (const l of lines) console.log(l.index, l.page, l.y.toFixed(0), l.segments.map(s => `[${s.x0.toFixed(0)}-${s.x1.toFixed(0)} ${s.text}]`).join(' '));
const t = readTable(lines, process.argv[3] as any ?? ',');
console.log('table', t?.roles, t?.rows.length, JSON.stringify(t?.rows.slice(0,3).map(r => r.cells)));
for (const h of findLabels(lines, t?.tableLines ?? new Set())) console.log('hit', h.line.index, h.keys, h.rest.map(w=>w.text).join(' '));
