/**
 * Photo uploads (PHO-01, PHO-02, PHO-04): the file is judged by its content, never its name or the
 * browser's content type; it is size- and pixel-limited, turned upright by its EXIF orientation, cut to
 * the main (480×600) and thumbnail (160×200) WebP images, and re-encoded without any metadata (EXIF,
 * GPS, XMP, ICC), so nothing of the original file reaches the store. The photo waits for inspection.
 * Shared by /complete-signup and the photo management that builds on it.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { photos, profiles, users, type PhotoStatus } from '../../db/schema';
import type { Clock } from '../clock';
import { PHOTO_NAME, type PhotoStore } from './store';

/** Largest accepted file (the decoded size is limited separately by MAX_INPUT_PIXELS). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest request body for an upload form: the file plus multipart framing and a few small fields. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
/** sharp's `limitInputPixels`: a small file that decodes to a gigantic bitmap (a pixel bomb) is refused. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Formats accepted by content (sharp's metadata); SVG, HEIF, TIFF and anything else are refused. */
export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'gif'] as const;
/** The `accept` attribute of upload inputs: a hint for the file picker only; the server decides by content (GIF passes too). */
export const UPLOAD_ACCEPT = 'image/jpeg,image/png,image/webp';

export const MAIN_SIZE = { width: 480, height: 600 } as const;
export const THUMB_SIZE = { width: 160, height: 200 } as const;
const WEBP = { quality: 80, effort: 4 } as const;

/** PHO-01 (SPEC §5, §9): how many photos a member may have. */
export const PHOTO_LIMITS = { free: 3, premium: 25 } as const;

export function photoLimitFor(paidUser: boolean): number {
  return paidUser ? PHOTO_LIMITS.premium : PHOTO_LIMITS.free;
}

export type UploadError = 'photo_too_large' | 'photo_invalid' | 'photo_limit_reached';

export interface UploadedPhoto {
  id: number;
  filename: string;
  thumbFilename: string;
  status: PhotoStatus;
}

export type UploadResult = { type: 'ok'; photo: UploadedPhoto; repeated: boolean } | { type: 'error'; reason: UploadError; limit?: number };

export interface UploadDeps {
  db: Db;
  clock: Clock;
  photos: PhotoStore;
}

export interface UploadInput {
  userId: number;
  /** The file's bytes as received. */
  body: Buffer;
  /**
   * Make it the profile's main photo: always (the signup step), or `'when_none'` (photo management: only
   * when the member has no main photo, or theirs was removed).
   */
  setAsMain?: boolean | 'when_none';
  /**
   * The uploader's idempotency key (SCALE-02): an upload with a key this member used before stores
   * nothing and answers the photo stored the first time (`repeated`), so a retry after a lost answer
   * never makes a second photo.
   */
  clientId?: string;
}

/** Photos that count towards the limit: every one not removed by moderation or by the member. */
export async function countPhotos(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(photos)
    .where(and(eq(photos.userId, userId), ne(photos.status, 'removed')));
  return row?.n ?? 0;
}

type Checked = { type: 'ok' } | { type: 'error'; reason: 'photo_too_large' | 'photo_invalid' };

/** Looks at the bytes only: a known raster format within the size and pixel limits. */
export async function checkImage(body: Buffer): Promise<Checked> {
  if (body.length === 0) return { type: 'error', reason: 'photo_invalid' };
  if (body.length > MAX_UPLOAD_BYTES) return { type: 'error', reason: 'photo_too_large' };
  try {
    const meta = await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.format || !(ACCEPTED_FORMATS as readonly string[]).includes(meta.format)) return { type: 'error', reason: 'photo_invalid' };
    if (!meta.width || !meta.height) return { type: 'error', reason: 'photo_invalid' };
    if (meta.width * meta.height > MAX_INPUT_PIXELS) return { type: 'error', reason: 'photo_too_large' };
    return { type: 'ok' };
  } catch (err) {
    return { type: 'error', reason: /pixel limit/i.test(String((err as Error).message)) ? 'photo_too_large' : 'photo_invalid' };
  }
}

export interface ProcessedImage {
  main: Buffer;
  thumb: Buffer;
}

/**
 * Decodes once (first frame of an animation), turns the image upright by its EXIF orientation, and
 * writes the main and thumbnail WebP images. sharp writes no metadata unless asked (`keepMetadata`,
 * `withMetadata`), so EXIF, GPS and XMP of the original are gone.
 */
export async function processImage(body: Buffer): Promise<ProcessedImage> {
  const upright = sharp(body, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).autoOrient();
  const cover = { fit: 'cover', position: sharp.strategy.attention } as const;
  const [main, thumb] = await Promise.all([
    upright.clone().resize(MAIN_SIZE.width, MAIN_SIZE.height, cover).webp(WEBP).toBuffer(),
    upright.clone().resize(THUMB_SIZE.width, THUMB_SIZE.height, cover).webp(WEBP).toBuffer(),
  ]);
  return { main, thumb };
}

/**
 * Server-made names: a random prefix (spreads files over the store's folders and makes names
 * unguessable), the owner, and a random part. Never derived from the uploaded file's name.
 */
export function newPhotoNames(userId: number): { filename: string; thumbFilename: string } {
  const base = `${randomBytes(3).toString('hex')}-u${userId}-${randomBytes(8).toString('hex')}`;
  const names = { filename: `${base}-main.webp`, thumbFilename: `${base}-thumb.webp` };
  if (!PHOTO_NAME.test(names.filename) || !PHOTO_NAME.test(names.thumbFilename)) throw new Error('generated photo name does not fit PHOTO_NAME');
  return names;
}

/**
 * Checks, converts and stores one photo for `userId`: a `photos` row waiting for inspection
 * (PHO-02), optionally the profile's main photo. The photo limit is checked again inside the
 * transaction that inserts, with the member's row locked, so two uploads at once cannot pass it.
 */
export async function uploadPhoto(deps: UploadDeps, input: UploadInput): Promise<UploadResult> {
  const [owner] = await deps.db.select({ paidUser: users.paidUser }).from(users).where(eq(users.id, input.userId)).limit(1);
  if (!owner) throw new Error(`uploadPhoto: no user ${input.userId}`);
  const earlier = await storedUpload(deps.db, input);
  if (earlier) return { type: 'ok', photo: earlier, repeated: true };
  const limit = photoLimitFor(owner.paidUser);
  if ((await countPhotos(deps.db, input.userId)) >= limit) return { type: 'error', reason: 'photo_limit_reached', limit };

  const checked = await checkImage(input.body);
  if (checked.type === 'error') return checked;
  let image: ProcessedImage;
  try {
    image = await processImage(input.body);
  } catch {
    // A file whose header looks right but whose data is broken.
    return { type: 'error', reason: 'photo_invalid' };
  }

  const names = newPhotoNames(input.userId);
  await deps.photos.put(names.filename, image.main);
  await deps.photos.put(names.thumbFilename, image.thumb);
  const now = deps.clock.now();
  const inserted = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select({ paidUser: users.paidUser }).from(users).where(eq(users.id, input.userId)).for('update');
    const limitNow = photoLimitFor(locked?.paidUser ?? false);
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(photos)
      .where(and(eq(photos.userId, input.userId), ne(photos.status, 'removed')));
    if ((count?.n ?? 0) >= limitNow) return { limit: limitNow };
    // A new photo goes last in the member's order (PHO-03).
    const [last] = await tx
      .select({ max: sql<number | null>`max(${photos.position})::int` })
      .from(photos)
      .where(eq(photos.userId, input.userId));
    const [row] = await tx
      .insert(photos)
      .values({
        userId: input.userId,
        filename: names.filename,
        thumbFilename: names.thumbFilename,
        status: 'inspection_pending',
        premium: false,
        width: MAIN_SIZE.width,
        height: MAIN_SIZE.height,
        createdAt: now,
        position: last?.max === null || last?.max === undefined ? 0 : last.max + 1,
        clientId: input.clientId ?? null,
      })
      .onConflictDoNothing({ target: [photos.userId, photos.clientId] })
      .returning({ id: photos.id, filename: photos.filename, thumbFilename: photos.thumbFilename, status: photos.status });
    // The same key's first upload committed while this one was being processed.
    if (!row) return { repeated: true as const };
    if (input.setAsMain === true) await tx.update(profiles).set({ mainPhotoId: row!.id }).where(eq(profiles.userId, input.userId));
    else if (input.setAsMain === 'when_none') {
      const [current] = await tx.select({ status: photos.status }).from(profiles).leftJoin(photos, eq(photos.id, profiles.mainPhotoId)).where(eq(profiles.userId, input.userId));
      if (!current || current.status === null || current.status === 'removed') await tx.update(profiles).set({ mainPhotoId: row!.id }).where(eq(profiles.userId, input.userId));
    }
    return { photo: row! };
  });
  if ('limit' in inserted) {
    await Promise.all([deps.photos.delete(names.filename), deps.photos.delete(names.thumbFilename)]);
    return { type: 'error', reason: 'photo_limit_reached', limit: inserted.limit };
  }
  if ('repeated' in inserted) {
    await Promise.all([deps.photos.delete(names.filename), deps.photos.delete(names.thumbFilename)]);
    return { type: 'ok', photo: (await storedUpload(deps.db, input))!, repeated: true };
  }
  return { type: 'ok', photo: inserted.photo, repeated: false };
}

/** The photo this member stored earlier under the upload's key, if any. */
async function storedUpload(db: UploadDeps['db'], input: UploadInput): Promise<UploadedPhoto | undefined> {
  if (input.clientId === undefined) return undefined;
  const [row] = await db
    .select({ id: photos.id, filename: photos.filename, thumbFilename: photos.thumbFilename, status: photos.status })
    .from(photos)
    .where(and(eq(photos.userId, input.userId), eq(photos.clientId, input.clientId)));
  return row;
}

export type UploadFormResult = { type: 'ok'; form: FormData; file: Buffer | null } | { type: 'error'; reason: 'photo_too_large' | 'photo_invalid' };

/**
 * Reads a multipart upload form with a hard size limit: a declared Content-Length over the limit is
 * refused before reading anything, and a body without one is counted while it streams in. Returns the
 * form and the bytes of its `field` file (null when no file was chosen).
 */
export async function readUploadForm(request: Request, field = 'photo', limit = MAX_UPLOAD_BODY_BYTES): Promise<UploadFormResult> {
  const read = await readUploadFiles(request, field, limit);
  if (read.type === 'error') return read;
  return { type: 'ok', form: read.form, file: read.files[0] ?? null };
}

export type UploadFilesResult = { type: 'ok'; form: FormData; files: Buffer[] } | { type: 'error'; reason: 'photo_too_large' | 'photo_invalid' };

/**
 * Like {@link readUploadForm}, for an input with `multiple`: every chosen file of `field`, in the order
 * sent (empty parts skipped). The body limit is for all of them together.
 */
export async function readUploadFiles(request: Request, field = 'photo', limit = MAX_UPLOAD_BODY_BYTES): Promise<UploadFilesResult> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) return { type: 'error', reason: 'photo_invalid' };
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return { type: 'error', reason: 'photo_too_large' };
  if (!request.body) return { type: 'error', reason: 'photo_invalid' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Past the limit the rest is read and dropped rather than cancelled: cancelling tears the connection
  // down before the browser has read the answer. The server's request timeout bounds how long that lasts.
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) return { type: 'error', reason: 'photo_too_large' };
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
  } catch {
    return { type: 'error', reason: 'photo_invalid' };
  }
  const files: Buffer[] = [];
  for (const entry of form.getAll(field)) {
    if (typeof entry === 'string' || entry.size === 0) continue;
    if (entry.size > MAX_UPLOAD_BYTES) return { type: 'error', reason: 'photo_too_large' };
    files.push(Buffer.from(await entry.arrayBuffer()));
  }
  return { type: 'ok', form, files };
}
