import { Decimal } from 'decimal.js';

// Large valid Peppol BIS Billing 3.0 invoices, for the large-invoice test and benchmark: the
// header and parties of the Peppol base example (so every invoice has the same supplier), then as
// many lines as asked, each billing one article of a generated price list, with totals that add
// up. Self-contained (no sample files) and without vitest: scripts/bench/large-invoice.ts uses it too.

function header(number: string, issueDate: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
    xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
    xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>${number}</cbc:ID>
  <cbc:IssueDate>${issueDate}</cbc:IssueDate>
  <cbc:DueDate>${issueDate}</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>0150abc</cbc:BuyerReference>
  <cac:AccountingSupplierParty>
    <cac:Party>
      <cbc:EndpointID schemeID="0088">9482348239847239874</cbc:EndpointID>
      <cac:PartyIdentification><cbc:ID>99887766</cbc:ID></cac:PartyIdentification>
      <cac:PartyName><cbc:Name>SupplierTradingName Ltd.</cbc:Name></cac:PartyName>
      <cac:PostalAddress>
        <cbc:StreetName>Main street 1</cbc:StreetName><cbc:CityName>London</cbc:CityName><cbc:PostalZone>GB 123 EW</cbc:PostalZone>
        <cac:Country><cbc:IdentificationCode>GB</cbc:IdentificationCode></cac:Country>
      </cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>GB1232434</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>SupplierOfficialName Ltd</cbc:RegistrationName><cbc:CompanyID>GB983294</cbc:CompanyID></cac:PartyLegalEntity>
    </cac:Party>
  </cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>
    <cac:Party>
      <cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>
      <cac:PartyIdentification><cbc:ID schemeID="0002">FR23342</cbc:ID></cac:PartyIdentification>
      <cac:PartyName><cbc:Name>BuyerTradingName AS</cbc:Name></cac:PartyName>
      <cac:PostalAddress>
        <cbc:StreetName>Hovedgatan 32</cbc:StreetName><cbc:CityName>Stockholm</cbc:CityName><cbc:PostalZone>456 34</cbc:PostalZone>
        <cac:Country><cbc:IdentificationCode>SE</cbc:IdentificationCode></cac:Country>
      </cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>SE4598375937</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>Buyer Official Name</cbc:RegistrationName><cbc:CompanyID schemeID="0183">39937423947</cbc:CompanyID></cac:PartyLegalEntity>
    </cac:Party>
  </cac:AccountingCustomerParty>
  <cac:Delivery><cbc:ActualDeliveryDate>${issueDate}</cbc:ActualDeliveryDate></cac:Delivery>
  <cac:PaymentMeans><cbc:PaymentMeansCode name="Credit transfer">30</cbc:PaymentMeansCode><cbc:PaymentID>${number}</cbc:PaymentID>
    <cac:PayeeFinancialAccount><cbc:ID>IBAN32423940</cbc:ID></cac:PayeeFinancialAccount>
  </cac:PaymentMeans>`;
}

export const articleOf = (item: number) => `ART-${String(item + 1).padStart(6, '0')}`;
// A deterministic agreed price with two decimals, 10.00–999.99 EUR.
export const agreedPrice = (item: number) => new Decimal(1000 + ((item * 7919) % 99_000)).div(100);

// The agreement's price items for articles from..to-1, in the shape POST /v1/agreements/{id}/price-items takes.
export function priceItemEntries(from: number, to: number) {
  return Array.from({ length: to - from }, (_, offset) => {
    const item = from + offset;
    return {
      description: `Article ${item + 1}`,
      seller_item_id: articleOf(item),
      unit: 'stk',
      currency_code: 'EUR',
      price: { type: 'amount', amount: agreedPrice(item).toFixed(2) },
    };
  });
}

export interface LargeInvoiceOptions {
  number: string;
  lines: number;
  // How many articles the price list has; line n bills article n % items.
  items: number;
  issueDate?: string;
  // Every n-th line (0, n, 2n, ...) is billed 1.50 above its agreed price; 0: none.
  overchargeEvery?: number;
  // Quantities start here (vary it between invoices issued close together: equal lines would be
  // found again as duplicate charges).
  quantitySeed?: number;
}

export const OVERCHARGE = new Decimal('1.50');

const amount = (value: Decimal) => value.toFixed(2);

// One line without indentation: a 70,000-line invoice stays a few MB smaller.
function lineXml(index: number, article: number, quantity: number, price: Decimal, net: Decimal): string {
  return (
    `\n<cac:InvoiceLine><cbc:ID>${index + 1}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">${quantity}</cbc:InvoicedQuantity>` +
    `<cbc:LineExtensionAmount currencyID="EUR">${amount(net)}</cbc:LineExtensionAmount><cac:Item><cbc:Name>Article ${article + 1}</cbc:Name>` +
    `<cac:SellersItemIdentification><cbc:ID>${articleOf(article)}</cbc:ID></cac:SellersItemIdentification>` +
    `<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>` +
    `</cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">${amount(price)}</cbc:PriceAmount></cac:Price></cac:InvoiceLine>`
  );
}

// The invoice's bytes and how many lines were overcharged.
// The document totals of a generated Peppol invoice in EUR: VAT at 25 % over the line total.
export function totalsXml(lineTotal: Decimal, vat: Decimal): string {
  return `
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="EUR">${amount(vat)}</cbc:TaxAmount>
    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="EUR">${amount(lineTotal)}</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="EUR">${amount(vat)}</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
    </cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">${amount(lineTotal)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">${amount(lineTotal)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">${amount(lineTotal.plus(vat))}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">${amount(lineTotal.plus(vat))}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>`;
}

export function largePeppolInvoice(options: LargeInvoiceOptions): { bytes: Buffer; overcharged: number } {
  const issueDate = options.issueDate ?? '2026-03-02';
  const every = options.overchargeEvery ?? 0;
  const parts: string[] = [];
  let lineTotal = new Decimal(0);
  let overcharged = 0;
  for (let line = 0; line < options.lines; line++) {
    const article = line % options.items;
    const quantity = 1 + ((line + (options.quantitySeed ?? 0)) % 20);
    const over = every > 0 && line % every === 0;
    const price = over ? agreedPrice(article).plus(OVERCHARGE) : agreedPrice(article);
    const net = price.times(quantity);
    if (over) overcharged++;
    lineTotal = lineTotal.plus(net);
    parts.push(lineXml(line, article, quantity, price, net));
  }
  const vat = lineTotal.times('0.25').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const totals = totalsXml(lineTotal, vat);
  return {
    bytes: Buffer.from(`${header(options.number, issueDate)}${totals}${parts.join('')}\n</Invoice>\n`),
    overcharged,
  };
}

// A one-line invoice of the same supplier: the first upload of a test creates the supplier every
// generated invoice names.
export function smallPeppolInvoice(number: string, issueDate = '2026-01-02'): Buffer {
  return largePeppolInvoice({ number, lines: 1, items: 1, issueDate }).bytes;
}

// The header and parties above, for tests that write their own lines (test/support/line-invoices.ts).
export { header as peppolInvoiceHeader };
