/**
 * Larger inputs are refused before any parsing. A Peppol invoice of 70,000 lines is about 40 MB,
 * and such invoices exist (utilities, telecoms, freight); real invoices with an embedded PDF are
 * far smaller. Applies to uploaded files and to XML files unpacked from a PDF.
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;
