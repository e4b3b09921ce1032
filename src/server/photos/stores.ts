/** The photo store the configuration chose (SCALE-01): the local folder, or the S3-compatible bucket when S3_BUCKET is set. */
import type { PhotoStorage } from '../config';
import { S3PhotoStore } from './s3-store';
import { LocalPhotoStore, type PhotoStore } from './store';

export function createPhotoStore(storage: PhotoStorage): PhotoStore {
  if (storage.kind === 'local') return new LocalPhotoStore(storage.dir);
  return new S3PhotoStore(storage);
}

/** What the start-up log says about the store (never the keys). */
export function describePhotoStorage(storage: PhotoStorage): Record<string, string | boolean> {
  if (storage.kind === 'local') return { photos: 'local', dir: storage.dir };
  return { photos: 's3', bucket: storage.bucket, endpoint: storage.endpoint ?? `aws (${storage.region})`, region: storage.region, pathStyle: storage.forcePathStyle };
}
