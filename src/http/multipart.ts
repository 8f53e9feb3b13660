import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from '../logger.js';
import { ApiError, errors } from './errors.js';

// multipart/form-data is read by the one route that takes it (the Ingestion API's upload), and
// only once that route has checked the credential: the app-wide body parser reads JSON only, so
// a multipart body sent anywhere else, or without a valid token, is never read to disk.
//
// The files of one request land in a folder of their own, removed when the handler is done,
// whatever happened (formidable leaves partial files behind when it stops on a limit).

export interface MultipartLimits {
  // Folder under which each request gets its own temporary folder.
  tempRoot: string;
  maxFileBytes: number;
  maxFiles: number;
  // All files together: enforced while the bytes arrive, so no more than this reaches the disk.
  maxTotalBytes: number;
  // Uploads read at once by this process; more are 503 with Retry-After. With maxTotalBytes this
  // bounds the temporary disk an API process can be made to use.
  maxConcurrent: number;
}

// Uploads being read by this process, per temporary root.
const uploadsInProgress = new Map<string, number>();
const UPLOAD_RETRY_AFTER_SECONDS = 5;

function takeUploadSlot(limits: MultipartLimits): () => void {
  const current = uploadsInProgress.get(limits.tempRoot) ?? 0;
  if (current >= limits.maxConcurrent) {
    throw new ApiError(
      503,
      'service_unavailable',
      `The server is reading as many uploads as it can; retry after ${UPLOAD_RETRY_AFTER_SECONDS} seconds.`,
      {
        headers: { 'Retry-After': String(UPLOAD_RETRY_AFTER_SECONDS) },
      },
    );
  }
  uploadsInProgress.set(limits.tempRoot, current + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    uploadsInProgress.set(limits.tempRoot, (uploadsInProgress.get(limits.tempRoot) ?? 1) - 1);
  };
}

export interface ReceivedFile {
  field: string;
  fileName: string | null;
  mimeType: string | null;
  path: string;
  size: number;
  md5: string;
}

// The part headers and boundaries around the files; a Content-Length above files plus this is refused unread.
const ENVELOPE_BYTES = 1024 * 1024;
const MAX_FIELDS = 20;
const MAX_FIELDS_BYTES = 64 * 1024;

// formidable's errors carry an httpCode and a numeric code; their messages name its options and
// stay in the logs.
const FORMIDABLE_ABORTED = 1002;
const FORMIDABLE_TOO_MANY_FILES = 1015;

function tooLarge(limits: MultipartLimits): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `The upload is too large: at most ${limits.maxFileBytes} bytes per file and ${limits.maxTotalBytes} bytes in all.`,
  );
}

function refusal(caught: unknown, limits: MultipartLimits): ApiError | null {
  const failure = caught as { httpCode?: number; code?: number };
  if (typeof failure?.httpCode !== 'number') return null;
  if (failure.code === FORMIDABLE_TOO_MANY_FILES) {
    return new ApiError(413, 'payload_too_large', `The upload has too many files: at most ${limits.maxFiles}.`);
  }
  if (failure.httpCode === 413) return tooLarge(limits);
  if (failure.httpCode === 400 || failure.code === FORMIDABLE_ABORTED)
    return errors.validation(
      'The multipart/form-data body could not be read: empty files are refused and parts must be well formed.',
    );
  return null;
}

// formidable keeps a part's header lines in a string without limit and reads the file name out
// of them with a regular expression that is quadratic on crafted input; this stream, between the
// request and formidable, refuses any part whose headers exceed MAX_PART_HEADER_BYTES before
// formidable has seen them end. It only looks for the boundary and the blank line after it
// (Buffer.indexOf over each chunk plus a short carry-over), so it is linear in the body.
export const MAX_PART_HEADER_BYTES = 16 * 1024;

export class PartHeadersTooLarge extends Error {}

export class PartHeaderLimit extends Transform {
  private readonly delimiter: Buffer;
  private static readonly HEADERS_END = Buffer.from('\r\n\r\n');
  private inHeaders = false;
  private headerBytes = 0;
  // The end of the previous chunk, so a delimiter split across chunks is still found.
  private carry: Buffer;

  constructor(
    boundary: string,
    private readonly maxHeaderBytes = MAX_PART_HEADER_BYTES,
  ) {
    super();
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // The body starts with the first delimiter, without the line break before it.
    this.carry = Buffer.from('\r\n');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const data = Buffer.concat([this.carry, chunk]);
    let position = 0;
    for (;;) {
      if (!this.inHeaders) {
        const found = data.indexOf(this.delimiter, position);
        if (found < 0) break;
        this.inHeaders = true;
        this.headerBytes = 0;
        position = found + this.delimiter.length;
      } else {
        const found = data.indexOf(PartHeaderLimit.HEADERS_END, position);
        const end = found < 0 ? data.length : found;
        this.headerBytes += end - position;
        if (this.headerBytes > this.maxHeaderBytes) return callback(new PartHeadersTooLarge('part headers too large'));
        if (found < 0) break;
        this.inHeaders = false;
        position = found + PartHeaderLimit.HEADERS_END.length;
      }
    }
    // Keep enough bytes to find a delimiter or header end that spans into the next chunk; bytes
    // already counted as header bytes are not counted again.
    const keep = Math.min(data.length - position, this.delimiter.length - 1);
    this.carry = data.subarray(data.length - keep);
    if (this.inHeaders) this.headerBytes -= keep;
    callback(null, chunk);
  }
}

function boundaryOf(contentType: string): string | null {
  // Content-Type is a request header (bounded by Node's header limit); split, no regular expression.
  for (const parameter of contentType.split(';').slice(1)) {
    const [name, ...rest] = parameter.split('=');
    if (name?.trim().toLowerCase() !== 'boundary') continue;
    const value = rest.join('=').trim();
    const unquoted = value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
    return unquoted.length > 0 && unquoted.length <= 200 ? unquoted : null;
  }
  return null;
}

// The client went away mid-body, or sent a broken request: not our failure.
function interrupted(caught: unknown): boolean {
  const code = (caught as { code?: unknown })?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('HPE_') || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE')
  );
}

function filesOf(raw: Record<string, unknown> | undefined): ReceivedFile[] {
  const received: ReceivedFile[] = [];
  for (const [field, value] of Object.entries(raw ?? {})) {
    const list = (Array.isArray(value) ? value : [value]) as {
      filepath: string;
      originalFilename?: string | null;
      mimetype?: string | null;
      size: number;
      hash?: string | null;
    }[];
    for (const file of list) {
      received.push({
        field,
        fileName: file.originalFilename ?? null,
        mimeType: file.mimetype ?? null,
        path: file.filepath,
        size: file.size,
        md5: file.hash ?? '',
      });
    }
  }
  return received;
}

// Reads the request's multipart body into a temporary folder, hands the files to `use`, and
// removes the folder afterwards. Oversized bodies are 413 payload_too_large.
export async function withMultipartFiles<T>(
  ctx: Context,
  limits: MultipartLimits,
  use: (files: ReceivedFile[]) => Promise<T>,
): Promise<T> {
  if (!ctx.is('multipart')) throw errors.validation('Send the body as multipart/form-data.');
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limits.maxTotalBytes + ENVELOPE_BYTES) throw tooLarge(limits);
  const release = takeUploadSlot(limits);
  let folder: string | null = null;
  try {
    await mkdir(limits.tempRoot, { recursive: true });
    folder = await mkdtemp(path.join(limits.tempRoot, 'ics-upload-'));
    const parse = koaBody({
      multipart: true,
      json: false,
      text: false,
      urlencoded: false,
      formidable: {
        uploadDir: folder,
        maxFileSize: limits.maxFileBytes,
        maxFiles: limits.maxFiles,
        maxTotalFileSize: limits.maxTotalBytes,
        maxFields: MAX_FIELDS,
        maxFieldsSize: MAX_FIELDS_BYTES,
        allowEmptyFiles: false,
        hashAlgorithm: 'md5',
      },
    });
    const boundary = boundaryOf(ctx.get('Content-Type'));
    if (!boundary)
      throw errors.validation('The multipart/form-data body needs a boundary parameter (at most 200 characters).');
    // formidable reads the guarded stream instead of the request (it needs the request's headers).
    const guarded = Object.assign(new PartHeaderLimit(boundary), { headers: ctx.req.headers });
    pipeline(ctx.req, guarded, () => undefined);
    const guardedContext = Object.create(ctx, { req: { value: guarded } }) as Context;
    try {
      await parse(guardedContext, async () => undefined);
    } catch (caught) {
      // The rest of a refused body is not read: the connection closes after the answer.
      ctx.set('Connection', 'close');
      ctx.req.unpipe(guarded);
      ctx.req.resume();
      if (caught instanceof PartHeadersTooLarge) {
        throw errors.validation(
          `A part of the multipart/form-data body has headers over ${MAX_PART_HEADER_BYTES} bytes.`,
        );
      }
      const error =
        refusal(caught, limits) ??
        (interrupted(caught) ? errors.validation('The upload was interrupted before its body was complete.') : null);
      if (error) {
        (ctx.state.logger as Logger | undefined)?.info({ err: caught }, 'multipart body refused');
        throw error;
      }
      throw caught;
    }
    return await use(filesOf((ctx.request as { files?: Record<string, unknown> }).files));
  } finally {
    release();
    if (folder) {
      const created = folder;
      await rm(created, { recursive: true, force: true });
      // A parse stopped on a limit may still have a file being opened; sweep once more shortly after.
      setTimeout(() => void rm(created, { recursive: true, force: true }).catch(() => undefined), 1000).unref();
    }
  }
}
