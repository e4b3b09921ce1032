/**
 * Setting up a site's partner (HON-01, LND-05): admins set its name, its link with the site's tracking
 * and the images the partner supplies. Saving or removing the partner is audited and goes out as
 * 'site.changed', so every process drops the site (and its rendered pages) at once. Images are judged by
 * their content like member photos (../photos/upload.ts), re-encoded without metadata and kept in the
 * photo store; /photos serves them to anyone under the site's host (../sites/partners.ts).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { sitePartners, type PartnerImage } from '../../db/schema';
import type { Clock } from '../clock';
import type { EventBus } from '../realtime/bus';
import { checkImage, MAX_INPUT_PIXELS } from '../photos/upload';
import { PHOTO_NAME, type PhotoStore } from '../photos/store';
import { audit } from '../audit';
import { loadPartner, type SitePartner } from '../sites/partners';

/** At most this many images in the block (it shows four tiles). */
export const MAX_PARTNER_IMAGES = 4;
const IMAGE_WIDTH = 480;
const IMAGE_HEIGHT = 600;

export type PartnerFieldError = 'required' | 'too_long' | 'https_only' | 'photo_invalid' | 'photo_too_large' | 'too_many_images' | 'images_required';

export type SavePartnerResult = { type: 'saved' } | { type: 'invalid'; fieldErrors: Partial<Record<'name' | 'url' | 'images', PartnerFieldError>> };

export interface PartnerDeps {
  db: Db;
  clock: Clock;
  photos: PhotoStore;
  bus: EventBus;
}

/** The partner's link: an absolute https URL (the partner's own page, with the site's tracking in it). */
export function checkPartnerUrl(value: string): PartnerFieldError | null {
  const text = value.trim();
  if (text === '') return 'required';
  if (text.length > 2000) return 'too_long';
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname.includes('.') && !url.username && !url.password ? null : 'https_only';
  } catch {
    return 'https_only';
  }
}

/**
 * Saves the partner of `siteId`: name, link and, when files are given, new images in place of the old
 * ones (a save without files keeps the images). Checked whole before anything is stored.
 */
export async function savePartner(deps: PartnerDeps, by: { id: number }, input: { siteId: number; name: string; url: string; files: Buffer[] }): Promise<SavePartnerResult> {
  const fieldErrors: Partial<Record<'name' | 'url' | 'images', PartnerFieldError>> = {};
  const name = input.name.trim();
  if (name === '') fieldErrors.name = 'required';
  else if (name.length > 80) fieldErrors.name = 'too_long';
  const urlError = checkPartnerUrl(input.url);
  if (urlError) fieldErrors.url = urlError;
  const files = input.files.filter((f) => f.length > 0);
  if (files.length > MAX_PARTNER_IMAGES) fieldErrors.images = 'too_many_images';
  else {
    for (const file of files) {
      const checked = await checkImage(file);
      if (checked.type === 'error') {
        fieldErrors.images = checked.reason;
        break;
      }
    }
  }
  const current = await loadPartner(deps.db, input.siteId);
  if (!fieldErrors.images && files.length === 0 && (current?.images.length ?? 0) === 0) fieldErrors.images = 'images_required';
  if (Object.keys(fieldErrors).length > 0) return { type: 'invalid', fieldErrors };

  let images = current?.images ?? [];
  if (files.length > 0) {
    try {
      images = await Promise.all(files.map((file) => storeImage(deps.photos, input.siteId, file)));
    } catch {
      return { type: 'invalid', fieldErrors: { images: 'photo_invalid' } };
    }
  }
  const partner: SitePartner = { name, url: input.url.trim(), images };
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(sitePartners)
      .values({ siteId: input.siteId, ...partner, updatedAt: now })
      .onConflictDoUpdate({ target: sitePartners.siteId, set: { ...partner, updatedAt: now } });
    await audit(tx, { staffId: by.id, action: 'site.partner', targetType: 'site', targetId: input.siteId, before: current ?? undefined, after: partner }, now);
  });
  // The replaced images go once the new ones are in place.
  if (current && files.length > 0) await Promise.all(current.images.map((image) => deps.photos.delete(image.file)));
  await deps.bus.publish('site.changed', { siteId: input.siteId });
  return { type: 'saved' };
}

/** Removes the partner and its images: the block is no longer shown. */
export async function removePartner(deps: PartnerDeps, by: { id: number }, siteId: number): Promise<boolean> {
  const current = await loadPartner(deps.db, siteId);
  if (!current) return false;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.delete(sitePartners).where(eq(sitePartners.siteId, siteId));
    await audit(tx, { staffId: by.id, action: 'site.partner_removed', targetType: 'site', targetId: siteId, before: current }, now);
  });
  await Promise.all(current.images.map((image) => deps.photos.delete(image.file)));
  await deps.bus.publish('site.changed', { siteId });
  return true;
}

/** Upright, cut to the block's tile (480×600), WebP without metadata, under a server-made name. */
async function storeImage(store: PhotoStore, siteId: number, body: Buffer): Promise<PartnerImage> {
  const main = await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .autoOrient()
    .resize(IMAGE_WIDTH, IMAGE_HEIGHT, { fit: 'cover', position: sharp.strategy.attention })
    .webp({ quality: 80, effort: 4 })
    .toBuffer();
  const file = `${randomBytes(3).toString('hex')}-partner${siteId}-${randomBytes(8).toString('hex')}.webp`;
  if (!PHOTO_NAME.test(file)) throw new Error('generated partner image name does not fit PHOTO_NAME');
  await store.put(file, main);
  return { file, width: IMAGE_WIDTH, height: IMAGE_HEIGHT };
}
