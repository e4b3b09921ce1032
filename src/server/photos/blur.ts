/**
 * Blurred copies of premium photos for non-premium viewers (MEM-04). The copy is made once per photo
 * with sharp from the stored sharp file: shrunk to a tiny bitmap (a few hundred pixels in all), blurred,
 * then enlarged to the thumbnail size and blurred again, so no detail of the original survives in it and
 * it cannot be sharpened back. It is stored under a fresh random name (nothing in the name leads to the
 * sharp file) and recorded in `photos.blurred_filename`; the sharp file stays refused to these viewers
 * (access.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { photos } from '../../db/schema';
import { PHOTO_NAME, type PhotoStore } from './store';
import { MAX_INPUT_PIXELS, THUMB_SIZE } from './upload';

/** The tiny bitmap every blurred copy passes through (aspect 4:5 like the stored images). */
export const BLUR_SOURCE_SIZE = { width: 12, height: 15 } as const;

export interface BlurDeps {
  db: Db;
  photos: PhotoStore;
}

/** The blurred WebP of an image: detail gone (12×15 pixels), shown at thumbnail size. */
export async function blurImage(original: Buffer): Promise<Buffer> {
  const tiny = await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize(BLUR_SOURCE_SIZE.width, BLUR_SOURCE_SIZE.height, { fit: 'cover' })
    .blur(1.2)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(tiny.data, { raw: { width: tiny.info.width, height: tiny.info.height, channels: tiny.info.channels } })
    .resize(THUMB_SIZE.width, THUMB_SIZE.height, { kernel: 'cubic' })
    .blur(6)
    .webp({ quality: 60 })
    .toBuffer();
}

/** A name for a blurred copy: random only, not derived from the photo or its owner. */
export function newBlurredName(): string {
  const name = `${randomBytes(12).toString('hex')}-blur.webp`;
  if (!PHOTO_NAME.test(name)) throw new Error('generated blurred name does not fit PHOTO_NAME');
  return name;
}

/**
 * The file name of `photo`'s blurred copy, made and stored on first need. Null when the sharp file is
 * missing from the store (nothing to blur). Two requests racing make one copy each; the first recorded
 * wins and the other's file is deleted.
 */
export async function ensureBlurred(deps: BlurDeps, photo: { id: number; filename: string; blurredFilename: string | null }): Promise<string | null> {
  if (photo.blurredFilename) return photo.blurredFilename;
  const original = await deps.photos.get(photo.filename);
  if (!original) return null;
  let body: Buffer;
  try {
    body = await blurImage(original.body);
  } catch {
    return null;
  }
  const name = newBlurredName();
  await deps.photos.put(name, body);
  const [recorded] = await deps.db
    .update(photos)
    .set({ blurredFilename: name })
    .where(and(eq(photos.id, photo.id), isNull(photos.blurredFilename)))
    .returning({ name: photos.blurredFilename });
  if (recorded) return name;
  await deps.photos.delete(name);
  const [row] = await deps.db.select({ name: photos.blurredFilename }).from(photos).where(eq(photos.id, photo.id)).limit(1);
  return row?.name ?? null;
}
