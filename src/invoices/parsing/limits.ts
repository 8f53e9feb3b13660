/**
 * Larger inputs are refused before any parsing: real invoices, even with an embedded PDF, are
 * far smaller. Applies to uploaded files and to XML files unpacked from a PDF.
 */
export const MAX_INPUT_BYTES = 20 * 1024 * 1024;
