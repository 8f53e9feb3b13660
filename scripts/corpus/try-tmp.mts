import { readFileSync } from 'node:fs';
import { parsePdf } from '/work/wt-reading/src/invoices/parsing/pdf.ts';
for (const file of process.argv.slice(2)) {
  const t = Date.now();
  const out = await parsePdf(new Uint8Array(readFileSync(file)), { ignoreEmbeddedXml: true });
  console.log('==', file, Date.now() - t, 'ms');
  if (out.kind === 'invoice') {
    const { lines, extraction, ...rest } = out.invoice;
    console.log(JSON.stringify({ n: rest.invoiceNumber, issue: rest.issueDate, due: rest.dueDate, cur: rest.currencyCode, sup: rest.supplier, rec: rest.recipient.name, order: rest.orderReference, totals: rest.totals, vat: rest.vatBreakdown, type: rest.documentType }));
    console.log(lines.length, JSON.stringify(lines.slice(0, 3).map(l => [l.id, l.sellerItemId, l.description, l.quantity, l.unitCode, l.unitPrice, l.netAmount, l.vatPercent])));
    console.log(JSON.stringify(extraction));
  } else console.log(out);
}
