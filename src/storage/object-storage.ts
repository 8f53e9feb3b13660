import { createReadStream } from 'node:fs';
import { Client, CopyConditions } from 'minio';

// S3-compatible object storage (MinIO locally and in tests; any S3 in production). Clients send
// bytes straight to storage with a presigned PUT; the API never proxies file bytes.
export interface PresignedUpload {
  url: string;
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface StorageSettings {
  endpoint: string;
  // Where clients reach storage, when it differs from where the service does.
  publicEndpoint?: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

function clientFor(endpoint: string, settings: StorageSettings): Client {
  const url = new URL(endpoint);
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    useSSL: url.protocol === 'https:',
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: settings.region,
    pathStyle: true,
  });
}

/** The S3 error of an object that does not exist (NoSuchKey from GET, NotFound from HEAD). */
export function isMissingObject(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'NoSuchKey' || code === 'NotFound';
}

export class ObjectStorage {
  private readonly client: Client;
  // Signs upload URLs for the host clients use (the signature covers the host).
  private readonly publicClient: Client;
  readonly bucket: string;

  constructor(private readonly settings: StorageSettings) {
    this.client = clientFor(settings.endpoint, settings);
    this.publicClient = settings.publicEndpoint ? clientFor(settings.publicEndpoint, settings) : this.client;
    this.bucket = settings.bucket;
  }

  async ensureBucket(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) await this.client.makeBucket(this.bucket, this.settings.region);
  }

  async ping(): Promise<void> {
    await this.client.bucketExists(this.bucket);
  }

  async presignUpload(key: string, contentType: string, expiresInSeconds = 3600): Promise<PresignedUpload> {
    const url = await this.publicClient.presignedUrl('PUT', this.bucket, key, expiresInSeconds);
    return { url, headers: { 'Content-Type': contentType }, expiresAt: new Date(Date.now() + expiresInSeconds * 1000) };
  }

  // A short-lived download link for the host clients use; the file downloads under its own name.
  async presignDownload(
    key: string,
    fileName: string,
    expiresInSeconds = 900,
  ): Promise<{ url: string; expiresAt: Date }> {
    const disposition = `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
    const url = await this.publicClient.presignedGetObject(this.bucket, key, expiresInSeconds, {
      'response-content-disposition': disposition,
    });
    return { url, expiresAt: new Date(Date.now() + expiresInSeconds * 1000) };
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, bytes, bytes.length, { 'Content-Type': contentType });
  }

  // Streams a file from disk (a multipart upload's temporary file): memory stays bounded.
  async putFile(key: string, filePath: string, size: number, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, createReadStream(filePath), size, { 'Content-Type': contentType });
  }

  // Copies an object only if it still is the version that was checked (its ETag); false when it
  // changed in between.
  async copyIfUnchanged(sourceKey: string, targetKey: string, etag: string): Promise<boolean> {
    const conditions = new CopyConditions();
    conditions.setMatchETag(etag);
    try {
      await this.client.copyObject(this.bucket, targetKey, `/${this.bucket}/${sourceKey}`, conditions);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'PreconditionFailed') return false;
      throw error;
    }
  }

  // Null when the object does not exist (yet): an upload that never happened is not an error here.
  async stat(key: string): Promise<{ size: number; etag: string } | null> {
    try {
      const stat = await this.client.statObject(this.bucket, key);
      return { size: stat.size, etag: stat.etag };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async read(key: string, maxBytes: number): Promise<Buffer> {
    const stream = await this.client.getObject(this.bucket, key);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) {
        stream.destroy();
        throw new Error(`object ${key} is larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async remove(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, key);
  }
}
