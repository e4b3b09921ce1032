/**
 * The demo members' portraits (issue 25, docs/decisions/081-demo-portrait-variety.md): drawn here as SVG
 * and rendered by sharp to a 480×600 WebP and a 160×200 thumbnail. No real faces, no text, no network.
 *
 * A member is one person on all of their photos (skin, face, hair, age cues, glasses, beard, jewellery);
 * every photo has its own drawing style, setting, light, pose, clothes and expression. Every choice comes
 * from the member's own seeded random streams (src/demo/seed.ts), so member 7 of site 1 always looks the same.
 */
import sharp from 'sharp';
import type { HAIR_COLOURS } from '../shared/interests';
import { HAIR_TONES } from './seed-data';

export const MAIN_IMAGE = { width: 480, height: 600 } as const;
export const THUMB_IMAGE = { width: 160, height: 200 } as const;
// effort 2 encodes twice as fast as the default 4 for flat artwork like this, at about 5 % more bytes.
// Quality 40 keeps the drawn faces crisp and the files small; the 160×200 thumbnails take 30
// (docs/decisions/031-niche-focus-and-demo-portraits.md, 081-demo-portrait-variety.md).
// Outlined styles (poster, line art) have many more hard edges, so they take a lower quality: their
// thick lines stay crisp there, and their files stay as small as the others.
const WEBP_OPTIONS = { quality: 30, effort: 2 } as const;
const THUMB_WEBP_OPTIONS = { quality: 26, effort: 2 } as const;
const OUTLINED_WEBP_OPTIONS = { quality: 15, effort: 2 } as const;
const OUTLINED_THUMB_WEBP_OPTIONS = { quality: 15, effort: 2 } as const;
/** Bump when portraitSvg, the plans or the WebP options change: new file names, so kept files are not reused. */
export const ART_VERSION = 4;

/** The seed's PRNG as the portraits use it (src/demo/seed.ts's Random). */
export interface PortraitRandom {
  float(): number;
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(list: readonly T[]): T;
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
}

export type HairStyle = 'long' | 'wavy' | 'bob' | 'ponytail' | 'bun' | 'curly' | 'afro' | 'braids' | 'pixie' | 'short' | 'crew' | 'quiff' | 'sidepart' | 'receding' | 'bald' | 'buzz';
export type Scene = 'beach' | 'city' | 'park' | 'cafe' | 'studio' | 'bokeh' | 'mountains' | 'room' | 'hills';
export type DrawStyle = 'flat' | 'soft' | 'poster' | 'line';
export type Lighting = 'even' | 'warm' | 'cool' | 'side' | 'golden';
export type Expression = 'soft' | 'open' | 'smirk' | 'calm' | 'joy';
export type Garment = 'tee' | 'sweater' | 'shirt' | 'turtleneck' | 'hoodie' | 'stripes' | 'straps';
export type Headwear = 'none' | 'beanie' | 'cap' | 'sunhat' | 'headband';
export type Hand = 'none' | 'chin' | 'wave';

/** What stays the same on every photo of one member: the person. */
export interface PortraitPerson {
  female: boolean;
  age: number;
  skin: string;
  hair: readonly [number, number, number];
  hairStyle: HairStyle;
  /** Grey at the temples (older members whose hair colour is not grey). */
  greyTemples: boolean;
  eyes: string;
  headScale: number;
  /** Width of the face against its height: narrow 0.9 … broad 1.08. */
  faceWidth: number;
  shoulderHalfWidth: number;
  glasses: 'none' | 'round' | 'square' | 'reading';
  earrings: 'none' | 'studs' | 'hoops';
  /** A fine chain with a pendant, shown when the neckline leaves room for it. */
  necklace: boolean;
  beard: 'none' | 'stubble' | 'full' | 'moustache' | 'goatee';
  /** Age lines: 0 none, 1 a few (mid-forties on), 2 more (sixty on). */
  lines: 0 | 1 | 2;
  freckles: boolean;
  lips: string;
}

/** One photo: the person in a setting, drawn in a style, posed, dressed and lit for it. */
export interface PortraitArt {
  person: PortraitPerson;
  style: DrawStyle;
  scene: Scene;
  lighting: Lighting;
  /** Where the light comes from: the left (-1) or the right (1). */
  lightSide: -1 | 1;
  hue: number;
  clothing: string;
  garment: Garment;
  neckline: 'round' | 'v' | 'collar';
  /** A plain top, or an open cardigan/jacket in a darker shade over it. */
  top: 'plain' | 'jacket';
  headwear: Headwear;
  expression: Expression;
  /** Head tilt in degrees. */
  tilt: number;
  /** The head turned to the left (-1) … frontal (0) … right (1); about ±0.5 is a three-quarter view. */
  turn: number;
  /** The shoulders' angle in degrees. */
  shoulderTilt: number;
  /** Framing: below 1 shows more of the setting, above 1 is a close-up. */
  zoom: number;
  hand: Hand;
  headX: number;
  headY: number;
  glowX: number;
  glowY: number;
}

// ---------------------------------------------------------------------------------------------------
// Plans

const SKIN_TONES = ['#f9e0cf', '#f2cbb0', '#e6b894', '#d29f76', '#b98058', '#9a6643', '#7a4c31', '#5a3725'] as const;
const SKIN_WEIGHTS = [2, 3, 3, 2, 2, 1.5, 1, 1] as const;
const IRIS_COLOURS = ['#4a3426', '#6b4a2e', '#3f6f8f', '#5b7d4a', '#7a8a99'] as const;
const LIP_TONES = ['#b4475c', '#c0566a', '#9e3f4f', '#c46a5a', '#8f3a48'] as const;
const SCENES: readonly Scene[] = ['beach', 'city', 'park', 'cafe', 'studio', 'bokeh', 'mountains', 'room', 'hills'];
const NECKLINES = ['round', 'v', 'collar'] as const;
const FEMALE_STYLES: readonly HairStyle[] = ['long', 'wavy', 'bob', 'ponytail', 'bun', 'curly', 'afro', 'braids', 'pixie', 'long'];
const MALE_STYLES: readonly HairStyle[] = ['short', 'crew', 'quiff', 'sidepart', 'curly', 'buzz', 'afro', 'short'];
const OLDER_MALE_STYLES: readonly HairStyle[] = ['short', 'crew', 'sidepart', 'receding', 'receding', 'bald', 'buzz'];
const OLDER_FEMALE_STYLES: readonly HairStyle[] = ['bob', 'pixie', 'short', 'bun', 'wavy', 'curly', 'bob'];
const STYLES: readonly (readonly [DrawStyle, number])[] = [
  ['flat', 3],
  ['soft', 3],
  ['poster', 2],
  ['line', 2],
];
const LIGHTINGS: readonly (readonly [Lighting, number])[] = [
  ['even', 2],
  ['warm', 2],
  ['cool', 2],
  ['side', 3],
  ['golden', 2],
];
const OUTDOOR: ReadonlySet<Scene> = new Set(['beach', 'park', 'mountains', 'hills']);

/**
 * The person behind a member's photos. The draws from `rng` are the ones the earlier portraits made
 * (same number, same order), so the member's other data drawn after them stays the same; everything
 * new comes from the member's own `looks` stream.
 */
export function planPerson(rng: PortraitRandom, looks: PortraitRandom, gender: 'male' | 'female', hairColour: (typeof HAIR_COLOURS)[number], age: number): PortraitPerson {
  const female = gender === 'female';
  const older = hairColour === 'grey' || age >= 55;
  const skin = rng.weighted(SKIN_TONES.map((tone, i) => [tone, SKIN_WEIGHTS[i] ?? 1] as const));
  const hairStyle = rng.pick(female ? (older ? OLDER_FEMALE_STYLES : FEMALE_STYLES) : older ? OLDER_MALE_STYLES : MALE_STYLES);
  const eyes = rng.pick(IRIS_COLOURS);
  const headScale = 0.9 + rng.float() * 0.16;
  const shoulderHalfWidth = rng.int(female ? 135 : 160, female ? 165 : 195);
  rng.float(); // the earlier portraits' glasses draw, kept so later draws stay where they were
  const glasses = looks.chance(older ? 0.3 : 0.12);
  const earrings = female && rng.chance(0.55);
  const beard: PortraitPerson['beard'] = female ? 'none' : rng.chance(0.25) ? 'full' : rng.chance(0.3) ? 'stubble' : 'none';
  return {
    female,
    age,
    skin,
    hair: HAIR_TONES[hairColour],
    hairStyle,
    greyTemples: hairColour !== 'grey' && age >= 48 && looks.chance(0.55),
    eyes,
    headScale,
    faceWidth: 0.9 + looks.float() * 0.18,
    shoulderHalfWidth,
    glasses: glasses ? looks.pick(['round', 'square'] as const) : age >= 48 && looks.chance(0.3) ? 'reading' : 'none',
    earrings: earrings ? looks.pick(['studs', 'hoops'] as const) : 'none',
    necklace: female && looks.chance(0.4),
    beard: beard === 'full' ? looks.pick(['full', 'full', 'goatee', 'moustache'] as const) : beard,
    lines: age >= 60 ? 2 : age >= 44 ? 1 : 0,
    freckles: age < 35 && looks.chance(0.25),
    lips: female ? looks.pick(LIP_TONES) : '#8a3b3b',
  };
}

/** One photo of `person`: its own style, setting, light, pose, clothes and expression. */
export function planPortrait(rng: PortraitRandom, looks: PortraitRandom, person: PortraitPerson): PortraitArt {
  // The nine draws from `rng` the earlier portraits made, in their order.
  const scene = rng.pick(SCENES);
  const hue = rng.int(0, 359);
  const clothing = hslHex(rng.int(0, 359), 0.35 + rng.float() * 0.3, 0.32 + rng.float() * 0.25);
  const neckline = rng.pick(NECKLINES);
  const headX = rng.int(-25, 25);
  const headY = rng.int(-15, 20);
  const glowX = 0.2 + rng.float() * 0.6;
  const glowY = 0.1 + rng.float() * 0.3;

  const garments: readonly Garment[] = person.female
    ? ['tee', 'sweater', 'shirt', 'turtleneck', 'hoodie', 'stripes', 'straps', 'straps']
    : ['tee', 'sweater', 'shirt', 'shirt', 'turtleneck', 'hoodie', 'stripes'];
  const garment = looks.pick(garments);
  const outdoor = OUTDOOR.has(scene);
  const headwearRoll = looks.float();
  const headwear: Headwear =
    headwearRoll < 0.08 ? (outdoor && person.female ? 'sunhat' : 'beanie') : headwearRoll < 0.15 ? (person.female ? 'headband' : 'cap') : headwearRoll < 0.19 && outdoor ? 'sunhat' : 'none';
  const turnRoll = looks.float();
  const turn = turnRoll < 0.4 ? 0 : (turnRoll < 0.7 ? -1 : 1) * (0.35 + looks.float() * 0.3);
  return {
    person,
    style: looks.weighted(STYLES),
    scene,
    lighting: looks.weighted(LIGHTINGS),
    lightSide: looks.chance(0.5) ? -1 : 1,
    hue,
    clothing,
    garment,
    neckline,
    top: garment !== 'straps' && garment !== 'hoodie' && looks.chance(0.3) ? 'jacket' : 'plain',
    headwear: person.hairStyle === 'afro' && headwear !== 'headband' ? 'none' : headwear,
    expression: looks.weighted<Expression>([
      ['soft', 3],
      ['open', 3],
      ['smirk', 2],
      ['calm', 1.5],
      ['joy', 1.5],
    ]),
    tilt: looks.chance(0.3) ? 0 : (looks.chance(0.5) ? -1 : 1) * (4 + looks.float() * 8),
    turn,
    shoulderTilt: (looks.float() - 0.5) * 12,
    zoom: 0.78 + looks.float() * 0.44,
    hand: looks.weighted<Hand>([
      ['none', 6],
      ['chin', 1.5],
      ['wave', 1.5],
    ]),
    headX,
    headY,
    glowX,
    glowY,
  };
}

// ---------------------------------------------------------------------------------------------------
// Rendering

export interface RenderedImage {
  main: Buffer;
  thumb: Buffer;
}

/** Renders one portrait to a 480×600 main image and a 160×200 thumbnail, both WebP. */
export async function renderProfileImage(art: PortraitArt): Promise<RenderedImage> {
  const { data, info } = await sharp(Buffer.from(portraitSvg(art)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const outlined = art.style === 'poster' || art.style === 'line';
  const [main, thumb] = await Promise.all([
    sharp(data, raw)
      .webp(outlined ? OUTLINED_WEBP_OPTIONS : WEBP_OPTIONS)
      .toBuffer(),
    sharp(data, raw)
      .resize(THUMB_IMAGE.width, THUMB_IMAGE.height)
      .webp(outlined ? OUTLINED_THUMB_WEBP_OPTIONS : THUMB_WEBP_OPTIONS)
      .toBuffer(),
  ]);
  return { main, thumb };
}

const f = (n: number): string => n.toFixed(1);
const INK = '#24202a';

/** How a style paints a shape: fills, outlines and line work. */
interface Painter {
  style: DrawStyle;
  /** Attributes for a filled shape of the figure (outlined in poster and line styles). */
  fig(colour: string): string;
  /** Attributes for a shape of the setting. */
  bg(colour: string): string;
}

function painterFor(art: PortraitArt): Painter {
  switch (art.style) {
    case 'poster':
      return {
        style: 'poster',
        fig: (c) => `fill="${c}" stroke="${INK}" stroke-width="5" stroke-linejoin="round"`,
        bg: (c) => `fill="${posterise(c, art.hue)}"`,
      };
    case 'line': {
      const line = hslHex(art.hue, 0.35, 0.93);
      return {
        style: 'line',
        fig: (c) => `fill="${c}" stroke="${INK}" stroke-width="3.5" stroke-linejoin="round"`,
        bg: () => `fill="none" stroke="${line}" stroke-width="3" stroke-opacity="0.7" stroke-linejoin="round"`,
      };
    }
    default:
      return { style: art.style, fig: (c) => `fill="${c}"`, bg: (c) => `fill="${c}"` };
  }
}

/** A colour moved onto the poster palette: the art's hue (or its complement), three lightness bands. */
function posterise(hex: string, hue: number): string {
  const [r, g, b] = rgbOf(hex);
  const l = (Math.max(r, g, b) + Math.min(r, g, b)) / 510;
  const band = l < 0.4 ? 0.3 : l < 0.68 ? 0.55 : 0.8;
  return hslHex(band === 0.55 ? hue + 180 : hue, 0.55, band);
}

/** A tiny deterministic sequence for the layout of a setting (windows, trees, lights). */
function layoutRandom(seed: number): () => number {
  let s = (seed * 2654435761) >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4_294_967_296;
  };
}

function sceneSvg(art: PortraitArt, p: Painter, w: number, h: number): string {
  const line = p.style === 'line';
  const rand = layoutRandom(art.hue * 31 + art.scene.length);
  const sky = hslHex(art.hue, 0.55, 0.86);
  const skyDeep = hslHex(art.hue + 25, 0.5, 0.68);
  const defs = `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyDeep}"/><stop offset="1" stop-color="${sky}"/></linearGradient>
<radialGradient id="glow" cx="${art.glowX.toFixed(3)}" cy="${art.glowY.toFixed(3)}" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>`;
  // Line art: one saturated colour with the setting drawn in light lines; poster: flat bands; else gradients.
  const base = line ? `<rect width="${w}" height="${h}" fill="${hslHex(art.hue, 0.45, 0.5)}"/>` : '';
  const skyFill = (fallback: string) =>
    line
      ? ''
      : p.style === 'poster'
        ? `<rect width="${w}" height="${h}" ${p.bg(fallback)}/>`
        : `<rect width="${w}" height="${h}" fill="url(#sky)"/><rect width="${w}" height="${h}" fill="url(#glow)"/>`;
  let body: string;
  switch (art.scene) {
    case 'hills': {
      body = `${skyFill(sky)}<path d="M0 ${h * 0.55} Q ${w * 0.25} ${h * 0.42} ${w * 0.55} ${h * 0.52} T ${w} ${h * 0.48} V ${h} H 0 Z" ${p.bg(hslHex(100 + (art.hue % 40), 0.35, 0.55))}/>
<path d="M0 ${h * 0.68} Q ${w * 0.35} ${h * 0.58} ${w * 0.7} ${h * 0.66} T ${w} ${h * 0.62} V ${h} H 0 Z" ${p.bg(hslHex(110 + (art.hue % 30), 0.4, 0.42))}/>`;
      break;
    }
    case 'city': {
      const night = art.hue % 3 === 0;
      const towers = [hslHex(art.hue + 200, 0.18, night ? 0.2 : 0.35), hslHex(art.hue + 200, 0.16, night ? 0.28 : 0.45)];
      body = night && !line ? `<rect width="${w}" height="${h}" ${p.bg(hslHex(235, 0.4, 0.18))}/>` : skyFill(sky);
      const widths = [52, 70, 44, 86, 60, 48, 74, 58];
      let x = -10;
      for (let i = 0; x < w; i++) {
        const bw = widths[(i + art.hue) % widths.length]!;
        const top = h * (0.22 + ((i * 37 + art.hue) % 27) / 100);
        body += `<rect x="${x}" y="${top.toFixed(0)}" width="${bw}" height="${h}" ${p.bg(towers[i % 2]!)}/>`;
        if (!line) for (let wy = top + 14; wy < h * 0.62; wy += 26) body += `<rect x="${x + 10}" y="${wy.toFixed(0)}" width="${bw - 20}" height="8" fill="#f4e3a1" opacity="${night ? 0.8 : 0.45}"/>`;
        x += bw + 6;
      }
      break;
    }
    case 'beach':
      body = `${line ? '' : `<rect width="${w}" height="${h}" ${p.bg('#9fd3ef')}/>`}${skyFill('#9fd3ef')}<circle cx="${f(w * art.glowX)}" cy="${f(h * art.glowY)}" r="30" ${p.bg('#fff1b8')}/>
<rect y="${h * 0.5}" width="${w}" height="${h * 0.16}" ${p.bg('#3d8fbf')}/><path d="M0 ${h * 0.62} Q ${w * 0.3} ${h * 0.6} ${w * 0.55} ${h * 0.64} T ${w} ${h * 0.63} V ${h} H 0 Z" ${p.bg('#ead6a4')}/>`;
      break;
    case 'park': {
      body = `${skyFill(sky)}<rect y="${h * 0.6}" width="${w}" height="${h * 0.4}" ${p.bg(hslHex(105, 0.4, 0.45))}/>`;
      for (let i = 0; i < 6; i++) {
        const tx = -20 + i * 100 + rand() * 40;
        const ty = h * (0.38 + rand() * 0.12);
        const r = 45 + rand() * 30;
        body += `<rect x="${f(tx - 7)}" y="${f(ty)}" width="14" height="${f(h * 0.62 - ty)}" ${p.bg('#6b4f36')}/><circle cx="${f(tx)}" cy="${f(ty)}" r="${f(r)}" ${p.bg(hslHex(95 + rand() * 40, 0.42, 0.32 + rand() * 0.15))}/>`;
      }
      break;
    }
    case 'mountains': {
      const rock = hslHex(art.hue + 210, 0.15, 0.45);
      body = skyFill(sky);
      for (let i = 0; i < 4; i++) {
        const px = -60 + i * 170 + rand() * 60;
        const top = h * (0.2 + rand() * 0.15);
        const half = 140 + rand() * 60;
        body += `<path d="M ${f(px - half)} ${h * 0.62} L ${f(px)} ${f(top)} L ${f(px + half)} ${h * 0.62} Z" ${p.bg(i % 2 ? rock : shade(rock, 0.82))}/><path d="M ${f(px - half * 0.28)} ${f(top + (h * 0.62 - top) * 0.28)} L ${f(px)} ${f(top)} L ${f(px + half * 0.28)} ${f(top + (h * 0.62 - top) * 0.28)} Z" ${p.bg('#f4f7fb')}/>`;
      }
      body += `<rect y="${h * 0.6}" width="${w}" height="${h * 0.4}" ${p.bg(hslHex(120, 0.3, 0.38))}/>`;
      break;
    }
    case 'cafe': {
      const wall = hslHex(25 + (art.hue % 30), 0.35, 0.3);
      body = `<rect width="${w}" height="${h}" ${p.bg(wall)}/>`;
      for (const y of [150, 260]) {
        body += `<rect x="0" y="${y}" width="${w}" height="10" ${p.bg('#8a6244')}/>`;
        if (!line)
          for (let x = 20 + rand() * 20; x < w - 20; x += 40 + rand() * 30) body += `<rect x="${f(x)}" y="${y - 26}" width="22" height="26" rx="4" ${p.bg(hslHex(art.hue + rand() * 90, 0.4, 0.7))}/>`;
      }
      for (const lx of [w * 0.2, w * 0.8]) {
        if (!line) body += `<circle cx="${f(lx)}" cy="80" r="70" fill="#ffd58a" opacity="0.22"/>`;
        body += `<path d="M ${f(lx)} 0 V 60" stroke="${line ? '#ffffff' : '#2a2018'}" stroke-width="3"/><path d="M ${f(lx - 30)} 88 Q ${f(lx)} 40 ${f(lx + 30)} 88 Z" ${p.bg('#e9b44c')}/>`;
      }
      break;
    }
    case 'studio': {
      const inner = hslHex(art.hue, 0.25, 0.82);
      const outer = hslHex(art.hue + 15, 0.3, 0.45);
      body =
        p.style === 'flat' || p.style === 'soft'
          ? `<defs><radialGradient id="studio" cx="${art.glowX.toFixed(3)}" cy="0.35" r="0.75"><stop offset="0" stop-color="${inner}"/><stop offset="1" stop-color="${outer}"/></radialGradient></defs><rect width="${w}" height="${h}" fill="url(#studio)"/>`
          : `<rect width="${w}" height="${h}" ${line ? `fill="${hslHex(art.hue, 0.35, 0.6)}"` : p.bg(outer)}/><circle cx="${f(w * art.glowX)}" cy="${h * 0.35}" r="${h * 0.34}" ${p.bg(inner)}/>`;
      break;
    }
    case 'bokeh': {
      body = `<rect width="${w}" height="${h}" ${line ? `fill="${hslHex(art.hue, 0.4, 0.28)}"` : p.bg(hslHex(art.hue + 220, 0.35, 0.16))}/>`;
      for (let i = 0; i < 16; i++) {
        const colour = hslHex(art.hue + (rand() < 0.5 ? 0 : 40) + rand() * 30, 0.8, 0.65);
        body += `<circle cx="${f(rand() * w)}" cy="${f(rand() * h * 0.7)}" r="${f(16 + rand() * 34)}" ${line ? p.bg(colour) : `fill="${colour}" opacity="${(0.25 + rand() * 0.35).toFixed(2)}"`}/>`;
      }
      break;
    }
    default: {
      const wall = hslHex(art.hue, 0.25, 0.8);
      const frame = hslHex(art.hue + 30, 0.2, 0.95);
      const left = art.glowX < 0.5;
      const wx = left ? 24 : w - 184;
      body = `${line ? '' : `<rect width="${w}" height="${h}" ${p.bg(wall)}/>`}
<rect x="${wx}" y="40" width="160" height="200" ${p.bg(frame)}/><rect x="${wx + 10}" y="50" width="140" height="180" ${line || p.style === 'poster' ? p.bg(sky) : 'fill="url(#sky)"'}/>
<path d="M${wx + 80} 50 V 230 M ${wx + 10} 140 H ${wx + 150}" stroke="${line ? '#ffffff' : frame}" stroke-width="8" stroke-opacity="${line ? 0.6 : 1}"/>
<rect x="${left ? w - 150 : 40}" y="90" width="96" height="70" ${line ? p.bg('') : `${p.bg(hslHex(art.hue + 160, 0.35, 0.6))} stroke="#6b5a48" stroke-width="6"`}/>`;
    }
  }
  return `${defs}${base}${body}`;
}

/** Warm, cool, side or golden light over the whole picture, last. */
function lightingSvg(art: PortraitArt, w: number, h: number): string {
  const soft = art.style === 'line' ? 0.6 : 1;
  const [from, to] = art.lightSide < 0 ? ['0', '1'] : ['1', '0'];
  switch (art.lighting) {
    case 'warm':
      return `<rect width="${w}" height="${h}" fill="#ff9d4d" opacity="${(0.13 * soft).toFixed(3)}"/>`;
    case 'cool':
      return `<rect width="${w}" height="${h}" fill="#4d86ff" opacity="${(0.12 * soft).toFixed(3)}"/>`;
    case 'side':
      return `<defs><linearGradient id="side" x1="${from}" y1="0" x2="${to}" y2="0"><stop offset="0" stop-color="#ffffff" stop-opacity="${(0.3 * soft).toFixed(3)}"/><stop offset="0.45" stop-color="#ffffff" stop-opacity="0"/><stop offset="0.6" stop-color="#000000" stop-opacity="0"/><stop offset="1" stop-color="#000000" stop-opacity="${(0.32 * soft).toFixed(3)}"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#side)"/>`;
    case 'golden':
      return `<defs><linearGradient id="gold" x1="${from}" y1="0" x2="${to}" y2="1"><stop offset="0" stop-color="#ffb030" stop-opacity="${(0.45 * soft).toFixed(3)}"/><stop offset="0.7" stop-color="#ff7a30" stop-opacity="${(0.08 * soft).toFixed(3)}"/><stop offset="1" stop-color="#5a2a40" stop-opacity="${(0.18 * soft).toFixed(3)}"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#gold)"/>`;
    default:
      return '';
  }
}

function rgbOf(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function rgb(c: readonly [number, number, number], factor = 1): string {
  return `rgb(${c.map((v) => Math.max(0, Math.min(255, Math.round(v * factor)))).join(',')})`;
}

function shade(hex: string, factor: number): string {
  return rgb(rgbOf(hex), factor);
}

/** A colour mixed towards white by `amount` (0 … 1). */
function lighten(hex: string, amount: number): string {
  return rgb(rgbOf(hex).map((v) => v + (255 - v) * amount) as [number, number, number]);
}

export function hslHex(hue: number, saturation: number, lightness: number): string {
  const hDeg = ((hue % 360) + 360) % 360;
  const c = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const x = c * (1 - Math.abs(((hDeg / 60) % 2) - 1));
  const m = lightness - c / 2;
  const [r, g, b] = hDeg < 60 ? [c, x, 0] : hDeg < 120 ? [x, c, 0] : hDeg < 180 ? [0, c, x] : hDeg < 240 ? [0, x, c] : hDeg < 300 ? [x, 0, c] : [c, 0, x];
  return `#${[r, g, b]
    .map((v) =>
      Math.round((v + m) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export function portraitSvg(art: PortraitArt): string {
  const { width: w, height: h } = MAIN_IMAGE;
  const p = art.person;
  const paint = painterFor(art);
  const soft = art.style === 'soft';
  const poster = art.style === 'poster';
  const lineArt = art.style === 'line';
  const hairRgb = p.hair;
  const hair = rgb(hairRgb);
  const hairDark = rgb(hairRgb, 0.72);
  const skinShadow = shade(p.skin, 0.86);
  const cx = w / 2 + art.headX;
  const cy = 240 + art.headY;
  const rx = 74 * p.headScale * p.faceWidth;
  const ry = 92 * p.headScale;
  const shoulderTop = cy + ry + 42;
  const s = p.shoulderHalfWidth;
  const turn = art.turn;
  const dx = turn * rx * 0.24; // the features move towards the side the head turns to
  const light = art.lightSide;

  const defs: string[] = [];
  let skinFill = p.skin;
  let hairFill = hair;
  let clothFill = art.clothing;
  if (soft) {
    // Soft shading: the face lit from the light's side, hair and clothes darker at the bottom.
    defs.push(
      `<radialGradient id="skinG" cx="${(0.5 + light * 0.22).toFixed(2)}" cy="0.35" r="0.8"><stop offset="0" stop-color="${lighten(p.skin, 0.18)}"/><stop offset="0.6" stop-color="${p.skin}"/><stop offset="1" stop-color="${shade(p.skin, 0.8)}"/></radialGradient>`,
      `<linearGradient id="hairG" x1="${light < 0 ? 0 : 1}" y1="0" x2="${light < 0 ? 1 : 0}" y2="1"><stop offset="0" stop-color="${rgb(hairRgb, 1.25)}"/><stop offset="1" stop-color="${rgb(hairRgb, 0.7)}"/></linearGradient>`,
      `<linearGradient id="clothG" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${lighten(art.clothing, 0.15)}"/><stop offset="1" stop-color="${shade(art.clothing, 0.6)}"/></linearGradient>`,
    );
    skinFill = 'url(#skinG)';
    hairFill = 'url(#hairG)';
    clothFill = 'url(#clothG)';
  }
  if (poster) clothFill = posterise(art.clothing, art.hue + 90);
  // Line art: the clothes a pale tint of their colour, the lines do the drawing.
  const paper = lighten(art.clothing, 0.8);
  if (lineArt) clothFill = paper;
  // Stripes are bands clipped to the body (a fill pattern costs librsvg twice the time of the whole portrait).
  const stripeColour = lineArt ? art.clothing : '#f6f1e7';
  const fig = paint.fig;

  // --- Hair behind the head (tilts with the head) ---
  let back = '';
  switch (p.hairStyle) {
    case 'long':
      back = `<path d="M ${f(cx - rx * 1.18)} ${f(cy + ry * 1.4)} V ${f(cy - ry * 0.1)} A ${f(rx * 1.18)} ${f(ry * 1.08)} 0 0 1 ${f(cx + rx * 1.18)} ${f(cy - ry * 0.1)} V ${f(cy + ry * 1.4)} Q ${f(cx)} ${f(cy + ry * 1.55)} ${f(cx - rx * 1.18)} ${f(cy + ry * 1.4)} Z"/>`;
      break;
    case 'wavy': {
      let d = `M ${f(cx - rx * 1.2)} ${f(cy - ry * 0.1)} A ${f(rx * 1.2)} ${f(ry * 1.1)} 0 0 1 ${f(cx + rx * 1.2)} ${f(cy - ry * 0.1)}`;
      for (let i = 1; i <= 4; i++) d += ` Q ${f(cx + rx * (1.2 + (i % 2 ? 0.22 : -0.1)))} ${f(cy - ry * 0.1 + ry * 0.42 * (i - 0.5))} ${f(cx + rx * 1.22)} ${f(cy - ry * 0.1 + ry * 0.42 * i)}`;
      d += ` H ${f(cx - rx * 1.22)}`;
      for (let i = 3; i >= 0; i--) d += ` Q ${f(cx - rx * (1.2 + (i % 2 ? -0.1 : 0.22)))} ${f(cy - ry * 0.1 + ry * 0.42 * (i + 0.5))} ${f(cx - rx * 1.2)} ${f(cy - ry * 0.1 + ry * 0.42 * i)}`;
      back = `<path d="${d} Z"/>`;
      break;
    }
    case 'bob':
      back = `<path d="M ${f(cx - rx * 1.22)} ${f(cy + ry * 0.72)} V ${f(cy - ry * 0.1)} A ${f(rx * 1.22)} ${f(ry * 1.06)} 0 0 1 ${f(cx + rx * 1.22)} ${f(cy - ry * 0.1)} V ${f(cy + ry * 0.72)} Z"/>`;
      break;
    case 'ponytail':
      back = `<ellipse cx="${f(cx - light * rx * 1.0)}" cy="${f(cy + ry * 0.35)}" rx="${f(rx * 0.3)}" ry="${f(ry * 0.75)}" transform="rotate(${-light * 12} ${f(cx - light * rx)} ${f(cy + ry * 0.35)})"/><ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.12)}" rx="${f(rx * 1.08)}" ry="${f(ry * 1.0)}"/>`;
      break;
    case 'bun':
      back = `<circle cx="${f(cx + dx * 0.5)}" cy="${f(cy - ry * 1.08)}" r="${f(rx * 0.42)}"/><ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.12)}" rx="${f(rx * 1.07)}" ry="${f(ry * 1.0)}"/>`;
      break;
    case 'afro':
      back = `<ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.32)}" rx="${f(rx * (p.female ? 1.65 : 1.45))}" ry="${f(ry * (p.female ? 1.3 : 1.12))}"/>`;
      break;
    case 'braids':
      back = `<ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.12)}" rx="${f(rx * 1.1)}" ry="${f(ry * 1.02)}"/>`;
      break;
    case 'curly': {
      const count = p.female ? 13 : 9;
      const spread = p.female ? 1.25 : 0.95;
      for (let i = 0; i < count; i++) {
        const a = Math.PI * (0.95 + (spread * i) / (count - 1)) + (p.female ? -0.15 : 0.05);
        back += `<circle cx="${f(cx + Math.cos(a) * rx * 1.0)}" cy="${f(cy - ry * 0.1 + Math.sin(a) * ry * 0.98)}" r="${f(rx * (p.female ? 0.34 : 0.26))}"/>`;
      }
      if (p.female) back += `<rect x="${f(cx - rx * 1.25)}" y="${f(cy - ry * 0.1)}" width="${f(rx * 2.5)}" height="${f(ry * 1.1)}" rx="${f(rx * 0.6)}"/>`;
      break;
    }
    default:
      break;
  }

  // --- Hair over the top of the head, by style ---
  const cap = (depth: number, sides: number, part = 0.2) =>
    `<path d="M ${f(cx - rx * 1.02)} ${f(cy - ry * sides)} C ${f(cx - rx * 1.05)} ${f(cy - ry * 1.25)} ${f(cx + rx * 1.05)} ${f(cy - ry * 1.25)} ${f(cx + rx * 1.02)} ${f(cy - ry * sides)} C ${f(cx + rx * 0.7 + dx)} ${f(cy - ry * depth)} ${f(cx - rx * part + dx)} ${f(cy - ry * (depth + 0.12))} ${f(cx - rx * 1.02)} ${f(cy - ry * sides)} Z"/>`;
  let front = '';
  switch (p.hairStyle) {
    case 'long':
    case 'wavy':
    case 'ponytail':
    case 'bun':
    case 'braids':
      front = cap(0.5, 0.05);
      break;
    case 'bob':
      // A straight fringe.
      front = `<path d="M ${f(cx - rx * 1.05)} ${f(cy - ry * 0.05)} C ${f(cx - rx * 1.05)} ${f(cy - ry * 1.25)} ${f(cx + rx * 1.05)} ${f(cy - ry * 1.25)} ${f(cx + rx * 1.05)} ${f(cy - ry * 0.05)} L ${f(cx + rx * 0.9)} ${f(cy - ry * 0.4)} H ${f(cx - rx * 0.9)} Z"/>`;
      break;
    case 'curly':
      front = cap(0.62, 0.25);
      break;
    case 'afro':
      front = cap(0.6, 0.2);
      break;
    case 'pixie':
      front = `${cap(0.55, 0.3, -0.4)}<path d="M ${f(cx + light * rx * 0.9)} ${f(cy - ry * 0.9)} Q ${f(cx - light * rx * 0.2)} ${f(cy - ry * 0.75)} ${f(cx - light * rx * 0.75)} ${f(cy - ry * 0.35)} Q ${f(cx - light * rx * 0.1)} ${f(cy - ry * 0.55)} ${f(cx + light * rx * 0.5)} ${f(cy - ry * 0.55)} Z"/>`;
      break;
    case 'short':
      front = cap(0.68, 0.3);
      break;
    case 'crew':
      front = cap(0.8, 0.42);
      break;
    case 'buzz':
      front = `<g opacity="0.75">${cap(0.85, 0.45, 0.4)}</g>`;
      break;
    case 'quiff':
      front = `${cap(0.72, 0.35)}<ellipse cx="${f(cx + dx + rx * 0.15)}" cy="${f(cy - ry * 1.08)}" rx="${f(rx * 0.7)}" ry="${f(ry * 0.28)}" transform="rotate(-8 ${f(cx)} ${f(cy - ry)})"/>`;
      break;
    case 'sidepart':
      front = `${cap(0.62, 0.3, 0.6)}<path d="M ${f(cx - light * rx * 0.45)} ${f(cy - ry * 1.1)} Q ${f(cx + light * rx * 0.6)} ${f(cy - ry * 1.05)} ${f(cx + light * rx * 1.02)} ${f(cy - ry * 0.45)} Q ${f(cx + light * rx * 0.4)} ${f(cy - ry * 0.85)} ${f(cx - light * rx * 0.45)} ${f(cy - ry * 0.9)} Z"/>`;
      break;
    case 'receding':
      front = `<path d="M ${f(cx - rx * 1.0)} ${f(cy - ry * 0.1)} C ${f(cx - rx * 1.05)} ${f(cy - ry * 0.8)} ${f(cx - rx * 0.7)} ${f(cy - ry * 0.9)} ${f(cx - rx * 0.55)} ${f(cy - ry * 0.75)} C ${f(cx - rx * 0.8)} ${f(cy - ry * 0.55)} ${f(cx - rx * 0.9)} ${f(cy - ry * 0.3)} ${f(cx - rx * 1.0)} ${f(cy - ry * 0.1)} Z"/><path d="M ${f(cx + rx * 1.0)} ${f(cy - ry * 0.1)} C ${f(cx + rx * 1.05)} ${f(cy - ry * 0.8)} ${f(cx + rx * 0.7)} ${f(cy - ry * 0.9)} ${f(cx + rx * 0.55)} ${f(cy - ry * 0.75)} C ${f(cx + rx * 0.8)} ${f(cy - ry * 0.55)} ${f(cx + rx * 0.9)} ${f(cy - ry * 0.3)} ${f(cx + rx * 1.0)} ${f(cy - ry * 0.1)} Z"/>`;
      break;
    default:
      break;
  }
  const temples =
    p.greyTemples && p.hairStyle !== 'bald'
      ? `<g fill="#c9c9cf" opacity="0.85"><ellipse cx="${f(cx - rx * 0.95)}" cy="${f(cy - ry * 0.3)}" rx="${f(rx * 0.13)}" ry="${f(ry * 0.22)}"/><ellipse cx="${f(cx + rx * 0.95)}" cy="${f(cy - ry * 0.3)}" rx="${f(rx * 0.13)}" ry="${f(ry * 0.22)}"/></g>`
      : '';
  // Braids hang in front of the shoulders.
  const braids =
    p.hairStyle === 'braids'
      ? [-1, 1]
          .map((side) => {
            let out = '';
            for (let i = 0; i < 6; i++) out += `<ellipse cx="${f(cx + side * rx * 0.95)}" cy="${f(cy + ry * 0.2 + i * ry * 0.24)}" rx="${f(rx * 0.16)}" ry="${f(ry * 0.15)}"/>`;
            return out;
          })
          .join('')
      : '';

  // --- Face ---
  const eyeY = cy - ry * 0.02;
  const eyeDx = rx * 0.38 * (1 - Math.abs(turn) * 0.12);
  const leftEye = cx + dx - eyeDx;
  const rightEye = cx + dx + eyeDx;
  const happyEyes = art.expression === 'joy';
  const eye = (x: number) =>
    happyEyes
      ? `<path d="M ${f(x - 11)} ${f(eyeY + 2)} Q ${f(x)} ${f(eyeY - 9)} ${f(x + 11)} ${f(eyeY + 2)}" stroke="#2b2220" stroke-width="4" fill="none" stroke-linecap="round"/>`
      : lineArt
        ? `<ellipse cx="${f(x)}" cy="${f(eyeY)}" rx="10" ry="7" fill="#ffffff" stroke="${INK}" stroke-width="2.5"/><circle cx="${f(x + turn * 3)}" cy="${f(eyeY)}" r="4.6" fill="${p.eyes}" stroke="${INK}" stroke-width="2"/>`
        : `<ellipse cx="${f(x)}" cy="${f(eyeY)}" rx="11" ry="7.5" fill="#ffffff"/><circle cx="${f(x + turn * 3)}" cy="${f(eyeY)}" r="6" fill="${p.eyes}"/><circle cx="${f(x + turn * 3)}" cy="${f(eyeY)}" r="2.6" fill="#1d1512"/><circle cx="${f(x + turn * 3 + 2)}" cy="${f(eyeY - 2)}" r="1.4" fill="#ffffff"/>`;
  const browLift = art.expression === 'joy' || art.expression === 'open' ? -4 : 0;
  const brow = (x: number, side: number) => {
    const lift = browLift + (art.expression === 'smirk' && side > 0 ? -6 : 0);
    return `<path d="M ${f(x - 14)} ${f(eyeY - 19 + lift)} Q ${f(x)} ${f(eyeY - 27 + lift)} ${f(x + 14)} ${f(eyeY - 20 + lift)}" stroke="${p.hair[0] > 150 && p.hair[1] > 150 ? rgb(hairRgb, 0.6) : hairDark}" stroke-width="${p.female ? 4 : 6}" fill="none" stroke-linecap="round"/>`;
  };
  const mouthY = cy + ry * 0.45;
  const mx = cx + dx;
  const mw = rx * (art.expression === 'open' || art.expression === 'joy' ? 0.3 : 0.26);
  let mouth: string;
  switch (art.expression) {
    case 'open':
    case 'joy':
      mouth = `<path d="M ${f(mx - mw)} ${f(mouthY - 2)} Q ${f(mx)} ${f(mouthY + ry * 0.26)} ${f(mx + mw)} ${f(mouthY - 2)} Z" fill="#fbf6f0" stroke="${p.lips}" stroke-width="${p.female ? 5 : 4}" stroke-linejoin="round"/>`;
      break;
    case 'smirk':
      mouth = `<path d="M ${f(mx - mw)} ${f(mouthY + 3)} Q ${f(mx)} ${f(mouthY + ry * 0.1)} ${f(mx + mw)} ${f(mouthY - 6)}" stroke="${p.lips}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
      break;
    case 'calm':
      mouth = `<path d="M ${f(mx - mw * 0.8)} ${f(mouthY + 2)} Q ${f(mx)} ${f(mouthY + 6)} ${f(mx + mw * 0.8)} ${f(mouthY + 2)}" stroke="${p.lips}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
      break;
    default:
      mouth = p.female
        ? `<path d="M ${f(mx - mw)} ${f(mouthY)} Q ${f(mx)} ${f(mouthY + ry * 0.2)} ${f(mx + mw)} ${f(mouthY)} Q ${f(mx)} ${f(mouthY + ry * 0.06)} ${f(mx - mw)} ${f(mouthY)} Z" fill="${p.lips}"/>`
        : `<path d="M ${f(mx - mw)} ${f(mouthY)} Q ${f(mx)} ${f(mouthY + ry * 0.16)} ${f(mx + mw)} ${f(mouthY)}" stroke="${p.lips}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
  }
  const nose = `<path d="M ${f(cx + dx * 1.3 - 3)} ${f(eyeY + 18)} Q ${f(cx + dx * 1.3 + (turn >= 0 ? 10 : -10))} ${f(cy + ry * 0.28)} ${f(cx + dx * 1.3 + (turn >= 0 ? -4 : 4))} ${f(cy + ry * 0.3)}" stroke="${lineArt ? INK : shade(p.skin, 0.78)}" stroke-width="${lineArt ? 2.5 : 4}" fill="none" stroke-linecap="round"/>`;
  const jaw = `M ${f(cx - rx * 0.98)} ${f(cy + ry * 0.05)} C ${f(cx - rx * 0.95)} ${f(cy + ry * 0.75)} ${f(cx - rx * 0.45)} ${f(cy + ry * 1.02)} ${f(cx)} ${f(cy + ry * 1.02)} C ${f(cx + rx * 0.45)} ${f(cy + ry * 1.02)} ${f(cx + rx * 0.95)} ${f(cy + ry * 0.75)} ${f(cx + rx * 0.98)} ${f(cy + ry * 0.05)} C ${f(cx + rx * 0.7)} ${f(cy + ry * 0.4)} ${f(cx - rx * 0.7)} ${f(cy + ry * 0.4)} ${f(cx - rx * 0.98)} ${f(cy + ry * 0.05)} Z`;
  const beardColour = p.age >= 55 ? '#b9b9be' : hair;
  let beard = '';
  if (p.beard === 'full' || p.beard === 'stubble') beard = `<path d="${jaw}" fill="${beardColour}" opacity="${p.beard === 'full' ? 0.95 : 0.35}"/>`;
  else if (p.beard === 'moustache')
    beard = `<path d="M ${f(mx - mw * 1.15)} ${f(mouthY - 2)} Q ${f(mx)} ${f(mouthY - 22)} ${f(mx + mw * 1.15)} ${f(mouthY - 2)} Q ${f(mx)} ${f(mouthY - 10)} ${f(mx - mw * 1.15)} ${f(mouthY - 2)} Z" fill="${beardColour}"/>`;
  else if (p.beard === 'goatee')
    beard = `<path d="M ${f(mx - mw * 1.1)} ${f(mouthY - 4)} Q ${f(mx)} ${f(mouthY - 18)} ${f(mx + mw * 1.1)} ${f(mouthY - 4)} L ${f(mx + mw * 0.6)} ${f(cy + ry * 0.98)} Q ${f(mx)} ${f(cy + ry * 1.08)} ${f(mx - mw * 0.6)} ${f(cy + ry * 0.98)} Z" fill="${beardColour}"/>`;
  const lineInk = lineArt ? INK : shade(p.skin, 0.72);
  let ageLines = '';
  if (p.lines >= 1) {
    ageLines += `<g stroke="${lineInk}" stroke-width="2.2" fill="none" stroke-linecap="round" opacity="0.7">`;
    for (const side of [-1, 1]) {
      const ex = cx + dx + side * (eyeDx + 14);
      ageLines += `<path d="M ${f(ex)} ${f(eyeY - 3)} l ${f(side * 8)} -4 M ${f(ex + side)} ${f(eyeY + 3)} l ${f(side * 8)} 3"/>`;
    }
    if (p.hairStyle !== 'bob') ageLines += `<path d="M ${f(cx + dx - rx * 0.35)} ${f(cy - ry * 0.5)} Q ${f(cx + dx)} ${f(cy - ry * 0.55)} ${f(cx + dx + rx * 0.35)} ${f(cy - ry * 0.5)}"/>`;
    if (p.lines >= 2) {
      ageLines += `<path d="M ${f(mx - mw - 6)} ${f(cy + ry * 0.28)} Q ${f(mx - mw - 12)} ${f(mouthY)} ${f(mx - mw - 4)} ${f(mouthY + 10)} M ${f(mx + mw + 6)} ${f(cy + ry * 0.28)} Q ${f(mx + mw + 12)} ${f(mouthY)} ${f(mx + mw + 4)} ${f(mouthY + 10)}"/>`;
      ageLines += `<path d="M ${f(leftEye - 10)} ${f(eyeY + 12)} q 10 5 20 0 M ${f(rightEye - 10)} ${f(eyeY + 12)} q 10 5 20 0"/>`;
    }
    ageLines += '</g>';
  }
  const cheeks = lineArt
    ? ''
    : `<circle cx="${f(mx - rx * 0.55)}" cy="${f(cy + ry * 0.28)}" r="14" fill="#e8857a" opacity="${p.age < 30 ? 0.32 : 0.2}"/><circle cx="${f(mx + rx * 0.55)}" cy="${f(cy + ry * 0.28)}" r="14" fill="#e8857a" opacity="${p.age < 30 ? 0.32 : 0.2}"/>`;
  let freckles = '';
  if (p.freckles)
    for (const [fx, fy] of [
      [-0.5, 0.18],
      [-0.38, 0.26],
      [-0.6, 0.3],
      [0.5, 0.18],
      [0.38, 0.26],
      [0.6, 0.3],
      [-0.45, 0.36],
      [0.45, 0.36],
    ] as const)
      freckles += `<circle cx="${f(mx + fx * rx)}" cy="${f(cy + fy * ry)}" r="2.2" fill="${shade(p.skin, 0.65)}"/>`;
  const glassesInk = lineArt ? INK : '#2b2b2b';
  let glasses = '';
  if (p.glasses === 'round')
    glasses = `<g fill="none" stroke="${glassesInk}" stroke-width="4"><circle cx="${f(leftEye)}" cy="${f(eyeY)}" r="19"/><circle cx="${f(rightEye)}" cy="${f(eyeY)}" r="19"/><path d="M ${f(leftEye + 19)} ${f(eyeY)} H ${f(rightEye - 19)}"/></g>`;
  else if (p.glasses === 'square')
    glasses = `<g fill="#ffffff" fill-opacity="0.12" stroke="${glassesInk}" stroke-width="5"><rect x="${f(leftEye - 22)}" y="${f(eyeY - 15)}" width="44" height="30" rx="6"/><rect x="${f(rightEye - 22)}" y="${f(eyeY - 15)}" width="44" height="30" rx="6"/><path d="M ${f(leftEye + 22)} ${f(eyeY - 4)} H ${f(rightEye - 22)}" fill="none"/></g>`;
  else if (p.glasses === 'reading')
    // Half-rim reading glasses, low on the nose.
    glasses = `<g fill="none" stroke="#6b4a2e" stroke-width="3.5"><path d="M ${f(leftEye - 18)} ${f(eyeY + 6)} H ${f(leftEye + 18)} Q ${f(leftEye + 17)} ${f(eyeY + 24)} ${f(leftEye)} ${f(eyeY + 24)} Q ${f(leftEye - 17)} ${f(eyeY + 24)} ${f(leftEye - 18)} ${f(eyeY + 6)} M ${f(rightEye - 18)} ${f(eyeY + 6)} H ${f(rightEye + 18)} Q ${f(rightEye + 17)} ${f(eyeY + 24)} ${f(rightEye)} ${f(eyeY + 24)} Q ${f(rightEye - 17)} ${f(eyeY + 24)} ${f(rightEye - 18)} ${f(eyeY + 6)} M ${f(leftEye + 18)} ${f(eyeY + 8)} Q ${f(mx)} ${f(eyeY)} ${f(rightEye - 18)} ${f(eyeY + 8)}"/></g>`;
  const earY = cy + ry * 0.05;
  const ear = (side: number) => `<ellipse cx="${f(cx + side * rx * 0.97)}" cy="${f(earY)}" rx="${f(rx * 0.16)}" ry="${f(ry * 0.2)}" ${fig(lineArt ? p.skin : skinShadow)}/>`;
  // The far ear hides behind the head when it is turned.
  const ears = `${turn < 0.3 ? ear(1) : ''}${turn > -0.3 ? ear(-1) : ''}`;
  const earring = (side: number) =>
    p.earrings === 'hoops'
      ? `<circle cx="${f(cx + side * rx * 0.98)}" cy="${f(cy + ry * 0.36)}" r="10" fill="none" stroke="#e2b84a" stroke-width="3.5"/>`
      : `<circle cx="${f(cx + side * rx * 0.98)}" cy="${f(cy + ry * 0.28)}" r="6" fill="#e2b84a"/>`;
  const earrings = p.earrings === 'none' ? '' : `${turn < 0.3 ? earring(1) : ''}${turn > -0.3 ? earring(-1) : ''}`;
  // Poster style: a hard shadow on the side away from the light.
  const faceShadow = poster
    ? `<defs><clipPath id="faceClip"><ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}"/></clipPath></defs><path clip-path="url(#faceClip)" d="M ${f(cx - light * rx * 0.15)} ${f(cy - ry * 1.1)} Q ${f(cx - light * rx * 0.5)} ${f(cy)} ${f(cx - light * rx * 0.1)} ${f(cy + ry * 1.1)} H ${f(cx - light * rx * 1.2)} V ${f(cy - ry * 1.1)} Z" fill="${shade(p.skin, 0.78)}"/>`
    : '';

  // --- Headwear ---
  let hat = '';
  const hatColour = hslHex(art.hue + 150, 0.45, 0.45);
  switch (art.headwear) {
    case 'beanie':
      hat = `<path d="M ${f(cx - rx * 1.08)} ${f(cy - ry * 0.45)} C ${f(cx - rx * 1.1)} ${f(cy - ry * 1.5)} ${f(cx + rx * 1.1)} ${f(cy - ry * 1.5)} ${f(cx + rx * 1.08)} ${f(cy - ry * 0.45)} Z" ${fig(hatColour)}/><rect x="${f(cx - rx * 1.12)}" y="${f(cy - ry * 0.62)}" width="${f(rx * 2.24)}" height="${f(ry * 0.24)}" rx="10" ${fig(shade(hatColour, 0.8))}/>`;
      break;
    case 'cap':
      hat = `<path d="M ${f(cx - rx * 1.04)} ${f(cy - ry * 0.5)} C ${f(cx - rx * 1.06)} ${f(cy - ry * 1.38)} ${f(cx + rx * 1.06)} ${f(cy - ry * 1.38)} ${f(cx + rx * 1.04)} ${f(cy - ry * 0.5)} Z" ${fig(hatColour)}/><path d="M ${f(cx + dx - rx * 0.9)} ${f(cy - ry * 0.52)} Q ${f(cx + dx + turn * rx * 0.8)} ${f(cy - ry * 0.28)} ${f(cx + dx + rx * 0.9)} ${f(cy - ry * 0.52)} Z" ${fig(shade(hatColour, 0.7))}/>`;
      break;
    case 'sunhat': {
      const straw = '#e7cf8f';
      hat = `<ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.62)}" rx="${f(rx * 2.0)}" ry="${f(ry * 0.3)}" ${fig(straw)}/><path d="M ${f(cx - rx * 0.95)} ${f(cy - ry * 0.6)} C ${f(cx - rx * 0.95)} ${f(cy - ry * 1.5)} ${f(cx + rx * 0.95)} ${f(cy - ry * 1.5)} ${f(cx + rx * 0.95)} ${f(cy - ry * 0.6)} Z" ${fig(straw)}/><rect x="${f(cx - rx * 0.95)}" y="${f(cy - ry * 0.8)}" width="${f(rx * 1.9)}" height="14" ${fig(hatColour)}/>`;
      break;
    }
    case 'headband':
      hat = `<path d="M ${f(cx - rx * 1.0)} ${f(cy - ry * 0.45)} Q ${f(cx)} ${f(cy - ry * 1.3)} ${f(cx + rx * 1.0)} ${f(cy - ry * 0.45)}" stroke="${hatColour}" stroke-width="14" fill="none" stroke-linecap="round"/>`;
      break;
    default:
      break;
  }

  // --- Body and clothes (the shoulders angled) ---
  const bodyPath = `M ${f(cx - s - 40)} ${h + 20} C ${f(cx - s - 30)} ${f(shoulderTop + 40)} ${f(cx - s * 0.6)} ${f(shoulderTop)} ${f(cx)} ${f(shoulderTop)} C ${f(cx + s * 0.6)} ${f(shoulderTop)} ${f(cx + s + 30)} ${f(shoulderTop + 40)} ${f(cx + s + 40)} ${h + 20} Z`;
  const neckRect = `<rect x="${f(cx - rx * 0.36)}" y="${f(cy + ry * 0.5)}" width="${f(rx * 0.72)}" height="${f(shoulderTop - cy - ry * 0.5 + 8)}" rx="${f(rx * 0.25)}" ${fig(lineArt ? p.skin : skinShadow)}/>`;
  let garment = '';
  const neckline =
    art.garment === 'shirt' ? 'collar' : art.garment === 'tee' || art.garment === 'sweater' || art.garment === 'stripes' ? (art.neckline === 'collar' ? 'round' : art.neckline) : art.neckline;
  let neckSkin = true;
  switch (art.garment) {
    case 'turtleneck':
      neckSkin = false;
      garment = `<rect x="${f(cx - rx * 0.48)}" y="${f(cy + ry * 0.82)}" width="${f(rx * 0.96)}" height="${f(shoulderTop - cy - ry * 0.82 + 20)}" rx="12" ${fig(lineArt ? paper : shade(art.clothing, 0.85))}/>`;
      break;
    case 'hoodie':
      garment = `<path d="M ${f(cx - rx * 0.95)} ${f(shoulderTop + 8)} Q ${f(cx)} ${f(shoulderTop + 70)} ${f(cx + rx * 0.95)} ${f(shoulderTop + 8)} Q ${f(cx)} ${f(shoulderTop - 26)} ${f(cx - rx * 0.95)} ${f(shoulderTop + 8)} Z" ${fig(lineArt ? paper : shade(art.clothing, 0.75))}/><path d="M ${f(cx - 16)} ${f(shoulderTop + 30)} v 60 M ${f(cx + 16)} ${f(shoulderTop + 30)} v 60" stroke="#f4f4f4" stroke-width="4" stroke-linecap="round"/>`;
      break;
    case 'straps': {
      // A sleeveless dress: shoulders bare, a neckline and two straps.
      const top = shoulderTop + 48;
      garment = `<path d="M ${f(cx - s - 40)} ${h + 20} C ${f(cx - s - 30)} ${f(top + 10)} ${f(cx - s * 0.5)} ${f(top)} ${f(cx - s * 0.3)} ${f(top)} Q ${f(cx)} ${f(top + 40)} ${f(cx + s * 0.3)} ${f(top)} C ${f(cx + s * 0.5)} ${f(top)} ${f(cx + s + 30)} ${f(top + 10)} ${f(cx + s + 40)} ${h + 20} Z" ${fig(clothFill)}/><path d="M ${f(cx - s * 0.45)} ${f(shoulderTop + 8)} L ${f(cx - s * 0.38)} ${f(top + 6)} M ${f(cx + s * 0.45)} ${f(shoulderTop + 8)} L ${f(cx + s * 0.38)} ${f(top + 6)}" stroke="${lineArt ? INK : shade(art.clothing, 0.7)}" stroke-width="6"/>`;
      break;
    }
    default:
      break;
  }
  let neck = '';
  if (neckSkin && art.garment !== 'straps' && art.garment !== 'hoodie') {
    if (neckline === 'v') neck = `<path d="M ${f(cx - rx * 0.55)} ${f(shoulderTop - 4)} L ${f(cx)} ${f(shoulderTop + 70)} L ${f(cx + rx * 0.55)} ${f(shoulderTop - 4)} Z" ${fig(skinFill)}/>`;
    else if (neckline === 'round') neck = `<ellipse cx="${f(cx)}" cy="${f(shoulderTop)}" rx="${f(rx * 0.6)}" ry="26" ${fig(skinFill)}/>`;
    else {
      const collar = lineArt ? '#ffffff' : art.garment === 'shirt' ? lighten(art.clothing, 0.55) : '#f4f4f4';
      neck = `<ellipse cx="${f(cx)}" cy="${f(shoulderTop - 2)}" rx="${f(rx * 0.5)}" ry="18" ${fig(skinFill)}/><path d="M ${f(cx - rx * 0.55)} ${f(shoulderTop - 8)} L ${f(cx - 4)} ${f(shoulderTop + 34)} L ${f(cx - rx * 0.85)} ${f(shoulderTop + 22)} Z M ${f(cx + rx * 0.55)} ${f(shoulderTop - 8)} L ${f(cx + 4)} ${f(shoulderTop + 34)} L ${f(cx + rx * 0.85)} ${f(shoulderTop + 22)} Z" ${fig(collar)}/>`;
      if (art.garment === 'shirt')
        neck += `<path d="M ${f(cx)} ${f(shoulderTop + 34)} V ${h}" stroke="${shade(art.clothing, 0.7)}" stroke-width="3"/><circle cx="${f(cx)}" cy="${f(shoulderTop + 60)}" r="3.5" fill="#f4f4f4"/><circle cx="${f(cx)}" cy="${f(shoulderTop + 100)}" r="3.5" fill="#f4f4f4"/>`;
    }
    if (art.garment === 'sweater' && neckline === 'round')
      neck += `<ellipse cx="${f(cx)}" cy="${f(shoulderTop)}" rx="${f(rx * 0.6 + 5)}" ry="31" fill="none" stroke="${shade(art.clothing, 0.75)}" stroke-width="8"/>`;
  }
  const jacketColour = lineArt ? '#e9e3d6' : poster ? posterise(art.clothing, art.hue + 200) : shade(art.clothing, 0.62);
  const jacket =
    art.top === 'jacket'
      ? `<path d="M ${f(cx - s - 40)} ${h + 20} C ${f(cx - s - 30)} ${f(shoulderTop + 40)} ${f(cx - s * 0.6)} ${f(shoulderTop)} ${f(cx - rx * 0.7)} ${f(shoulderTop)} L ${f(cx - rx * 0.35)} ${h + 20} Z M ${f(cx + s + 40)} ${h + 20} C ${f(cx + s + 30)} ${f(shoulderTop + 40)} ${f(cx + s * 0.6)} ${f(shoulderTop)} ${f(cx + rx * 0.7)} ${f(shoulderTop)} L ${f(cx + rx * 0.35)} ${h + 20} Z" ${fig(jacketColour)}/>`
      : '';
  const necklace =
    p.necklace && (neckline !== 'collar' || art.garment === 'straps') && art.garment !== 'turtleneck' && art.garment !== 'hoodie'
      ? `<path d="M ${f(cx - rx * 0.42)} ${f(shoulderTop - 6)} Q ${f(cx)} ${f(shoulderTop + 30)} ${f(cx + rx * 0.42)} ${f(shoulderTop - 6)}" stroke="#e2b84a" stroke-width="2.5" fill="none"/><circle cx="${f(cx)}" cy="${f(shoulderTop + 18)}" r="5" fill="#e2b84a"/>`
      : '';
  let torso = art.garment === 'straps' ? `<path d="${bodyPath}" ${fig(skinFill)}/>` : `<path d="${bodyPath}" ${fig(clothFill)}/>`;
  if (art.garment === 'stripes') {
    let bands = '';
    for (let y = shoulderTop + 30; y < h + 20; y += 52) bands += `<rect x="${f(cx - s - 50)}" y="${f(y)}" width="${f(2 * s + 100)}" height="20"/>`;
    torso += `<defs><clipPath id="bodyClip"><path d="${bodyPath}"/></clipPath></defs><g clip-path="url(#bodyClip)" fill="${stripeColour}">${bands}</g>`;
    if (poster || lineArt) torso += `<path d="${bodyPath}" fill="none" stroke="${INK}" stroke-width="${poster ? 5 : 3.5}"/>`;
  }

  // --- A hand: on the chin, or waving beside the head ---
  let hand = '';
  const handSide = art.lightSide;
  const sleeve = art.garment === 'straps' ? skinFill : art.top === 'jacket' ? jacketColour : clothFill;
  if (art.hand === 'chin') {
    const hx = cx + dx + handSide * rx * 0.35;
    const hy = cy + ry * 1.05;
    hand = `<path d="M ${f(hx + handSide * 40)} ${h + 20} L ${f(hx - handSide * 10)} ${f(hy + 40)} L ${f(hx + handSide * 40)} ${f(hy + 50)} L ${f(hx + handSide * 110)} ${h + 20} Z" ${fig(sleeve)}/><rect x="${f(hx - 30)}" y="${f(hy - 18)}" width="60" height="58" rx="24" ${fig(skinFill)}/><path d="M ${f(hx - 16)} ${f(hy - 14)} v 20 M ${f(hx)} ${f(hy - 16)} v 22 M ${f(hx + 16)} ${f(hy - 14)} v 20" stroke="${lineInk}" stroke-width="2.5" stroke-linecap="round" opacity="0.7"/>`;
  } else if (art.hand === 'wave') {
    const hx = cx + handSide * (rx + 95);
    const hy = cy + ry * 0.1;
    const fingers = [-22, -8, 6, 20].map((o, i) => `<rect x="${f(hx + o - 6)}" y="${f(hy - 58 + Math.abs(i - 1.5) * 6)}" width="13" height="44" rx="6.5" ${fig(skinFill)}/>`).join('');
    hand = `<path d="M ${f(hx - 30)} ${h + 20} L ${f(hx - 26)} ${f(hy + 40)} L ${f(hx + 26)} ${f(hy + 40)} L ${f(hx + 34)} ${h + 20} Z" ${fig(sleeve)}/>${fingers}<rect x="${f(hx + handSide * 26 - 7)}" y="${f(hy - 22)}" width="14" height="34" rx="7" transform="rotate(${handSide * 35} ${f(hx + handSide * 26)} ${f(hy + 10)})" ${fig(skinFill)}/><rect x="${f(hx - 30)}" y="${f(hy - 26)}" width="60" height="66" rx="24" ${fig(skinFill)}/>`;
  }

  const tilt = `rotate(${f(art.tilt)} ${f(cx)} ${f(cy + ry)})`;
  const shoulders = `rotate(${f(art.shoulderTilt)} ${f(cx)} ${h})`;
  const zoom = `translate(${w / 2} ${h}) scale(${art.zoom.toFixed(3)}) translate(${-w / 2} ${-h})`;
  const hairAttrs = lineArt
    ? `fill="${hair}" stroke="${INK}" stroke-width="3.5" stroke-linejoin="round"`
    : poster
      ? `fill="${hair}" stroke="${INK}" stroke-width="5" stroke-linejoin="round"`
      : `fill="${hairFill}"`;

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
${defs.length ? `<defs>${defs.join('')}</defs>` : ''}${sceneSvg(art, paint, w, h)}
<g transform="${zoom}">
<g transform="${tilt}"><g ${hairAttrs}>${back}</g></g>
<g transform="${shoulders}">${torso}${garment}${neckRect}${neck}${jacket}${necklace}</g>
<g transform="${tilt}">
<g ${hairAttrs}>${braids}</g>
${ears}
<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" ${fig(skinFill)}/>${faceShadow}
${freckles}${ageLines}${beard}
<g ${hairAttrs}>${front}</g>${temples}
${eye(leftEye)}${eye(rightEye)}${brow(leftEye, -1)}${brow(rightEye, 1)}
${nose}${cheeks}${mouth}${glasses}${earrings}${hat}
</g>
${hand}
</g>
${lightingSvg(art, w, h)}
</svg>`;
}
