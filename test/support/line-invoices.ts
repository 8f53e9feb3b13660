import { Decimal } from 'decimal.js';
import { peppolInvoiceHeader, totalsXml } from './large-invoice.js';

// Peppol BIS 3 invoices with the lines a test writes: units as Rec 20 codes, line allowances and
// charges (BG-27/BG-28), amounts as given (so a test can bill a rounded or a wrong line amount).
// The supplier is the Peppol base example's, as in every generated invoice.

export interface XmlLine {
  name: string;
  sellerItemId: string;
  quantity: string;
  unitCode: string;
  price: string;
  /** The line net amount as billed; default quantity x price - allowances + charges. */
  net?: string;
  allowances?: { amount: string; reason: string; isCharge?: boolean }[];
}

const lineNet = (line: XmlLine) =>
  line.net !== undefined
    ? new Decimal(line.net)
    : (line.allowances ?? []).reduce(
        (net, entry) => (entry.isCharge ? net.plus(entry.amount) : net.minus(entry.amount)),
        new Decimal(line.quantity).times(line.price),
      );

function allowanceXml(entry: { amount: string; reason: string; isCharge?: boolean }, base: Decimal): string {
  return (
    `<cac:AllowanceCharge><cbc:ChargeIndicator>${entry.isCharge ? 'true' : 'false'}</cbc:ChargeIndicator>` +
    `<cbc:AllowanceChargeReasonCode>${entry.isCharge ? 'ABL' : '95'}</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>${entry.reason}</cbc:AllowanceChargeReason>` +
    `<cbc:Amount currencyID="EUR">${entry.amount}</cbc:Amount><cbc:BaseAmount currencyID="EUR">${base.toFixed(2)}</cbc:BaseAmount></cac:AllowanceCharge>`
  );
}

function lineXml(line: XmlLine, index: number): string {
  const gross = new Decimal(line.quantity).times(line.price);
  return (
    `\n<cac:InvoiceLine><cbc:ID>${index + 1}</cbc:ID><cbc:InvoicedQuantity unitCode="${line.unitCode}">${line.quantity}</cbc:InvoicedQuantity>` +
    `<cbc:LineExtensionAmount currencyID="EUR">${lineNet(line).toFixed(2)}</cbc:LineExtensionAmount>` +
    (line.allowances ?? []).map((entry) => allowanceXml(entry, gross)).join('') +
    `<cac:Item><cbc:Name>${line.name}</cbc:Name><cac:SellersItemIdentification><cbc:ID>${line.sellerItemId}</cbc:ID></cac:SellersItemIdentification>` +
    `<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>` +
    `</cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">${line.price}</cbc:PriceAmount></cac:Price></cac:InvoiceLine>`
  );
}

export function peppolInvoiceWithLines(number: string, issueDate: string, lines: XmlLine[]): Buffer {
  const lineTotal = lines.reduce((total, line) => total.plus(lineNet(line)), new Decimal(0));
  const vat = lineTotal.times('0.25').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return Buffer.from(
    `${peppolInvoiceHeader(number, issueDate)}${totalsXml(lineTotal, vat)}${lines.map(lineXml).join('')}\n</Invoice>\n`,
  );
}
