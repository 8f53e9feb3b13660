/**
 * UBL 2.1 Invoice and CreditNote, as profiled by Peppol BIS Billing 3.0 and EHF 2.0.
 * Both profiles share the UBL element names; they differ in detection (CustomizationID) and in
 * small details handled generically here (EHF 2.0 credit notes have no CreditNoteTypeCode,
 * EHF 2.0 lines may omit the VAT rate).
 */
import { documentTypeFrom, fillLineVatPercents, withStructuredExtraction } from './document-rules.js';
import { FieldReader } from './field-reader.js';
import type {
  Address,
  AllowanceCharge,
  ExchangeRate,
  InvoiceFormat,
  InvoiceLine,
  InvoiceOutcome,
  InvoiceTotals,
  Party,
  Period,
  VatBreakdownEntry,
} from './model.js';
import { allAt, attributeOf, childAt, childrenNamed, textAt, textOf, type XmlElement } from './xml-tree.js';

/** Element names that differ between the Invoice and CreditNote document types. */
interface UblVocabulary {
  line: string;
  quantity: string;
  typeCode: string;
}

const INVOICE_VOCABULARY: UblVocabulary = {
  line: 'InvoiceLine',
  quantity: 'InvoicedQuantity',
  typeCode: 'InvoiceTypeCode',
};
const CREDIT_NOTE_VOCABULARY: UblVocabulary = {
  line: 'CreditNoteLine',
  quantity: 'CreditedQuantity',
  typeCode: 'CreditNoteTypeCode',
};

const EHF_2_CUSTOMIZATION = /urn:www\.difi\.no:ehf:(?:faktura|kreditnota):ver2\.0$/;
const EN16931_CUSTOMIZATION = /peppol|en16931/i;

export function readUbl(root: XmlElement): InvoiceOutcome {
  const reader = new FieldReader();
  const format = ublFormatOf(root, reader);
  const isCreditNote = root.name === 'CreditNote';
  const vocabulary = isCreditNote ? CREDIT_NOTE_VOCABULARY : INVOICE_VOCABULARY;
  const currencyCode = textAt(root, 'DocumentCurrencyCode');
  const taxCurrencyCode = textAt(root, 'TaxCurrencyCode');
  const typeCode = textAt(root, vocabulary.typeCode);
  const { main: mainTaxTotal, inTaxCurrency } = pickTaxTotals(root, currencyCode, taxCurrencyCode);
  const vatBreakdown = childrenNamed(mainTaxTotal, 'TaxSubtotal').map((subtotal) => readTaxSubtotal(subtotal, reader));
  const lines = childrenNamed(root, vocabulary.line).map((line) => readLine(line, vocabulary, reader));
  const delivery = childAt(root, 'Delivery');
  const deliveryAddress = readAddress(childAt(delivery, 'DeliveryLocation', 'Address'));

  const invoice = withStructuredExtraction({
    documentType: documentTypeFrom(typeCode, isCreditNote ? 'credit_note' : 'invoice'),
    typeCode,
    invoiceNumber: textAt(root, 'ID'),
    issueDate: reader.isoDate(childAt(root, 'IssueDate'), 'IssueDate'),
    // UBL 2.1 CreditNote has no DueDate; its due date sits in PaymentMeans.
    dueDate: reader.isoDate(childAt(root, 'DueDate') ?? childAt(root, 'PaymentMeans', 'PaymentDueDate'), 'DueDate'),
    currencyCode,
    taxCurrencyCode,
    exchangeRate: readExchangeRate(childAt(root, 'TaxExchangeRate') ?? childAt(root, 'PaymentExchangeRate'), reader),
    supplier: readParty(childAt(root, 'AccountingSupplierParty', 'Party')),
    recipient: readParty(childAt(root, 'AccountingCustomerParty', 'Party')),
    buyerReference: textAt(root, 'BuyerReference'),
    orderReference: textAt(root, 'OrderReference', 'ID'),
    contractReference: textAt(root, 'ContractDocumentReference', 'ID'),
    creditedInvoiceReference: readCreditedInvoice(root, reader),
    deliveryAddress,
    deliveryCountryCode: deliveryAddress?.countryCode ?? null,
    deliveryDate: reader.isoDate(childAt(delivery, 'ActualDeliveryDate'), 'Delivery/ActualDeliveryDate'),
    invoicePeriod: readPeriod(childAt(root, 'InvoicePeriod'), reader),
    lines: fillLineVatPercents(lines, vatBreakdown),
    allowanceCharges: childrenNamed(root, 'AllowanceCharge').map((element) => readAllowanceCharge(element, reader)),
    vatBreakdown,
    totals: readTotals(childAt(root, 'LegalMonetaryTotal'), mainTaxTotal, inTaxCurrency, reader),
    notes: childrenNamed(root, 'Note')
      .map(textOf)
      .filter((note): note is string => note !== null),
  });
  return { kind: 'invoice', invoice, format, warnings: reader.allWarnings() };
}

function ublFormatOf(root: XmlElement, reader: FieldReader): InvoiceFormat {
  const customization = textAt(root, 'CustomizationID') ?? '';
  if (EHF_2_CUSTOMIZATION.test(customization)) return 'ehf_2';
  if (!EN16931_CUSTOMIZATION.test(customization)) {
    reader.warn(
      `CustomizationID "${customization}" is neither Peppol BIS 3 / EN 16931 nor EHF 2.0; read as generic UBL 2.1.`,
    );
  }
  return 'peppol_bis_3';
}

/**
 * With a separate tax currency the document carries two TaxTotal elements; only the one in
 * the document currency has the VAT breakdown (Peppol rule BR-53 / UBL-SR-08).
 */
function pickTaxTotals(root: XmlElement, currency: string | null, taxCurrency: string | null) {
  const taxTotals = childrenNamed(root, 'TaxTotal');
  const currencyOf = (taxTotal: XmlElement) => attributeOf(childAt(taxTotal, 'TaxAmount'), 'currencyID');
  const main =
    taxTotals.find((taxTotal) => currency !== null && currencyOf(taxTotal) === currency) ??
    taxTotals.find((taxTotal) => childAt(taxTotal, 'TaxSubtotal') !== undefined) ??
    taxTotals[0];
  const inTaxCurrency =
    taxCurrency !== null && taxCurrency !== currency
      ? taxTotals.find((taxTotal) => currencyOf(taxTotal) === taxCurrency)
      : undefined;
  return { main, inTaxCurrency };
}

function readParty(party: XmlElement | undefined): Party {
  const legalEntity = childAt(party, 'PartyLegalEntity');
  const legalName = textAt(legalEntity, 'RegistrationName');
  const address = readAddress(childAt(party, 'PostalAddress'));
  return {
    name: textAt(party, 'PartyName', 'Name') ?? legalName,
    legalName,
    orgNumber: textAt(legalEntity, 'CompanyID'),
    vatId: readVatId(party),
    countryCode: address?.countryCode ?? null,
    address,
  };
}

/** A party may be registered for several tax schemes; only the VAT one is its VAT id. */
function readVatId(party: XmlElement | undefined): string | null {
  const vatScheme = childrenNamed(party, 'PartyTaxScheme').find(
    (scheme) => textAt(scheme, 'TaxScheme', 'ID')?.toUpperCase() === 'VAT',
  );
  return textAt(vatScheme, 'CompanyID');
}

function readAddress(address: XmlElement | undefined): Address | null {
  if (!address) return null;
  const lines = [
    textAt(address, 'StreetName'),
    textAt(address, 'AdditionalStreetName'),
    ...allAt(address, 'AddressLine', 'Line').map(textOf),
  ].filter((line): line is string => line !== null);
  return {
    lines,
    city: textAt(address, 'CityName'),
    postalCode: textAt(address, 'PostalZone'),
    countryCode: textAt(address, 'Country', 'IdentificationCode'),
  };
}

function readPeriod(period: XmlElement | undefined, reader: FieldReader): Period | null {
  if (!period) return null;
  return {
    start: reader.isoDate(childAt(period, 'StartDate'), 'InvoicePeriod/StartDate'),
    end: reader.isoDate(childAt(period, 'EndDate'), 'InvoicePeriod/EndDate'),
  };
}

function readExchangeRate(exchange: XmlElement | undefined, reader: FieldReader): ExchangeRate | null {
  if (!exchange) return null;
  const operator = textAt(exchange, 'MathematicOperatorCode');
  if (operator !== null && operator.toLowerCase() !== 'multiply') {
    reader.warn(`Exchange rate operator "${operator}": the rate is given as written, not inverted.`);
  }
  return {
    sourceCurrencyCode: textAt(exchange, 'SourceCurrencyCode'),
    targetCurrencyCode: textAt(exchange, 'TargetCurrencyCode'),
    rate: reader.decimal(childAt(exchange, 'CalculationRate'), 'CalculationRate'),
  };
}

function readCreditedInvoice(root: XmlElement, reader: FieldReader): string | null {
  const references = childrenNamed(root, 'BillingReference')
    .map((reference) => textAt(reference, 'InvoiceDocumentReference', 'ID'))
    .filter((id): id is string => id !== null);
  if (references.length > 1) {
    reader.warn(
      `The document references ${references.length} invoices (${references.join(', ')}); creditedInvoiceReference holds the first.`,
    );
  }
  return references[0] ?? null;
}

function readTaxSubtotal(subtotal: XmlElement, reader: FieldReader): VatBreakdownEntry {
  const category = childAt(subtotal, 'TaxCategory');
  return {
    category: textAt(category, 'ID'),
    vatPercent: reader.decimal(childAt(category, 'Percent'), 'TaxSubtotal/Percent'),
    taxableAmount: reader.decimal(childAt(subtotal, 'TaxableAmount'), 'TaxSubtotal/TaxableAmount'),
    taxAmount: reader.decimal(childAt(subtotal, 'TaxAmount'), 'TaxSubtotal/TaxAmount'),
  };
}

function readAllowanceCharge(element: XmlElement, reader: FieldReader): AllowanceCharge {
  const category = childAt(element, 'TaxCategory');
  return {
    isCharge: textAt(element, 'ChargeIndicator')?.toLowerCase() === 'true',
    amount: reader.decimal(childAt(element, 'Amount'), 'AllowanceCharge/Amount'),
    baseAmount: reader.decimal(childAt(element, 'BaseAmount'), 'AllowanceCharge/BaseAmount'),
    reason: textAt(element, 'AllowanceChargeReason'),
    reasonCode: textAt(element, 'AllowanceChargeReasonCode'),
    vatCategory: textAt(category, 'ID'),
    vatPercent: reader.decimal(childAt(category, 'Percent'), 'AllowanceCharge/Percent'),
  };
}

function readLine(line: XmlElement, vocabulary: UblVocabulary, reader: FieldReader): InvoiceLine {
  const item = childAt(line, 'Item');
  const price = childAt(line, 'Price');
  const quantity = childAt(line, vocabulary.quantity);
  const taxCategory = childAt(item, 'ClassifiedTaxCategory');
  return {
    id: textAt(line, 'ID'),
    description: textAt(item, 'Name') ?? textAt(item, 'Description'),
    sellerItemId: textAt(item, 'SellersItemIdentification', 'ID'),
    buyerItemId: textAt(item, 'BuyersItemIdentification', 'ID'),
    standardItemId: textAt(item, 'StandardItemIdentification', 'ID'),
    quantity: reader.decimal(quantity, vocabulary.quantity),
    unitCode: attributeOf(quantity, 'unitCode'),
    unitPrice: reader.decimal(childAt(price, 'PriceAmount'), 'Price/PriceAmount'),
    priceBaseQuantity: reader.decimal(childAt(price, 'BaseQuantity'), 'Price/BaseQuantity'),
    netAmount: reader.decimal(childAt(line, 'LineExtensionAmount'), `${vocabulary.line}/LineExtensionAmount`),
    vatCategory: textAt(taxCategory, 'ID'),
    vatPercent: reader.decimal(childAt(taxCategory, 'Percent'), 'ClassifiedTaxCategory/Percent'),
    period: readPeriod(childAt(line, 'InvoicePeriod'), reader),
    allowanceCharges: childrenNamed(line, 'AllowanceCharge').map((element) => readAllowanceCharge(element, reader)),
  };
}

function readTotals(
  monetary: XmlElement | undefined,
  mainTaxTotal: XmlElement | undefined,
  taxTotalInTaxCurrency: XmlElement | undefined,
  reader: FieldReader,
): InvoiceTotals {
  const amount = (name: string) => reader.decimal(childAt(monetary, name), `LegalMonetaryTotal/${name}`);
  return {
    lineExtension: amount('LineExtensionAmount'),
    taxExclusive: amount('TaxExclusiveAmount'),
    taxInclusive: amount('TaxInclusiveAmount'),
    allowanceTotal: amount('AllowanceTotalAmount'),
    chargeTotal: amount('ChargeTotalAmount'),
    prepaid: amount('PrepaidAmount'),
    payableRounding: amount('PayableRoundingAmount'),
    payable: amount('PayableAmount'),
    vatTotal: reader.decimal(childAt(mainTaxTotal, 'TaxAmount'), 'TaxTotal/TaxAmount'),
    vatTotalInTaxCurrency: reader.decimal(
      childAt(taxTotalInTaxCurrency, 'TaxAmount'),
      'TaxTotal/TaxAmount (tax currency)',
    ),
  };
}
