import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAIN_IMAGE, THUMB_IMAGE, portraitSvg, renderProfileImage, type PortraitArt, type PortraitPerson } from './portraits';
import { planDemoPortraits } from './seed';

const FIXED_NOW = new Date('2025-03-15T12:00:00.000Z');
const SLOW = 120_000;
const SAMPLE = 48;

/** Average hash: the 160×200 thumbnail as 16×16 greys, one bit per cell (above the mean or not). */
async function averageHash(thumb: Buffer): Promise<boolean[]> {
  const { data } = await sharp(thumb).greyscale().resize(16, 16, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const cells = [...data];
  const mean = cells.reduce((sum, v) => sum + v, 0) / cells.length;
  return cells.map((v) => v > mean);
}

const hamming = (a: readonly boolean[], b: readonly boolean[]): number => a.reduce((sum, bit, i) => sum + (bit !== b[i] ? 1 : 0), 0);

const person: PortraitPerson = {
  female: true,
  age: 52,
  skin: '#d29f76',
  hair: [110, 72, 45],
  hairStyle: 'bun',
  greyTemples: true,
  eyes: '#3f6f8f',
  headScale: 1,
  faceWidth: 1,
  shoulderHalfWidth: 150,
  glasses: 'reading',
  earrings: 'hoops',
  necklace: true,
  beard: 'none',
  lines: 1,
  freckles: false,
  lips: '#b4475c',
};

const art = (overrides: Partial<PortraitArt>): PortraitArt => ({
  person,
  style: 'flat',
  scene: 'beach',
  lighting: 'even',
  lightSide: -1,
  hue: 20,
  clothing: '#334455',
  garment: 'tee',
  neckline: 'v',
  top: 'plain',
  headwear: 'none',
  expression: 'open',
  tilt: 0,
  turn: 0,
  shoulderTilt: 0,
  zoom: 1,
  hand: 'none',
  headX: 0,
  headY: 0,
  glowX: 0.5,
  glowY: 0.2,
  ...overrides,
});

describe('demo portraits', () => {
  it(
    'LOOK-02 faces people can tell apart at a glance: the first 48 portraits of each site differ in an average hash, in style, setting, light and pose, within the size budget',
    { timeout: SLOW },
    async () => {
      const plans = planDemoPortraits(SAMPLE, FIXED_NOW);
      for (const siteId of [1, 2]) {
        const arts = plans.filter((p) => p.siteId === siteId).map((p) => p.photos[0]!);
        expect(arts).toHaveLength(SAMPLE);
        const images = await Promise.all(arts.map((a) => renderProfileImage(a)));
        const hashes = await Promise.all(images.map((image) => averageHash(image.thumb)));
        const distances: number[] = [];
        for (let a = 0; a < hashes.length; a++) for (let b = a + 1; b < hashes.length; b++) distances.push(hamming(hashes[a]!, hashes[b]!));
        // 256 bits; the single cartoon before issue 25 had 5 % of its pairs at 26 bits or closer.
        const apart = distances.filter((d) => d >= 32).length / distances.length;
        expect(apart, `site ${siteId}: share of pairs at least 32 of 256 bits apart`).toBeGreaterThanOrEqual(0.95);
        expect(Math.min(...distances), `site ${siteId}: no two thumbnails (nearly) the same`).toBeGreaterThanOrEqual(12);

        const kinds = (pick: (a: PortraitArt) => string) => new Set(arts.map(pick)).size;
        expect(kinds((a) => a.style)).toBe(4);
        expect(kinds((a) => a.scene)).toBeGreaterThanOrEqual(7);
        expect(kinds((a) => a.lighting)).toBeGreaterThanOrEqual(4);
        expect(kinds((a) => a.hand)).toBe(3);
        expect(kinds((a) => (a.turn === 0 ? 'front' : a.turn < 0 ? 'left' : 'right'))).toBe(3);
        expect(arts.filter((a) => a.tilt !== 0).length).toBeGreaterThan(SAMPLE / 3);
        expect(kinds((a) => a.person.hairStyle)).toBeGreaterThanOrEqual(site1OrMore(siteId));
        expect(kinds((a) => a.person.skin)).toBeGreaterThanOrEqual(5);
        expect(kinds((a) => a.garment)).toBeGreaterThanOrEqual(5);
        expect(kinds((a) => a.expression)).toBe(5);

        // Size: about what the single cartoon cost (4.2 kB and 1.2 kB on average, docs/decisions/081-demo-portrait-variety.md).
        const average = (list: number[]) => list.reduce((sum, n) => sum + n, 0) / list.length;
        expect(average(images.map((i) => i.main.length))).toBeLessThan(5000);
        expect(average(images.map((i) => i.thumb.length))).toBeLessThan(1500);
        expect(Math.max(...images.map((i) => i.main.length))).toBeLessThan(12_000);
        const meta = await sharp(images[0]!.main).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', ...MAIN_IMAGE });
        const thumbMeta = await sharp(images[0]!.thumb).metadata();
        expect({ width: thumbMeta.width, height: thumbMeta.height }).toEqual(THUMB_IMAGE);
      }
    },
  );

  it('LOOK-02 age cues follow the member: lines and reading glasses for older members, none of that for the young', () => {
    const people = planDemoPortraits(120, FIXED_NOW).map((p) => p.photos[0]!.person);
    const young = people.filter((p) => p.age < 35);
    const older = people.filter((p) => p.age >= 60);
    expect(young.length).toBeGreaterThan(5);
    expect(older.length).toBeGreaterThan(5);
    for (const p of young) {
      expect(p.lines).toBe(0);
      expect(p.glasses).not.toBe('reading');
      expect(p.greyTemples).toBe(false);
    }
    for (const p of older) expect(p.lines).toBe(2);
    expect(people.some((p) => p.glasses === 'reading')).toBe(true);
    expect(people.some((p) => p.greyTemples)).toBe(true);
    expect(people.some((p) => p.freckles)).toBe(true);
    for (const p of people.filter((x) => x.female)) expect(p.beard).toBe('none');
    expect(new Set(people.filter((x) => !x.female).map((p) => p.beard)).size).toBeGreaterThanOrEqual(4);
  });

  it('MEM-06 a portrait keeps its person across photos and varies style, setting, pose and clothes', () => {
    const a = portraitSvg(art({}));
    const b = portraitSvg(art({ style: 'poster', scene: 'city', hue: 200, clothing: '#aa3344', garment: 'sweater', neckline: 'round', top: 'jacket', turn: 0.5, tilt: 8, hand: 'wave' }));
    const c = portraitSvg(art({ style: 'soft', scene: 'bokeh', lighting: 'golden', expression: 'smirk', zoom: 1.2 }));
    const d = portraitSvg(art({ style: 'line', scene: 'mountains', lighting: 'side', hand: 'chin' }));
    for (const svg of [a, b, c, d]) {
      expect(svg).toContain('#d29f76'); // the skin
      expect(svg).toContain('#3f6f8f'); // the eyes
      expect(svg).toContain('#e2b84a'); // hoops and necklace
      expect(svg).toContain('#c9c9cf'); // grey temples
      expect(svg).toContain('#6b4a2e'); // reading glasses
      expect(svg).not.toMatch(/<text|<image|href="http/); // no text, nothing fetched
    }
    expect(a).toContain('rgb(110,72,45)');
    expect(new Set([a, b, c, d]).size).toBe(4);
    expect(a).toContain('#3d8fbf'); // the sea
    expect(b).toContain('rotate(8.0'); // the head tilted
    expect(b).toContain('stroke="#24202a" stroke-width="5"'); // poster outlines
    expect(d).toContain('stroke-width="3.5"'); // line art
    expect(c).toContain('url(#skinG)'); // soft shading
    expect(c).toContain('url(#gold)'); // golden hour
    expect(a).not.toContain('url(#gold)');
  });

  it('draws the same picture for the same plan', () => {
    const plans = planDemoPortraits(12, FIXED_NOW);
    const again = planDemoPortraits(12, FIXED_NOW);
    expect(again).toEqual(plans);
    expect(plans.map((p) => portraitSvg(p.photos[0]!))).toEqual(again.map((p) => portraitSvg(p.photos[0]!)));
  });
});

/** Site 2 (a women-35+ site) has fewer hair styles to choose from than site 1. */
function site1OrMore(siteId: number): number {
  return siteId === 1 ? 10 : 7;
}
