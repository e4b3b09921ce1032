/**
 * Photo uploads against a real (in-memory PGlite) database and a real photo folder, with real images
 * made by sharp in the test (PHO-01, PHO-02, PHO-04).
 */
import { readdir } from 'node:fs/promises';
import { deflateSync, crc32 } from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { photos, profiles, users } from '../../db/schema';
import type { Clock } from '../clock';
import { LocalPhotoStore, PHOTO_NAME } from './store';
import { MAX_UPLOAD_BYTES, PHOTO_LIMITS, checkImage, readUploadForm, uploadPhoto } from './upload';

const clock: Clock = { now: () => new Date('2026-11-21T12:00:00Z') };
let database: Database;
let kit: SeededDatabase;
let store: LocalPhotoStore;
let siteId: number;
let memberNo = 0;

beforeAll(async () => {
  kit = await seededDatabase({ clock: clock, profilesPerSite: 0 });
  database = kit.database;
  store = kit.photos;
  const [user] = await database.db.select({ siteId: users.siteId }).from(users).limit(1);
  siteId = user!.siteId;
});
afterAll(() => kit?.close());

async function newMember(paidUser = false): Promise<number> {
  memberNo++;
  const [user] = await database.db
    .insert(users)
    .values({ siteId, email: `upload-${memberNo}@example.com`, passwordHash: null, status: 'not_confirmed', language: 'en', paidUser })
    .returning({ id: users.id });
  await database.db
    .insert(profiles)
    .values({ userId: user!.id, siteId, name: `Uploader ${memberNo}`, status: 'disabled', gender: 'female', sexuality: 'hetero', birthDate: '1990-05-05', country: 'NL' });
  return user!.id;
}

const deps = () => ({ db: database.db, clock, photos: store });

async function storedFiles(): Promise<string[]> {
  const entries = await readdir(kit.photoDir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

/** A landscape JPEG, red above and blue below, with camera EXIF, GPS position and orientation 6 (turn 90° clockwise). */
async function jpegWithGpsAndOrientation(): Promise<Buffer> {
  const blue = await sharp({ create: { width: 600, height: 240, channels: 3, background: '#0000ff' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 600, height: 480, channels: 3, background: '#ff0000' } })
    .composite([{ input: blue, top: 240, left: 0 }])
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'GPS 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 30/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 40/1' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

/** Whether a raw EXIF block (as sharp's metadata returns it) has a GPS IFD pointer (tag 0x8825) in IFD0. */
function hasGpsIfd(exif: Buffer): boolean {
  const tiff = exif.subarray(exif.indexOf('Exif\0\0') + 6);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd0 = u32(4);
  const count = u16(ifd0);
  for (let i = 0; i < count; i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

/** A tiny, valid PNG whose header claims width × height (a decompression bomb's shape). */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}

const smallPng = () =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: '#44aa66' } })
    .png()
    .toBuffer();

describe('uploadPhoto', () => {
  it('PHO-04 PHO-02 a JPEG with EXIF and GPS becomes main and thumb WebP without any metadata, waiting for inspection, as the main photo', async () => {
    const userId = await newMember();
    const input = await jpegWithGpsAndOrientation();
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.exif && hasGpsIfd(inputMeta.exif)).toBe(true); // the test image really carries a GPS position

    const result = await uploadPhoto(deps(), { userId, body: input, setAsMain: true });
    expect(result.type).toBe('ok');
    if (result.type !== 'ok') return;
    const { filename, thumbFilename } = result.photo;
    expect(filename).toMatch(PHOTO_NAME);
    expect(thumbFilename).toMatch(PHOTO_NAME);
    expect(filename).not.toBe(thumbFilename);

    for (const [name, size] of [
      [filename, { width: 480, height: 600 }],
      [thumbFilename, { width: 160, height: 200 }],
    ] as const) {
      const file = await store.get(name);
      expect(file).not.toBeNull();
      const meta = await sharp(file!.body).metadata();
      expect(meta.format).toBe('webp');
      expect({ width: meta.width, height: meta.height }).toEqual(size);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      // Nothing of the camera or position survives anywhere in the bytes.
      expect(file!.body.includes(Buffer.from('TestCam'))).toBe(false);
    }

    const [row] = await database.db.select().from(photos).where(eq(photos.id, result.photo.id));
    expect(row).toMatchObject({ userId, status: 'inspection_pending', width: 480, height: 600, premium: false });
    const [profile] = await database.db.select({ mainPhotoId: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, userId));
    expect(profile!.mainPhotoId).toBe(result.photo.id);
  });

  it('PHO-04 the image is turned upright by its EXIF orientation before it is cut', async () => {
    const userId = await newMember();
    const result = await uploadPhoto(deps(), { userId, body: await jpegWithGpsAndOrientation() });
    expect(result.type).toBe('ok');
    if (result.type !== 'ok') return;
    const { data, info } = await sharp((await store.get(result.photo.filename))!.body)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    // Red was on top; turned 90° clockwise it is on the right, blue on the left.
    const [lr, , lb] = pixel(20, 300);
    const [rr, , rb] = pixel(460, 300);
    expect(lb).toBeGreaterThan(200);
    expect(lr).toBeLessThan(60);
    expect(rr).toBeGreaterThan(200);
    expect(rb).toBeLessThan(60);
  });

  it('PHO-04 PNG, WebP and GIF are accepted by content', async () => {
    const userId = await newMember(true);
    const base = sharp({ create: { width: 500, height: 400, channels: 3, background: '#336699' } });
    for (const body of [await base.clone().png().toBuffer(), await base.clone().webp().toBuffer(), await base.clone().gif().toBuffer()]) {
      const result = await uploadPhoto(deps(), { userId, body });
      expect(result.type).toBe('ok');
    }
  });

  it('PHO-04 a text file named .jpg, an SVG and broken image data are refused by content, and nothing is stored', async () => {
    const userId = await newMember();
    const before = await storedFiles();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="red"/></svg>');
    const jpeg = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const truncated = jpeg.subarray(0, 200);
    for (const body of [Buffer.from('This is just text, saved as holiday.jpg\n'), svg, truncated, Buffer.alloc(0)]) {
      const result = await uploadPhoto(deps(), { userId, body, setAsMain: true });
      expect(result).toEqual({ type: 'error', reason: 'photo_invalid' });
    }
    expect(await database.db.select().from(photos).where(eq(photos.userId, userId))).toHaveLength(0);
    const [profile] = await database.db.select({ mainPhotoId: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, userId));
    expect(profile!.mainPhotoId).toBeNull();
    expect(await storedFiles()).toEqual(before);
  });

  it('PHO-04 a file over 10 MB and an image over 40 megapixels are refused as too large', async () => {
    const userId = await newMember();
    const big = Buffer.concat([await smallPng(), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    expect(await uploadPhoto(deps(), { userId, body: big })).toEqual({ type: 'error', reason: 'photo_too_large' });
    const bomb = pngClaiming(8000, 6000);
    expect(bomb.length).toBeLessThan(10_000);
    expect(await uploadPhoto(deps(), { userId, body: bomb })).toEqual({ type: 'error', reason: 'photo_too_large' });
    // Just under the pixel limit passes the check (the limit is the boundary, not an accident).
    expect(await checkImage(pngClaiming(6000, 6000))).toEqual({ type: 'ok' });
    expect(await database.db.select().from(photos).where(eq(photos.userId, userId))).toHaveLength(0);
  });

  it('PHO-01 a free member can have at most 3 photos; the fourth is refused and leaves no file', async () => {
    const userId = await newMember(false);
    const body = await smallPng();
    for (let i = 0; i < PHOTO_LIMITS.free; i++) expect((await uploadPhoto(deps(), { userId, body })).type).toBe('ok');
    const before = await storedFiles();
    expect(await uploadPhoto(deps(), { userId, body })).toEqual({ type: 'error', reason: 'photo_limit_reached', limit: 3 });
    expect(await database.db.select().from(photos).where(eq(photos.userId, userId))).toHaveLength(3);
    expect(await storedFiles()).toEqual(before);
    // A removed photo no longer counts.
    const [first] = await database.db.select({ id: photos.id }).from(photos).where(eq(photos.userId, userId)).limit(1);
    await database.db.update(photos).set({ status: 'removed' }).where(eq(photos.id, first!.id));
    expect((await uploadPhoto(deps(), { userId, body })).type).toBe('ok');
  });

  it('PHO-01 two uploads at the same moment cannot pass the limit together', async () => {
    const userId = await newMember(false);
    const body = await smallPng();
    for (let i = 0; i < PHOTO_LIMITS.free - 1; i++) expect((await uploadPhoto(deps(), { userId, body })).type).toBe('ok');
    const results = await Promise.all([uploadPhoto(deps(), { userId, body }), uploadPhoto(deps(), { userId, body })]);
    expect(results.map((r) => r.type).sort()).toEqual(['error', 'ok']);
    expect(await database.db.select().from(photos).where(eq(photos.userId, userId))).toHaveLength(3);
  });

  it('SCALE-02 a retried upload with the same client id stores one photo and answers it again, one after the other and at once', async () => {
    const userId = await newMember(false);
    const body = await smallPng();
    const first = await uploadPhoto(deps(), { userId, body, clientId: 'upload-key-1' });
    expect(first).toMatchObject({ type: 'ok', repeated: false });
    const filesAfterFirst = await storedFiles();
    const again = await uploadPhoto(deps(), { userId, body, clientId: 'upload-key-1' });
    expect(again).toEqual({ ...first, repeated: true });
    expect(await storedFiles()).toEqual(filesAfterFirst);
    // Two sends of one key at the same moment (a retry racing the first): one photo, both answer it.
    const both = await Promise.all([uploadPhoto(deps(), { userId, body, clientId: 'upload-key-2' }), uploadPhoto(deps(), { userId, body, clientId: 'upload-key-2' })]);
    expect(both.map((r) => r.type === 'ok' && r.photo.id)[0]).toBe(both.map((r) => r.type === 'ok' && r.photo.id)[1]);
    expect(both.map((r) => r.type === 'ok' && r.repeated).sort()).toEqual([false, true]);
    expect(await database.db.select().from(photos).where(eq(photos.userId, userId))).toHaveLength(2);
    expect((await storedFiles()).length).toBe(filesAfterFirst.length + 2);
    // The key is the member's own: another member's upload with it is a photo of theirs.
    const other = await newMember(false);
    expect(await uploadPhoto(deps(), { userId: other, body, clientId: 'upload-key-1' })).toMatchObject({ type: 'ok', repeated: false });
  });

  it('PHO-01 a premium member can have 25 photos, not 26', async () => {
    const userId = await newMember(true);
    const rows = Array.from({ length: PHOTO_LIMITS.premium - 1 }, (_, i) => ({
      userId,
      filename: `pre${userId}x${i}-main.webp`,
      thumbFilename: `pre${userId}x${i}-thumb.webp`,
      width: 480,
      height: 600,
      status: 'active' as const,
    }));
    await database.db.insert(photos).values(rows);
    const body = await smallPng();
    expect((await uploadPhoto(deps(), { userId, body })).type).toBe('ok');
    expect(await uploadPhoto(deps(), { userId, body })).toEqual({ type: 'error', reason: 'photo_limit_reached', limit: 25 });
  });
});

describe('readUploadForm', () => {
  const formRequest = (form: FormData, headers: Record<string, string> = {}) => {
    const request = new Request('http://localhost/upload', { method: 'POST', body: form });
    for (const [k, v] of Object.entries(headers)) request.headers.set(k, v);
    return request;
  };

  it('PHO-04 reads the file of a multipart form', async () => {
    const form = new FormData();
    form.set('step', '0');
    form.set('photo', new File([await smallPng()], 'me.png', { type: 'image/png' }));
    const read = await readUploadForm(formRequest(form));
    expect(read.type).toBe('ok');
    if (read.type !== 'ok') return;
    expect(read.form.get('step')).toBe('0');
    expect((await sharp(read.file!).metadata()).format).toBe('png');
  });

  it('PHO-04 a body over the limit is refused, whether declared or streamed', async () => {
    const form = new FormData();
    form.set('photo', new File([Buffer.alloc(2048)], 'x.jpg'));
    expect(await readUploadForm(formRequest(form, { 'content-length': String(20 * 1024 * 1024) }))).toEqual({ type: 'error', reason: 'photo_too_large' });
    expect(await readUploadForm(formRequest(form), 'photo', 1024)).toEqual({ type: 'error', reason: 'photo_too_large' });
  });

  it('PHO-04 no file chosen gives no file; a body that is not multipart is refused', async () => {
    const form = new FormData();
    form.set('step', '0');
    const read = await readUploadForm(formRequest(form));
    expect(read.type === 'ok' && read.file).toBeNull();
    const plain = new Request('http://localhost/upload', { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await readUploadForm(plain)).toEqual({ type: 'error', reason: 'photo_invalid' });
  });
});
