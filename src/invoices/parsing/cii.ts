/**
 * UN/CEFACT Cross Industry Invoice: Factur-X / ZUGFeRD 2.x / XRechnung CII
 * (rsm:CrossIndustryInvoice) and the older ZUGFeRD 1.0 (rsm:CrossIndustryDocument), which
 * uses the same leaf names under differently named containers.
 */
import { documentTypeFrom, fillLineVatPercents, withStructuredExtraction } from './document-rules.js';
import { FieldReader } from './field-reader.js';
import type {
  Address,
  AllowanceCharge,
  ExchangeRate,
  InvoiceLine,
  InvoiceOutcome,
  InvoiceTotals,
  Party,
  Period,
  VatBreakdownEntry,
} from './model.js';
import { attributeOf, childAt, childrenNamed, firstOf, textAt, type XmlElement } from './xml-tree.js';

/** Container names that changed between ZUGFeRD 1.0 and CII D16B (ZUGFeRD 2.x / Factur-X). */
interface CiiVocabulary {
  document: string;
  transaction: string;
  agreement: string;
  delivery: string;
  settlement: string;
  summation: string;
  lineAgreement: string;
  lineDelivery: string;
  lineSettlement: string;
  lineSummation: string;
}

const CII_D16B: CiiVocabulary = {
  document: 'ExchangedDocument',
  transaction: 'SupplyChainTradeTransaction',
  agreement: 'ApplicableHeaderTradeAgreement',
  delivery: 'ApplicableHeaderTradeDelivery',
  settlement: 'ApplicableHeaderTradeSettlement',
  summation: 'SpecifiedTradeSettlementHeaderMonetarySummation',
  lineAgreement: 'SpecifiedLineTradeAgreement',
  lineDelivery: 'SpecifiedLineTradeDelivery',
  lineSettlement: 'SpecifiedLineTradeSettlement',
  lineSummation: 'SpecifiedTradeSettlementLineMonetarySummation',
};

const ZUGFERD_1: CiiVocabulary = {
  document: 'HeaderExchangedDocument',
  transaction: 'SpecifiedSupplyChainTradeTransaction',
  agreement: 'ApplicableSupplyChainTradeAgreement',
  delivery: 'ApplicableSupplyChainTradeDelivery',
  settlement: 'ApplicableSupplyChainTradeSettlement',
  summation: 'SpecifiedTradeSettlementMonetarySummation',
  lineAgreement: 'SpecifiedSupplyChainTradeAgreement',
  lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
  lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
  lineSummation: 'SpecifiedTradeSettlementMonetarySummation',
};

export function readCii(root: XmlElement): InvoiceOutcome {
  const reader = new FieldReader();
  const names = root.name === 'CrossIndustryDocument' ? ZUGFERD_1 : CII_D16B;
  const document = childAt(root, names.document);
  const transaction = childAt(root, names.transaction);
  const agreement = childAt(transaction, names.agreement);
  const delivery = childAt(transaction, names.delivery);
  const settlement = childAt(transaction, names.settlement);
  const currencyCode = textAt(settlement, 'InvoiceCurrencyCode');
  const taxCurrencyCode = textAt(settlement, 'TaxCurrencyCode');
  const typeCode = textAt(document, 'TypeCode');
  const vatBreakdown = childrenNamed(settlement, 'ApplicableTradeTax').map((tax) => readTradeTax(tax, reader));
  const lines = childrenNamed(transaction, 'IncludedSupplyChainTradeLineItem').map((line) =>
    readLine(line, names, reader),
  );
  const deliveryAddress = readAddress(childAt(delivery, 'ShipToTradeParty', 'PostalTradeAddress'));

  const invoice = withStructuredExtraction({
    documentType: documentTypeFrom(typeCode, 'invoice'),
    typeCode,
    invoiceNumber: textAt(document, 'ID'),
    issueDate: readDateTime(childAt(document, 'IssueDateTime'), 'IssueDateTime', reader),
    dueDate: readDateTime(
      childAt(settlement, 'SpecifiedTradePaymentTerms', 'DueDateDateTime'),
      'DueDateDateTime',
      reader,
    ),
    currencyCode,
    taxCurrencyCode,
    exchangeRate: readExchangeRate(childAt(settlement, 'TaxApplicableTradeCurrencyExchange'), reader),
    supplier: readParty(childAt(agreement, 'SellerTradeParty')),
    recipient: readParty(childAt(agreement, 'BuyerTradeParty')),
    buyerReference: textAt(agreement, 'BuyerReference'),
    orderReference: textAt(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID'),
    contractReference: textAt(agreement, 'ContractReferencedDocument', 'IssuerAssignedID'),
    creditedInvoiceReference: textAt(settlement, 'InvoiceReferencedDocument', 'IssuerAssignedID'),
    deliveryAddress,
    deliveryCountryCode: deliveryAddress?.countryCode ?? null,
    deliveryDate: readDateTime(
      childAt(delivery, 'ActualDeliverySupplyChainEvent', 'OccurrenceDateTime'),
      'OccurrenceDateTime',
      reader,
    ),
    invoicePeriod: readPeriod(childAt(settlement, 'BillingSpecifiedPeriod'), reader),
    lines: fillLineVatPercents(lines, vatBreakdown),
    allowanceCharges: childrenNamed(settlement, 'SpecifiedTradeAllowanceCharge').map((element) =>
      readAllowanceCharge(element, reader),
    ),
    vatBreakdown,
    totals: readTotals(childAt(settlement, names.summation), currencyCode, taxCurrencyCode, reader),
    notes: childrenNamed(document, 'IncludedNote')
      .map((note) => textAt(note, 'Content'))
      .filter((note): note is string => note !== null),
  });
  return { kind: 'invoice', invoice, format: 'cii', warnings: reader.allWarnings() };
}

/** CII wraps every date in a udt:DateTimeString with a format code (102 = CCYYMMDD). */
function readDateTime(holder: XmlElement | undefined, field: string, reader: FieldReader) {
  return reader.compactDate(childAt(holder, 'DateTimeString'), field, 'format');
}

/** ZUGFeRD 1.0 calls the rate ApplicablePercent; CII D16B calls it RateApplicablePercent. */
function ratePercentOf(tax: XmlElement | undefined): XmlElement | undefined {
  return firstOf(tax, ['RateApplicablePercent'], ['ApplicablePercent']);
}

function readParty(party: XmlElement | undefined): Party {
  const address = readAddress(childAt(party, 'PostalTradeAddress'));
  // CII's party Name is the registered name (EN 16931 BT-27); the trading name is optional.
  const name = textAt(party, 'Name');
  return {
    name,
    legalName: name,
    orgNumber: textAt(party, 'SpecifiedLegalOrganization', 'ID'),
    vatId: readVatId(party),
    countryCode: address?.countryCode ?? null,
    address,
  };
}

/** schemeID "VA" marks the VAT number; "FC" is a national tax number. */
function readVatId(party: XmlElement | undefined): string | null {
  const registration = childrenNamed(party, 'SpecifiedTaxRegistration').find(
    (candidate) => attributeOf(childAt(candidate, 'ID'), 'schemeID')?.toUpperCase() === 'VA',
  );
  return textAt(registration, 'ID');
}

function readAddress(address: XmlElement | undefined): Address | null {
  if (!address) return null;
  return {
    lines: ['LineOne', 'LineTwo', 'LineThree']
      .map((name) => textAt(address, name))
      .filter((line): line is string => line !== null),
    city: textAt(address, 'CityName'),
    postalCode: textAt(address, 'PostcodeCode'),
    countryCode: textAt(address, 'CountryID'),
  };
}

function readPeriod(period: XmlElement | undefined, reader: FieldReader): Period | null {
  if (!period) return null;
  return {
    start: readDateTime(childAt(period, 'StartDateTime'), 'BillingSpecifiedPeriod/StartDateTime', reader),
    end: readDateTime(childAt(period, 'EndDateTime'), 'BillingSpecifiedPeriod/EndDateTime', reader),
  };
}

function readExchangeRate(exchange: XmlElement | undefined, reader: FieldReader): ExchangeRate | null {
  if (!exchange) return null;
  return {
    sourceCurrencyCode: textAt(exchange, 'SourceCurrencyCode'),
    targetCurrencyCode: textAt(exchange, 'TargetCurrencyCode'),
    rate: reader.decimal(childAt(exchange, 'ConversionRate'), 'ConversionRate'),
  };
}

function readTradeTax(tax: XmlElement, reader: FieldReader): VatBreakdownEntry {
  return {
    category: textAt(tax, 'CategoryCode'),
    vatPercent: reader.decimal(ratePercentOf(tax), 'ApplicableTradeTax/RateApplicablePercent'),
    taxableAmount: reader.decimal(childAt(tax, 'BasisAmount'), 'ApplicableTradeTax/BasisAmount'),
    taxAmount: reader.decimal(childAt(tax, 'CalculatedAmount'), 'ApplicableTradeTax/CalculatedAmount'),
  };
}

function readAllowanceCharge(element: XmlElement, reader: FieldReader): AllowanceCharge {
  const tax = childAt(element, 'CategoryTradeTax');
  return {
    isCharge: textAt(element, 'ChargeIndicator', 'Indicator')?.toLowerCase() === 'true',
    amount: reader.decimal(childAt(element, 'ActualAmount'), 'SpecifiedTradeAllowanceCharge/ActualAmount'),
    baseAmount: reader.decimal(childAt(element, 'BasisAmount'), 'SpecifiedTradeAllowanceCharge/BasisAmount'),
    reason: textAt(element, 'Reason'),
    reasonCode: textAt(element, 'ReasonCode'),
    vatCategory: textAt(tax, 'CategoryCode'),
    vatPercent: reader.decimal(ratePercentOf(tax), 'CategoryTradeTax/RateApplicablePercent'),
  };
}

function readLine(line: XmlElement, names: CiiVocabulary, reader: FieldReader): InvoiceLine {
  const product = childAt(line, 'SpecifiedTradeProduct');
  const netPrice = childAt(line, names.lineAgreement, 'NetPriceProductTradePrice');
  const quantity = childAt(line, names.lineDelivery, 'BilledQuantity');
  const settlement = childAt(line, names.lineSettlement);
  const tax = childAt(settlement, 'ApplicableTradeTax');
  return {
    id: textAt(line, 'AssociatedDocumentLineDocument', 'LineID'),
    description: textAt(product, 'Name') ?? textAt(product, 'Description'),
    sellerItemId: textAt(product, 'SellerAssignedID'),
    buyerItemId: textAt(product, 'BuyerAssignedID'),
    standardItemId: textAt(product, 'GlobalID'),
    quantity: reader.decimal(quantity, 'BilledQuantity'),
    unitCode: attributeOf(quantity, 'unitCode'),
    unitPrice: reader.decimal(childAt(netPrice, 'ChargeAmount'), 'NetPriceProductTradePrice/ChargeAmount'),
    priceBaseQuantity: reader.decimal(childAt(netPrice, 'BasisQuantity'), 'NetPriceProductTradePrice/BasisQuantity'),
    netAmount: reader.decimal(childAt(settlement, names.lineSummation, 'LineTotalAmount'), 'LineTotalAmount'),
    vatCategory: textAt(tax, 'CategoryCode'),
    vatPercent: reader.decimal(ratePercentOf(tax), 'line RateApplicablePercent'),
    period: readPeriod(childAt(settlement, 'BillingSpecifiedPeriod'), reader),
    allowanceCharges: childrenNamed(settlement, 'SpecifiedTradeAllowanceCharge').map((element) =>
      readAllowanceCharge(element, reader),
    ),
  };
}

function readTotals(
  summation: XmlElement | undefined,
  currency: string | null,
  taxCurrency: string | null,
  reader: FieldReader,
): InvoiceTotals {
  const amount = (name: string) => reader.decimal(childAt(summation, name), name);
  const { main, inTaxCurrency } = pickTaxTotalAmounts(summation, currency, taxCurrency);
  return {
    lineExtension: amount('LineTotalAmount'),
    taxExclusive: amount('TaxBasisTotalAmount'),
    taxInclusive: amount('GrandTotalAmount'),
    allowanceTotal: amount('AllowanceTotalAmount'),
    chargeTotal: amount('ChargeTotalAmount'),
    prepaid: amount('TotalPrepaidAmount'),
    payableRounding: amount('RoundingAmount'),
    payable: amount('DuePayableAmount'),
    vatTotal: reader.decimal(main, 'TaxTotalAmount'),
    vatTotalInTaxCurrency: reader.decimal(inTaxCurrency, 'TaxTotalAmount (tax currency)'),
  };
}

/** With a tax currency, TaxTotalAmount appears twice, told apart by currencyID. */
function pickTaxTotalAmounts(summation: XmlElement | undefined, currency: string | null, taxCurrency: string | null) {
  const amounts = childrenNamed(summation, 'TaxTotalAmount');
  const currencyOf = (amount: XmlElement) => attributeOf(amount, 'currencyID');
  const main =
    amounts.find((amount) => currencyOf(amount) === currency) ??
    amounts.find((amount) => currencyOf(amount) === null) ??
    amounts[0];
  const inTaxCurrency =
    taxCurrency !== null && taxCurrency !== currency
      ? amounts.find((amount) => currencyOf(amount) === taxCurrency)
      : undefined;
  return { main, inTaxCurrency };
}
