/**
 * A local S3-compatible server for the tests of the S3 photo store (SCALE-01): s3rver (an npm package
 * that answers the S3 REST API from a folder) on a free port of 127.0.0.1, in a temp folder, with one
 * bucket. The store talks to it through the real AWS SDK over HTTP — no mock of the SDK anywhere.
 *
 * When the server cannot start on a machine, `startLocalS3` answers `{ unavailable: why }` and the tests
 * skip with that one line (it starts on this project's machines and CI).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3PhotoStoreOptions } from '../../src/server/photos/s3-store';

/** s3rver checks signatures against these fixed keys. */
const KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The S3_ variables a server process needs to use this bucket. */
  env: Record<string, string>;
  /** The options of an S3PhotoStore on this bucket. */
  storeOptions: S3PhotoStoreOptions;
  /** Whether the object `key` is in the bucket (asked over the S3 API). */
  has(key: string): Promise<boolean>;
  close(): Promise<void>;
}

export async function startLocalS3(bucket = 'photos-test'): Promise<LocalS3 | { unavailable: string }> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (err) {
    await rm(directory, { recursive: true, force: true });
    return { unavailable: `the local S3 server (s3rver) did not start here: ${err instanceof Error ? err.message : String(err)}` };
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET } });
  return {
    endpoint,
    bucket,
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: KEY_ID, S3_SECRET_ACCESS_KEY: SECRET, S3_FORCE_PATH_STYLE: 'true' },
    storeOptions: { bucket, endpoint, region: 'us-east-1', accessKeyId: KEY_ID, secretAccessKey: SECRET, forcePathStyle: true },
    has: async (key) => {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (err) {
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw err;
      }
    },
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
