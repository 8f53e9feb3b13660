import { failed, type FailedOutcome } from './model.js';

export type DecodedText = { ok: true; text: string } | { ok: false; failure: FailedOutcome };

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];
/** The XML declaration must come first, so its encoding is always within the first bytes. */
const DECLARATION_WINDOW = 256;

/**
 * Decodes XML bytes the way an XML processor would: a byte order mark wins, then the
 * encoding named in the XML declaration, else UTF-8. Finvoice files are often ISO-8859-15.
 * UTF-8 decoding is strict, so Latin-1 bytes under a UTF-8 declaration fail loudly instead of
 * turning "ä" into U+FFFD inside a name or amount.
 */
export function decodeXmlBytes(bytes: Uint8Array): DecodedText {
  if (startsWith(bytes, UTF8_BOM)) return decodeStrict(bytes.subarray(3), 'utf-8');
  if (startsWith(bytes, UTF16LE_BOM)) return decodeStrict(bytes.subarray(2), 'utf-16le');
  if (startsWith(bytes, UTF16BE_BOM)) return decodeStrict(bytes.subarray(2), 'utf-16be');
  const declared = declaredEncoding(bytes);
  if (declared === null) return decodeStrict(bytes, 'utf-8');
  if (/^utf-?16/i.test(declared)) {
    // Without a BOM we just read the declaration as single bytes, so it cannot be UTF-16.
    return {
      ok: false,
      failure: failed('invalid_encoding', `The XML declares ${declared} but its bytes are not UTF-16.`),
    };
  }
  return decodeStrict(bytes, declared);
}

function declaredEncoding(bytes: Uint8Array): string | null {
  const head = latin1(bytes.subarray(0, DECLARATION_WINDOW));
  const match = head.match(/^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/);
  return match?.[1] ?? null;
}

function decodeStrict(bytes: Uint8Array, encoding: string): DecodedText {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    // WHATWG TextDecoder knows the usual labels: utf-8, iso-8859-1/-15, windows-1252, ...
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    return {
      ok: false,
      failure: failed('unsupported_encoding', `The XML declares the unsupported character encoding "${encoding}".`),
    };
  }
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return {
      ok: false,
      failure: failed(
        'invalid_encoding',
        `The XML bytes are not valid ${encoding}; the declared encoding does not match the content.`,
      ),
    };
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** One character per byte, for searching ASCII markup in bytes of any ASCII-compatible encoding. */
export function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
