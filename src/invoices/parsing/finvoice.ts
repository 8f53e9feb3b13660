/**
 * Finvoice 3.0 (Finnish e-invoice). Element names carry the party role as a prefix
 * (SellerStreetName, BuyerStreetName, DeliveryStreetName), amounts use a decimal comma, dates
 * are CCYYMMDD with a Format attribute, and credit notes are written with negative amounts.
 */
import { isNegative } from './decimal.js';
import { documentTypeFrom, withStructuredExtraction } from './document-rules.js';
import { FieldReader } from './field-reader.js';
import type {
  Address,
  AllowanceCharge,
  DocumentType,
  InvoiceLine,
  InvoiceOutcome,
  InvoiceTotals,
  Party,
  Period,
  VatBreakdownEntry,
} from './model.js';
import { attributeOf, childAt, childrenNamed, firstOf, textAt, textOf, type XmlElement } from './xml-tree.js';

type PartyRole = 'Seller' | 'Buyer' | 'Delivery';

/** Finvoice's own code for a credit note ("hyvityslasku"). */
const FINVOICE_CREDIT_NOTE_CODE = 'INV02';

export function readFinvoice(root: XmlElement): InvoiceOutcome {
  const reader = new FieldReader();
  warnOnUnexpectedVersion(root, reader);
  const details = childAt(root, 'InvoiceDetails');
  const currencyCode = readCurrency(root, details);
  const totals = readTotals(root, details, reader);
  const deliveryAddress = readAddress(
    childAt(root, 'DeliveryPartyDetails', 'DeliveryPostalAddressDetails'),
    'Delivery',
  );

  const invoice = withStructuredExtraction({
    documentType: readDocumentType(details, totals, reader),
    typeCode: textAt(details, 'InvoiceTypeCode'),
    invoiceNumber: textAt(details, 'InvoiceNumber'),
    issueDate: reader.compactDate(childAt(details, 'InvoiceDate'), 'InvoiceDate', 'Format'),
    dueDate: reader.compactDate(childAt(details, 'PaymentTermsDetails', 'InvoiceDueDate'), 'InvoiceDueDate', 'Format'),
    currencyCode,
    taxCurrencyCode: null,
    exchangeRate: null,
    supplier: readParty(root, 'Seller'),
    recipient: readParty(root, 'Buyer'),
    buyerReference: textAt(details, 'BuyerReferenceIdentifier'),
    orderReference: textAt(details, 'OrderIdentifier'),
    contractReference: textAt(details, 'AgreementIdentifier'),
    creditedInvoiceReference: textOf(
      firstOf(details, ['OriginalInvoiceNumber'], ['OriginalInvoiceReference', 'InvoiceNumber']),
    ),
    deliveryAddress,
    deliveryCountryCode: deliveryAddress?.countryCode ?? null,
    deliveryDate: reader.compactDate(childAt(root, 'DeliveryDetails', 'DeliveryDate'), 'DeliveryDate', 'Format'),
    invoicePeriod: readPeriod(
      childAt(details, 'InvoicingPeriodStartDate'),
      childAt(details, 'InvoicingPeriodEndDate'),
      reader,
    ),
    lines: childrenNamed(root, 'InvoiceRow').map((row) => readRow(row, reader)),
    allowanceCharges: [
      ...childrenNamed(details, 'DiscountDetails').map((element) =>
        readAllowanceCharge(element, false, currencyCode, reader),
      ),
      ...childrenNamed(details, 'ChargeDetails').map((element) =>
        readAllowanceCharge(element, true, currencyCode, reader),
      ),
    ],
    vatBreakdown: childrenNamed(details, 'VatSpecificationDetails').map((element) =>
      readVatSpecification(element, reader),
    ),
    totals,
    notes: childrenNamed(details, 'InvoiceFreeText')
      .map(textOf)
      .filter((note): note is string => note !== null),
  });
  return { kind: 'invoice', invoice, format: 'finvoice_3', warnings: reader.allWarnings() };
}

function warnOnUnexpectedVersion(root: XmlElement, reader: FieldReader): void {
  const version = attributeOf(root, 'Version');
  if (version !== null && !version.startsWith('3.')) {
    reader.warn(`Finvoice version ${version} was read with the Finvoice 3.0 rules.`);
  }
}

/** Finvoice has no document currency element; every amount carries AmountCurrencyIdentifier. */
function readCurrency(root: XmlElement, details: XmlElement | undefined): string | null {
  const candidates = [
    childAt(details, 'InvoiceTotalVatIncludedAmount'),
    childAt(details, 'InvoiceTotalVatExcludedAmount'),
    childAt(root, 'EpiDetails', 'EpiPaymentInstructionDetails', 'EpiInstructedAmount'),
  ];
  for (const amount of candidates) {
    const currency = attributeOf(amount, 'AmountCurrencyIdentifier');
    if (currency !== null) return currency;
  }
  return null;
}

/**
 * INV02 (or a UN credit note code) makes a credit note. Without any type code, a negative
 * total is the Finvoice convention for a credit note.
 */
function readDocumentType(details: XmlElement | undefined, totals: InvoiceTotals, reader: FieldReader): DocumentType {
  const typeCode = textAt(details, 'InvoiceTypeCode');
  if (typeCode === FINVOICE_CREDIT_NOTE_CODE) return 'credit_note';
  const fromUnCode = documentTypeFrom(textAt(details, 'InvoiceTypeCodeUN'), 'invoice');
  if (fromUnCode === 'credit_note' || typeCode !== null) return fromUnCode;
  if (isNegative(totals.taxInclusive)) {
    reader.warn('No invoice type code; the negative total marks this document as a credit note.');
    return 'credit_note';
  }
  return 'invoice';
}

function readParty(root: XmlElement, role: 'Seller' | 'Buyer'): Party {
  const details = childAt(root, `${role}PartyDetails`);
  // Finvoice's OrganisationName is the registered name; the trading name is a separate element.
  const name = textAt(details, `${role}OrganisationName`);
  const address = readAddress(childAt(details, `${role}PostalAddressDetails`), role);
  return {
    name,
    legalName: name,
    orgNumber: textAt(details, `${role}PartyIdentifier`),
    vatId: textAt(details, `${role}OrganisationTaxCode`),
    countryCode: address?.countryCode ?? null,
    address,
  };
}

function readAddress(address: XmlElement | undefined, role: PartyRole): Address | null {
  if (!address) return null;
  return {
    lines: childrenNamed(address, `${role}StreetName`)
      .map(textOf)
      .filter((line): line is string => line !== null),
    city: textAt(address, `${role}TownName`),
    postalCode: textAt(address, `${role}PostCodeIdentifier`),
    countryCode: textAt(address, 'CountryCode'),
  };
}

function readPeriod(start: XmlElement | undefined, end: XmlElement | undefined, reader: FieldReader): Period | null {
  if (!start && !end) return null;
  return {
    start: reader.compactDate(start, 'period start', 'Format'),
    end: reader.compactDate(end, 'period end', 'Format'),
  };
}

function readVatSpecification(element: XmlElement, reader: FieldReader): VatBreakdownEntry {
  return {
    category: textAt(element, 'VatCode'),
    vatPercent: reader.decimal(childAt(element, 'VatRatePercent'), 'VatRatePercent'),
    taxableAmount: reader.decimal(childAt(element, 'VatBaseAmount'), 'VatBaseAmount'),
    taxAmount: reader.decimal(childAt(element, 'VatRateAmount'), 'VatRateAmount'),
  };
}

function readAllowanceCharge(
  element: XmlElement,
  isCharge: boolean,
  currencyCode: string | null,
  reader: FieldReader,
): AllowanceCharge {
  const amount = childAt(element, 'Amount');
  const amountCurrency = attributeOf(amount, 'AmountCurrencyIdentifier');
  if (amountCurrency !== null && currencyCode !== null && amountCurrency !== currencyCode) {
    reader.warn(
      `A ${isCharge ? 'charge' : 'discount'} amount is in ${amountCurrency}, not the invoice currency ${currencyCode}.`,
    );
  }
  return {
    isCharge,
    amount: reader.decimal(amount, `${element.name}/Amount`),
    baseAmount: reader.decimal(childAt(element, 'BaseAmount'), `${element.name}/BaseAmount`),
    reason: textAt(element, 'ReasonText') ?? textAt(element, 'FreeText'),
    reasonCode: textAt(element, 'ReasonCode'),
    vatCategory: textAt(element, 'VatCategoryCode'),
    vatPercent: reader.decimal(childAt(element, 'VatRatePercent'), `${element.name}/VatRatePercent`),
  };
}

function readRow(row: XmlElement, reader: FieldReader): InvoiceLine {
  const quantity = childAt(row, 'InvoicedQuantity');
  const freeText = childrenNamed(row, 'RowFreeText')
    .map(textOf)
    .filter((text): text is string => text !== null);
  return {
    id: textAt(row, 'RowPositionIdentifier'),
    description: textAt(row, 'ArticleName') ?? (freeText.length > 0 ? freeText.join('\n') : null),
    sellerItemId: textAt(row, 'ArticleIdentifier'),
    buyerItemId: textAt(row, 'BuyerArticleIdentifier'),
    standardItemId: textAt(row, 'EanCode'),
    quantity: reader.decimal(quantity, 'InvoicedQuantity'),
    unitCode: attributeOf(quantity, 'QuantityUnitCodeUN') ?? attributeOf(quantity, 'QuantityUnitCode'),
    // The net unit price (after row discounts) is EN 16931's item net price; the plain unit
    // price is the fallback when no net price is given.
    unitPrice: reader.decimal(childAt(row, 'UnitPriceNetAmount') ?? childAt(row, 'UnitPriceAmount'), 'UnitPriceAmount'),
    priceBaseQuantity: reader.decimal(childAt(row, 'UnitPriceBaseQuantity'), 'UnitPriceBaseQuantity'),
    netAmount: reader.decimal(childAt(row, 'RowVatExcludedAmount'), 'RowVatExcludedAmount'),
    vatCategory: textAt(row, 'RowVatCode'),
    vatPercent: reader.decimal(childAt(row, 'RowVatRatePercent'), 'RowVatRatePercent'),
    period: readPeriod(childAt(row, 'StartDate'), childAt(row, 'EndDate'), reader),
    allowanceCharges: readRowAllowanceCharges(row, reader),
  };
}

/** Row discount, progressive discounts and row charges, in that order. */
function readRowAllowanceCharges(row: XmlElement, reader: FieldReader): AllowanceCharge[] {
  const discounts = [row, ...childrenNamed(row, 'RowProgressiveDiscountDetails')]
    .filter(
      (holder) =>
        childAt(holder, 'RowDiscountAmount') !== undefined || childAt(holder, 'RowDiscountPercent') !== undefined,
    )
    .map((holder) =>
      rowAllowanceCharge(false, holder, 'RowDiscountAmount', 'RowDiscountTypeText', 'RowDiscountTypeCode', reader),
    );
  const charges = childrenNamed(row, 'RowChargeDetails').map((holder) =>
    rowAllowanceCharge(true, holder, 'Amount', 'ReasonText', 'ReasonCode', reader),
  );
  return [...discounts, ...charges];
}

function rowAllowanceCharge(
  isCharge: boolean,
  holder: XmlElement,
  amountName: string,
  reasonName: string,
  reasonCodeName: string,
  reader: FieldReader,
): AllowanceCharge {
  return {
    isCharge,
    amount: reader.decimal(childAt(holder, amountName), amountName),
    baseAmount: reader.decimal(childAt(holder, 'BaseAmount'), 'BaseAmount'),
    reason: textAt(holder, reasonName),
    reasonCode: textAt(holder, reasonCodeName),
    vatCategory: null,
    vatPercent: null,
  };
}

function readTotals(root: XmlElement, details: XmlElement | undefined, reader: FieldReader): InvoiceTotals {
  const amount = (name: string) => reader.decimal(childAt(details, name), name);
  return {
    lineExtension: amount('RowsTotalVatExcludedAmount'),
    taxExclusive: amount('InvoiceTotalVatExcludedAmount'),
    taxInclusive: amount('InvoiceTotalVatIncludedAmount'),
    allowanceTotal: amount('DiscountsTotalVatExcludedAmount'),
    chargeTotal: amount('ChargesTotalVatExcludedAmount'),
    prepaid: amount('InvoicePaidAmount'),
    payableRounding: amount('InvoiceTotalRoundoffAmount'),
    payable: reader.decimal(
      childAt(root, 'EpiDetails', 'EpiPaymentInstructionDetails', 'EpiInstructedAmount'),
      'EpiInstructedAmount',
    ),
    vatTotal: amount('InvoiceTotalVatAmount'),
    vatTotalInTaxCurrency: null,
  };
}
