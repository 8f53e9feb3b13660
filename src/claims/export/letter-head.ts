import { clip, COLOR, CONTENT_WIDTH, MARGIN, type PdfLayout, type StackedLine } from './pdf-layout.js';
import { MAX_ADDRESS_LINES, MAX_FIELD_CHARS, showLongDate, showPeriod } from './format.js';
import type { ClaimLetter, ClaimLetterParty } from './letter.js';

// The claim letter's head: letterhead, addressee and date, subject, the reference to quote, the
// agreement.

export function writeParties(pdf: PdfLayout, letter: ClaimLetter): void {
  const { organization, supplier, supplierContact } = letter;
  // Letterhead: the sender's name on the left, its address and identifiers on the right. Each
  // block has a bounded height, so the head never pushes the letter off its first page.
  const top = pdf.y;
  const detailsWidth = 230;
  const nameHeight = pdf.place(
    clip(organization.name, MAX_FIELD_CHARS),
    MARGIN.left,
    top,
    CONTENT_WIDTH - detailsWidth - 10,
    'bold',
    14,
    COLOR.accent,
    'left',
    52,
  );
  const details = partyDetails(organization).map((text): StackedLine => ({
    text,
    font: 'regular',
    size: 8,
    color: COLOR.muted,
  }));
  const detailsBottom = pdf.stack(
    details,
    MARGIN.left + CONTENT_WIDTH - detailsWidth,
    top + 1,
    detailsWidth,
    top + 100,
    'right',
  );
  let y = Math.max(top + nameHeight, detailsBottom) + 8;
  pdf.doc
    .save()
    .moveTo(MARGIN.left, y)
    .lineTo(MARGIN.left + CONTENT_WIDTH, y)
    .lineWidth(0.8)
    .strokeColor(COLOR.accent)
    .stroke()
    .restore();
  y += 18;

  // The addressee on the left, the date on the right, as on any business letter.
  const addressTop = y;
  const addressee: StackedLine[] = [
    { text: 'To', font: 'regular', size: 7.5, color: COLOR.muted, gapAfter: 3.5 },
    { text: clip(supplier.name, MAX_FIELD_CHARS), font: 'bold', size: 11, gapAfter: 2 },
    ...(supplierContact?.name
      ? [{ text: `Attn. ${clip(supplierContact.name, MAX_FIELD_CHARS)}`, font: 'regular' as const, size: 9.5 }]
      : []),
    ...addressLines(supplier).map((text): StackedLine => ({ text, font: 'regular', size: 9.5 })),
    ...partyIdentifiers(supplier).map((text): StackedLine => ({
      text,
      font: 'regular',
      size: 8,
      color: COLOR.muted,
    })),
    ...(supplierContact?.email
      ? [
          {
            text: clip(supplierContact.email, MAX_FIELD_CHARS),
            font: 'regular' as const,
            size: 8,
            color: COLOR.muted,
          },
        ]
      : []),
  ];
  y = pdf.stack(addressee, MARGIN.left, y, 300, addressTop + 190);

  const dateX = MARGIN.left + CONTENT_WIDTH - 170;
  pdf.place('Date', dateX, addressTop, 170, 'regular', 7.5, COLOR.muted, 'right');
  pdf.place(showLongDate(letter.generatedAt), dateX, addressTop + 11, 170, 'bold', 9.5, COLOR.text, 'right');
  pdf.y = Math.max(y, addressTop + 30) + 22;
}

export function writeSubjectAndReference(pdf: PdfLayout, letter: ClaimLetter): void {
  pdf.y +=
    pdf.place(
      `Claim: ${clip(letter.title, MAX_FIELD_CHARS)}`,
      MARGIN.left,
      pdf.y,
      CONTENT_WIDTH,
      'bold',
      15,
      COLOR.text,
      'left',
      56,
    ) + 10;

  // The reference is what the supplier must copy onto its credit note: a band of its own.
  const bandHeight = 44;
  pdf.doc.save().rect(MARGIN.left, pdf.y, CONTENT_WIDTH, bandHeight).fill(COLOR.band).restore();
  pdf.doc.save().rect(MARGIN.left, pdf.y, 3, bandHeight).fill(COLOR.accent).restore();
  pdf.place(
    'Reference to quote on your credit note and in every reply',
    MARGIN.left + 14,
    pdf.y + 7,
    320,
    'regular',
    7.5,
    COLOR.muted,
  );
  pdf.place(letter.reference, MARGIN.left + 14, pdf.y + 18, CONTENT_WIDTH - 28, 'bold', 16, COLOR.accent, 'left', 20);
  pdf.y += bandHeight + 12;

  const period = showPeriod(letter.agreement.startDate, letter.agreement.endDate);
  const agreement = `Agreement: ${clip(letter.agreement.title, MAX_FIELD_CHARS)}${period ? ` (${period})` : ''}`;
  pdf.y += pdf.place(agreement, MARGIN.left, pdf.y, CONTENT_WIDTH, 'regular', 9.5, COLOR.text, 'left', 36) + 14;
}

/** Address, organization number and VAT id of a party, as separate printed lines. */
function partyDetails(party: ClaimLetterParty): string[] {
  return [...addressLines(party), ...partyIdentifiers(party)];
}

function addressLines(party: ClaimLetterParty): string[] {
  return party.address.slice(0, MAX_ADDRESS_LINES).map((line) => clip(line, MAX_FIELD_CHARS));
}

function partyIdentifiers(party: ClaimLetterParty): string[] {
  const ids = [
    party.organizationNumber ? `Org. no. ${clip(party.organizationNumber, MAX_FIELD_CHARS)}` : null,
    party.vatId ? `VAT ${clip(party.vatId, MAX_FIELD_CHARS)}` : null,
  ].filter((part): part is string => part !== null);
  return ids.length > 0 ? [ids.join('  ·  ')] : [];
}
