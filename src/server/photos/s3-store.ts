/**
 * Photos in an S3-compatible bucket (SCALE-01, docs/decisions/082-photos-in-object-storage.md): MinIO,
 * Ceph RGW, Cloudflare R2 or AWS, through the AWS SDK v3. Keys are `photos/ab/abc….webp`, the local
 * store's folders under one prefix, so a bucket can hold other things beside them.
 *
 * The store is private: the app reads an object and serves it through /photos/{name} after its access
 * checks; the bucket needs no public access and no presigned URLs are handed out.
 *
 * Every call is bounded: a connection must open within CONNECT_TIMEOUT_MS, a socket that sends nothing
 * for REQUEST_TIMEOUT_MS is dropped, the SDK tries at most MAX_ATTEMPTS times (backing off between
 * tries), and a call as a whole is abandoned after CALL_DEADLINE_MS — a slow store makes a request fail,
 * it never hangs it.
 */
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { PHOTO_NAME, photoPath, photoType, type PhotoStore, type StoredFile } from './store';

export interface S3PhotoStoreOptions {
  bucket: string;
  /** The S3 API's origin; undefined: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Key prefix, `photos/` unless a test says otherwise. */
  prefix?: string;
  /** Overrides of the bounds below (tests). */
  limits?: Partial<S3Limits>;
}

export interface S3Limits {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxAttempts: number;
  callDeadlineMs: number;
}

export const S3_LIMITS: S3Limits = { connectTimeoutMs: 3_000, requestTimeoutMs: 10_000, maxAttempts: 3, callDeadlineMs: 25_000 };

/** A 404 from the store: the object (or, for HEAD, anything) is not there. */
function isMissing(err: unknown): boolean {
  if (err instanceof S3ServiceException) return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
  return false;
}

export class S3PhotoStore implements PhotoStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly limits: S3Limits;

  constructor(options: S3PhotoStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? 'photos/';
    this.limits = { ...S3_LIMITS, ...options.limits };
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      maxAttempts: this.limits.maxAttempts,
      requestHandler: { connectionTimeout: this.limits.connectTimeoutMs, requestTimeout: this.limits.requestTimeoutMs, throwOnRequestTimeout: true },
      // Checksums only where the API requires them: R2 and older MinIO/Ceph refuse the SDK's newer defaults.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** The object key of `name` (throws for a name the server would never make). */
  key(name: string): string {
    return this.prefix + photoPath(name);
  }

  private deadline(): { abortSignal: AbortSignal } {
    return { abortSignal: AbortSignal.timeout(this.limits.callDeadlineMs) };
  }

  async put(name: string, body: Buffer): Promise<void> {
    const Key = this.key(name);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentType: photoType(name), ContentLength: body.length }), this.deadline());
  }

  async get(name: string): Promise<StoredFile | null> {
    if (!PHOTO_NAME.test(name)) return null;
    try {
      const options = this.deadline();
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name) }), options);
      if (!answer.Body) return null;
      const body = Buffer.from(await answer.Body.transformToByteArray());
      return { body, size: body.length, modified: answer.LastModified ?? new Date(0) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(name: string): Promise<boolean> {
    if (!PHOTO_NAME.test(name)) return false;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(name) }), this.deadline());
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** Deleting a missing object succeeds (S3 answers 204 either way), as the local store's `rm --force`. */
  async delete(name: string): Promise<void> {
    const Key = this.key(name);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }), this.deadline());
  }

  /** Closes the client's sockets (the app's close, tests). */
  close(): void {
    this.client.destroy();
  }
}
