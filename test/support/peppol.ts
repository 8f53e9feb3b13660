import { Decimal } from 'decimal.js';

// Peppol BIS Billing 3.0 invoices and credit notes from plain data, with totals that add up over
// what is given: lines (with line allowances), document allowances and charges, one VAT rate.
// Without vitest: scripts/bench/alerts.ts builds its corpus with it too.

export interface PeppolSupplier {
  name: string;
  /** VAT number with country prefix, e.g. NO999888777MVA. */
  vat: string;
  country: string;
  city: string;
}

export interface PeppolLine {
  description: string;
  sellerItemId?: string | null;
  quantity: string;
  unitCode: string;
  /** Net price per base quantity. */
  price: string;
  baseQuantity?: string | null;
  /** Line net amount as billed (need not be quantity x price: arithmetic errors are planted so). */
  net: string;
  /** Line allowances (discounts) taken off the line net already. */
  allowances?: { amount: string; reason: string }[];
  periodStart?: string;
  periodEnd?: string;
}

export interface PeppolCharge {
  isCharge: boolean;
  amount: string;
  reason?: string | null;
  reasonCode?: string | null;
}

export interface PeppolDocument {
  number: string;
  issueDate: string;
  currency: string;
  supplier: PeppolSupplier;
  creditNote?: boolean;
  creditedNumber?: string;
  orderReference?: string | null;
  deliveryDate?: string | null;
  lines: PeppolLine[];
  charges?: PeppolCharge[];
  vatPercent?: string;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const money = (value: Decimal) => value.toFixed(2);

function party(supplier: PeppolSupplier): string {
  return `<cac:Party>
      <cbc:EndpointID schemeID="9908">${escape(supplier.vat.replace(/\D/g, ''))}</cbc:EndpointID>
      <cac:PartyName><cbc:Name>${escape(supplier.name)}</cbc:Name></cac:PartyName>
      <cac:PostalAddress><cbc:StreetName>Street 1</cbc:StreetName><cbc:CityName>${escape(supplier.city)}</cbc:CityName><cbc:PostalZone>0150</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${supplier.country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>${escape(supplier.vat)}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>${escape(supplier.name)}</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>`;
}

const BUYER = `<cac:Party>
      <cbc:EndpointID schemeID="0192">987654321</cbc:EndpointID>
      <cac:PartyName><cbc:Name>Buyer Group AS</cbc:Name></cac:PartyName>
      <cac:PostalAddress><cbc:StreetName>Kjøpmannsgata 2</cbc:StreetName><cbc:CityName>Oslo</cbc:CityName><cbc:PostalZone>0151</cbc:PostalZone><cac:Country><cbc:IdentificationCode>NO</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>NO987654321MVA</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>Buyer Group AS</cbc:RegistrationName><cbc:CompanyID>987654321</cbc:CompanyID></cac:PartyLegalEntity>
    </cac:Party>`;

function taxCategory(vat: string, tag = 'TaxCategory'): string {
  return `<cac:${tag}><cbc:ID>S</cbc:ID><cbc:Percent>${vat}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:${tag}>`;
}

function allowanceCharge(entry: PeppolCharge, currency: string, vat: string | null): string {
  return `<cac:AllowanceCharge>
    <cbc:ChargeIndicator>${entry.isCharge}</cbc:ChargeIndicator>
    ${entry.reasonCode ? `<cbc:AllowanceChargeReasonCode>${escape(entry.reasonCode)}</cbc:AllowanceChargeReasonCode>` : ''}
    ${entry.reason ? `<cbc:AllowanceChargeReason>${escape(entry.reason)}</cbc:AllowanceChargeReason>` : ''}
    <cbc:Amount currencyID="${currency}">${entry.amount}</cbc:Amount>
    ${vat === null ? '' : taxCategory(vat)}
  </cac:AllowanceCharge>`;
}

function lineXml(line: PeppolLine, index: number, doc: PeppolDocument, vat: string): string {
  const tag = doc.creditNote ? 'CreditNoteLine' : 'InvoiceLine';
  const quantityTag = doc.creditNote ? 'CreditedQuantity' : 'InvoicedQuantity';
  const period =
    line.periodStart && line.periodEnd
      ? `<cac:InvoicePeriod><cbc:StartDate>${line.periodStart}</cbc:StartDate><cbc:EndDate>${line.periodEnd}</cbc:EndDate></cac:InvoicePeriod>`
      : '';
  return `<cac:${tag}>
    <cbc:ID>${index + 1}</cbc:ID>
    <cbc:${quantityTag} unitCode="${escape(line.unitCode)}">${line.quantity}</cbc:${quantityTag}>
    <cbc:LineExtensionAmount currencyID="${doc.currency}">${line.net}</cbc:LineExtensionAmount>
    ${period}
    ${(line.allowances ?? []).map((allowance) => allowanceCharge({ isCharge: false, amount: allowance.amount, reason: allowance.reason }, doc.currency, null)).join('')}
    <cac:Item>
      <cbc:Name>${escape(line.description)}</cbc:Name>
      ${line.sellerItemId ? `<cac:SellersItemIdentification><cbc:ID>${escape(line.sellerItemId)}</cbc:ID></cac:SellersItemIdentification>` : ''}
      ${taxCategory(vat, 'ClassifiedTaxCategory')}
    </cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="${doc.currency}">${line.price}</cbc:PriceAmount>${line.baseQuantity ? `<cbc:BaseQuantity unitCode="${escape(line.unitCode)}">${line.baseQuantity}</cbc:BaseQuantity>` : ''}</cac:Price>
  </cac:${tag}>`;
}

export function peppolDocument(doc: PeppolDocument): Buffer {
  const vat = doc.vatPercent ?? '25';
  const charges = doc.charges ?? [];
  const lineTotal = doc.lines.reduce((sum, line) => sum.plus(line.net), new Decimal(0));
  const allowanceTotal = charges
    .filter((entry) => !entry.isCharge)
    .reduce((sum, entry) => sum.plus(entry.amount), new Decimal(0));
  const chargeTotal = charges
    .filter((entry) => entry.isCharge)
    .reduce((sum, entry) => sum.plus(entry.amount), new Decimal(0));
  const taxable = lineTotal.minus(allowanceTotal).plus(chargeTotal);
  const vatAmount = taxable.times(vat).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const inclusive = taxable.plus(vatAmount);
  const root = doc.creditNote ? 'CreditNote' : 'Invoice';
  const c = doc.currency;
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>${escape(doc.number)}</cbc:ID>
  <cbc:IssueDate>${doc.issueDate}</cbc:IssueDate>
  ${doc.creditNote ? '<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>' : `<cbc:DueDate>${doc.issueDate}</cbc:DueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>`}
  <cbc:DocumentCurrencyCode>${c}</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>BUYER-1</cbc:BuyerReference>
  ${doc.orderReference ? `<cac:OrderReference><cbc:ID>${escape(doc.orderReference)}</cbc:ID></cac:OrderReference>` : ''}
  ${doc.creditedNumber ? `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${escape(doc.creditedNumber)}</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>` : ''}
  <cac:AccountingSupplierParty>${party(doc.supplier)}</cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>${BUYER}</cac:AccountingCustomerParty>
  ${doc.deliveryDate ? `<cac:Delivery><cbc:ActualDeliveryDate>${doc.deliveryDate}</cbc:ActualDeliveryDate></cac:Delivery>` : ''}
  <cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cbc:PaymentID>${escape(doc.number)}</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>NO9386011117947</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  ${charges.map((entry) => allowanceCharge(entry, c, vat)).join('\n  ')}
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="${c}">${money(vatAmount)}</cbc:TaxAmount>
    <cac:TaxSubtotal><cbc:TaxableAmount currencyID="${c}">${money(taxable)}</cbc:TaxableAmount><cbc:TaxAmount currencyID="${c}">${money(vatAmount)}</cbc:TaxAmount>${taxCategory(vat)}</cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="${c}">${money(lineTotal)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="${c}">${money(taxable)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="${c}">${money(inclusive)}</cbc:TaxInclusiveAmount>
    ${allowanceTotal.isZero() ? '' : `<cbc:AllowanceTotalAmount currencyID="${c}">${money(allowanceTotal)}</cbc:AllowanceTotalAmount>`}
    ${chargeTotal.isZero() ? '' : `<cbc:ChargeTotalAmount currencyID="${c}">${money(chargeTotal)}</cbc:ChargeTotalAmount>`}
    <cbc:PayableAmount currencyID="${c}">${money(inclusive)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  ${doc.lines.map((line, index) => lineXml(line, index, doc, vat)).join('\n  ')}
</${root}>
`);
}

/** A line billing quantity x price exactly. */
export function pricedLine(
  description: string,
  sellerItemId: string | null,
  quantity: string,
  unitCode: string,
  price: string,
): PeppolLine {
  return { description, sellerItemId, quantity, unitCode, price, net: new Decimal(quantity).times(price).toFixed(2) };
}
