/**
 * Draws the gif library the project ships (CHT-07) into public/gifs/<id>.webp: each entry of
 * LOCAL_GIFS is a few SVG frames of its motif, rasterised and joined into a looping animated WebP by
 * sharp. Deterministic, offline; run again after changing the library:
 *   . scripts/node24.sh && npx tsx scripts/generate-gifs.ts
 * (docs/decisions/036-gif-provider-and-shipped-media.md)
 */
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { LOCAL_GIF_SIZE, LOCAL_GIFS, type GifMotif, type LocalGif } from '../src/server/chat/gif-library';

const FRAMES = 8;
const DELAY_MS = 110;
const S = LOCAL_GIF_SIZE;
const OUT = resolve(import.meta.dirname, '..', 'public', 'gifs');

const HEART = 'M0 28 C -34 4 -40 -22 -20 -32 C -8 -38 0 -28 0 -20 C 0 -28 8 -38 20 -32 C 40 -22 34 4 0 28 Z';
const star = (r: number) => {
  const pts: string[] = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 === 0 ? r : r * 0.45;
    pts.push(`${(Math.cos(a) * rr).toFixed(1)},${(Math.sin(a) * rr).toFixed(1)}`);
  }
  return `M${pts.join(' L')} Z`;
};

/** One frame of a motif: `p` runs from 0 to 1 (exclusive) over the loop. */
type Draw = (p: number, gif: LocalGif) => string;
const wave = (p: number) => Math.sin(p * 2 * Math.PI);
const face = (fill: string) => `<circle cx="80" cy="80" r="52" fill="${fill}" stroke="#00000022" stroke-width="3"/>`;

const DRAW: Record<GifMotif, Draw> = {
  heart: (p, g) => {
    const s = 1.55 + 0.25 * Math.max(0, wave(p));
    return `<g transform="translate(80 84) scale(${s.toFixed(3)})"><path d="${HEART}" fill="${g.accent}"/><ellipse cx="-14" cy="-18" rx="6" ry="4" fill="#ffffff88"/></g>`;
  },
  wave: (p, g) => {
    const angle = 22 * wave(p);
    const finger = (x: number, h: number) => `<rect x="${x}" y="${88 - h}" width="13" height="${h + 10}" rx="6.5" fill="${g.accent}"/>`;
    return (
      `<g transform="rotate(${angle.toFixed(1)} 80 138)">${finger(50, 40)}${finger(64, 50)}${finger(78, 52)}${finger(92, 44)}` +
      `<rect x="50" y="80" width="55" height="58" rx="20" fill="${g.accent}"/><rect x="98" y="92" width="13" height="36" rx="6.5" transform="rotate(-35 104 110)" fill="${g.accent}"/></g>` +
      `<path d="M28 ${50 + 4 * wave(p)} q-8 10 0 20 M132 ${50 - 4 * wave(p)} q8 10 0 20" stroke="#00000055" stroke-width="4" fill="none" stroke-linecap="round"/>`
    );
  },
  wink: (p, g) => {
    const closed = p >= 0.375 && p < 0.75;
    const right = closed ? '<path d="M92 68 q10 6 20 0" stroke="#3d2c00" stroke-width="5" fill="none" stroke-linecap="round"/>' : '<ellipse cx="102" cy="66" rx="6" ry="9" fill="#3d2c00"/>';
    return (
      `${face(g.accent)}<ellipse cx="58" cy="66" rx="6" ry="9" fill="#3d2c00"/>${right}<path d="M52 96 q28 ${closed ? 26 : 20} 56 0" stroke="#3d2c00" stroke-width="5" fill="none" stroke-linecap="round"/>` +
      (closed ? '<ellipse cx="112" cy="88" rx="8" ry="5" fill="#ff8fa3aa"/>' : '')
    );
  },
  flower: (p, g) => {
    const turn = p * 72;
    const bloom = 0.9 + 0.1 * wave(p);
    const petals = [0, 72, 144, 216, 288].map((a) => `<ellipse cx="0" cy="-22" rx="15" ry="22" fill="${g.accent}" transform="rotate(${a + turn})"/>`).join('');
    return (
      `<path d="M80 150 C 80 120 76 110 80 90" stroke="#2d6a4f" stroke-width="7" fill="none"/><ellipse cx="96" cy="128" rx="14" ry="7" fill="#40916c" transform="rotate(-30 96 128)"/>` +
      `<g transform="translate(80 64) scale(${bloom.toFixed(3)})">${petals}<circle r="12" fill="#ffd166"/></g>`
    );
  },
  champagne: (p, g) => {
    const tilt = 8 + 8 * Math.max(0, wave(p));
    const glass = (x: number, dir: number) =>
      `<g transform="rotate(${(dir * tilt).toFixed(1)} ${x} 140)"><path d="M${x - 14} 40 L${x + 14} 40 L${x + 9} 92 Q${x} 100 ${x - 9} 92 Z" fill="${g.accent}" stroke="#ffffffcc" stroke-width="3"/>` +
      `<line x1="${x}" y1="98" x2="${x}" y2="132" stroke="#ffffffcc" stroke-width="4"/><line x1="${x - 14}" y1="134" x2="${x + 14}" y2="134" stroke="#ffffffcc" stroke-width="4" stroke-linecap="round"/></g>`;
    const bubbles = [0, 0.33, 0.66]
      .map((o, i) => {
        const q = (p + o) % 1;
        return `<circle cx="${74 + i * 6}" cy="${(36 - q * 30).toFixed(1)}" r="${2.5 + i}" fill="#ffffff" opacity="${(1 - q).toFixed(2)}"/>`;
      })
      .join('');
    return `${glass(58, 1)}${glass(102, -1)}${bubbles}`;
  },
  kiss: (p, g) => {
    const q = p;
    const heart = `<g transform="translate(${(92 + q * 40).toFixed(1)} ${(70 - q * 44).toFixed(1)}) scale(${(0.3 + q * 0.5).toFixed(2)})" opacity="${(1 - q * 0.8).toFixed(2)}"><path d="${HEART}" fill="${g.accent}"/></g>`;
    const pucker = 1 + 0.08 * wave(p);
    return (
      `<g transform="translate(66 92) scale(${pucker.toFixed(3)})"><path d="M-40 0 C -26 -22 -8 -20 0 -10 C 8 -20 26 -22 40 0 C 26 24 -26 24 -40 0 Z" fill="${g.accent}"/>` +
      `<path d="M-40 0 Q 0 8 40 0" stroke="#00000044" stroke-width="3" fill="none"/></g>${heart}`
    );
  },
  laugh: (p, g) => {
    const dy = 6 * Math.abs(wave(p));
    const tear = `<ellipse cx="${30}" cy="${(70 + dy + p * 20).toFixed(1)}" rx="5" ry="8" fill="#4dabf7"/><ellipse cx="${130}" cy="${(70 + dy + p * 20).toFixed(1)}" rx="5" ry="8" fill="#4dabf7"/>`;
    return (
      `<g transform="translate(0 ${(-dy).toFixed(1)})">${face(g.accent)}<path d="M48 66 q10 -12 20 0 M92 66 q10 -12 20 0" stroke="#3d2c00" stroke-width="5" fill="none" stroke-linecap="round"/>` +
      `<path d="M48 88 Q80 132 112 88 Z" fill="#7a1f1f"/><path d="M58 108 Q80 122 102 108 Q80 118 58 108 Z" fill="#ff6b6b"/></g>${tear}`
    );
  },
  thumbs: (p, g) => {
    const s = 1 + 0.1 * Math.max(0, wave(p));
    const y = -6 * Math.max(0, wave(p));
    // 👍: the thumb rises from the left of a fist whose curled fingers lie sideways (never one raised finger).
    const fingers = [-6, 8, 22, 36].map((fy) => `<rect x="-8" y="${fy}" width="44" height="15" rx="7.5" fill="${g.accent}" stroke="#00000026" stroke-width="2"/>`).join('');
    return (
      `<g transform="translate(74 ${(82 + y).toFixed(1)}) scale(${s.toFixed(3)})"><rect x="-30" y="-10" width="44" height="62" rx="12" fill="${g.accent}"/>${fingers}` +
      `<rect x="-34" y="-58" width="24" height="58" rx="12" fill="${g.accent}" stroke="#00000026" stroke-width="2" transform="rotate(-12 -22 -4)"/>` +
      `<rect x="-50" y="-8" width="18" height="62" rx="4" fill="#457b9d"/></g>` +
      `<path d="M26 34 l8 8 M134 34 l-8 8 M80 12 v10" stroke="#ffd166" stroke-width="5" stroke-linecap="round" opacity="${(0.4 + 0.6 * Math.max(0, wave(p))).toFixed(2)}"/>`
    );
  },
  fire: (p, g) => {
    const sy = 1 + 0.12 * wave(p);
    const sk = 6 * Math.sin(p * 4 * Math.PI);
    return (
      `<g transform="translate(80 140) skewX(${sk.toFixed(1)}) scale(1 ${sy.toFixed(3)})"><path d="M0 0 C -46 0 -50 -50 -20 -80 C -18 -60 -8 -56 -4 -62 C -10 -90 10 -112 22 -120 C 18 -96 50 -70 44 -36 C 40 -10 26 0 0 0 Z" fill="${g.accent}"/>` +
      `<path d="M0 0 C -24 0 -26 -30 -8 -48 C -6 -36 4 -36 6 -44 C 22 -34 26 -14 18 -6 C 12 0 6 0 0 0 Z" fill="#ffd60a"/></g>`
    );
  },
  coffee: (p, g) => {
    const steam = [0, 0.5]
      .map((o, i) => {
        const q = (p + o) % 1;
        const x = 64 + i * 24;
        return `<path d="M${x} ${(70 - q * 26).toFixed(1)} q-8 -10 0 -20 q8 -10 0 -20" stroke="#9c8c7c" stroke-width="5" fill="none" stroke-linecap="round" opacity="${(1 - q).toFixed(2)}"/>`;
      })
      .join('');
    return (
      `${steam}<path d="M40 78 h72 v34 a24 24 0 0 1 -24 24 h-24 a24 24 0 0 1 -24 -24 Z" fill="${g.accent}"/>` +
      `<path d="M112 88 a14 14 0 0 1 0 28" stroke="${g.accent}" stroke-width="8" fill="none"/><ellipse cx="76" cy="78" rx="36" ry="6" fill="#3b2412"/>` +
      `<ellipse cx="76" cy="142" rx="50" ry="6" fill="#00000022"/>` +
      `<g transform="translate(76 104) scale(0.35)"><path d="${HEART}" fill="#ffffffcc"/></g>`
    );
  },
  sun: (p, g) => {
    const rays = Array.from({ length: 12 }, (_, i) => `<rect x="-4" y="-70" width="8" height="20" rx="4" fill="${g.accent}" transform="rotate(${i * 30 + p * 30})"/>`).join('');
    const s = 1 + 0.05 * wave(p);
    return (
      `<g transform="translate(80 80)">${rays}<circle r="${(40 * s).toFixed(1)}" fill="${g.accent}"/>` +
      `<circle cx="-13" cy="-8" r="4" fill="#5c3d00"/><circle cx="13" cy="-8" r="4" fill="#5c3d00"/><path d="M-16 10 q16 14 32 0" stroke="#5c3d00" stroke-width="4" fill="none" stroke-linecap="round"/></g>`
    );
  },
  stars: (p, g) => {
    const spots: Array<[number, number, number, number]> = [
      [40, 44, 16, 0],
      [112, 36, 12, 0.25],
      [84, 92, 22, 0.5],
      [34, 118, 11, 0.75],
      [126, 120, 14, 0.125],
    ];
    const stars = spots
      .map(([x, y, r, o]) => {
        const t = 0.55 + 0.45 * Math.sin((p + o) * 2 * Math.PI);
        return `<g transform="translate(${x} ${y}) scale(${t.toFixed(3)})"><path d="${star(r)}" fill="${g.accent}"/></g>`;
      })
      .join('');
    return `<path d="M120 80 a26 26 0 1 1 -12 -34 a20 20 0 1 0 12 34 Z" fill="#ffffff22"/>${stars}`;
  },
};

function frameSvg(gif: LocalGif, p: number): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 160 160">` + `<rect width="160" height="160" rx="18" fill="${gif.background}"/>${DRAW[gif.motif](p, gif)}</svg>`
  );
}

/** The animated WebP of one library entry. */
export async function renderGif(gif: LocalGif): Promise<Buffer> {
  const frames = await Promise.all(
    Array.from({ length: FRAMES }, (_, i) =>
      sharp(Buffer.from(frameSvg(gif, i / FRAMES)))
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .webp({ loop: 0, delay: Array(FRAMES).fill(DELAY_MS), quality: 70, effort: 6 })
    .toBuffer();
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const keep = new Set(LOCAL_GIFS.map((g) => `${g.id}.webp`));
  for (const name of await readdir(OUT)) if (!keep.has(name)) await rm(resolve(OUT, name));
  let total = 0;
  for (const gif of LOCAL_GIFS) {
    const file = resolve(OUT, `${gif.id}.webp`);
    await writeFile(file, await renderGif(gif));
    const { size } = await stat(file);
    total += size;
    console.log(`${gif.id}.webp ${(size / 1024).toFixed(1)} kB`);
  }
  console.log(`${LOCAL_GIFS.length} gifs, ${(total / 1024).toFixed(1)} kB in ${OUT}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
