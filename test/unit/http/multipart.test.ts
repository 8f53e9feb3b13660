import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PART_HEADER_BYTES, PartHeaderLimit, PartHeadersTooLarge } from '../../../src/http/multipart.js';

const BOUNDARY = '----icsboundary42';

function body(headerBytes: number, fileBytes = 1000): Buffer {
  const header = `Content-Disposition: form-data; name="primary"; filename="${'a'.repeat(Math.max(0, headerBytes - 60))}"`;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${header}\r\nContent-Type: application/pdf\r\n\r\n`),
    Buffer.alloc(fileBytes, 0x2d),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

// Feeds the body in the given chunk sizes; resolves with the bytes passed through or the error.
async function feed(bytes: Buffer, sizes: number[]): Promise<Buffer | Error> {
  const guard = new PartHeaderLimit(BOUNDARY);
  const out: Buffer[] = [];
  guard.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<Buffer | Error>((resolve) => {
    guard.on('error', resolve);
    guard.on('end', () => resolve(Buffer.concat(out)));
  });
  let offset = 0;
  for (let i = 0; offset < bytes.length; i += 1) {
    const size = Math.max(1, sizes[i % sizes.length] ?? 1);
    guard.write(bytes.subarray(offset, offset + size));
    offset += size;
  }
  guard.end();
  return done;
}

describe('multipart part header limit', () => {
  it('passes bodies with ordinary headers through unchanged, however they are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
        const bytes = body(200);
        const passed = await feed(bytes, sizes);
        expect(passed).toBeInstanceOf(Buffer);
        expect((passed as Buffer).equals(bytes)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses headers over the limit, however they are chunked, even where file bytes are large', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
        expect(await feed(body(MAX_PART_HEADER_BYTES + 100), sizes)).toBeInstanceOf(PartHeadersTooLarge);
        expect(await feed(body(MAX_PART_HEADER_BYTES - 200, 200_000), sizes)).toBeInstanceOf(Buffer);
      }),
      { numRuns: 30 },
    );
  });
});
