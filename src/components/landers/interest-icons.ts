/**
 * Simple inline SVG icons (24×24) for a dozen of the 50 interests (SPEC §2), drawn for the icons lander.
 * `fill` paths are filled (even-odd), `stroke` paths are outlined.
 */
import type { Interest } from '../../shared/interests';

export const INTEREST_ICONS = {
  travelling: { fill: 'M10 9V3.5a1.5 1.5 0 0 1 3 0V9l8 5v2l-8-2.5V19l2 1.5V22l-3.5-1L8 22v-1.5l2-1.5v-5.5L2 16v-2z' },
  coffee: { fill: 'M4 7h13v5a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5zM17 8.5h1.5a2.5 2.5 0 0 1 0 5H17V12h1.5a1 1 0 0 0 0-2H17zM3 19h16v2H3z' },
  music: { fill: 'M9 18a3 3 0 1 1-2-2.83V4.5L19 2v13a3 3 0 1 1-2-2.83V6.4L9 8.1z' },
  cooking: { fill: 'M3 10h18v2h-1.5v6a3 3 0 0 1-3 3h-9a3 3 0 0 1-3-3v-6H3zM8 3h1.5v5H8zm3.25 0h1.5v5h-1.5zm3.25 0H16v5h-1.5z' },
  wine: { fill: 'M7 2h10l-.5 6.5A4.5 4.5 0 0 1 13 12.9V20h3v2H8v-2h3v-7.1A4.5 4.5 0 0 1 7.5 8.5z' },
  hiking: { fill: 'M2 20 9 7l4.5 7.5L16 11l6 9zM18 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4z' },
  movies: { fill: 'M3 4h18v16H3zm2 2v2h2V6zm0 5v2h2v-2zm0 5v2h2v-2zm12-10v2h2V6zm0 5v2h2v-2zm0 5v2h2v-2zM9 6v12h6V6z' },
  photography: { fill: 'M8.5 4h7L17 6.5h3a2 2 0 0 1 2 2V18a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8.5a2 2 0 0 1 2-2h3zM12 9a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm0 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4z' },
  reading: { fill: 'M2 5h6.5A3.5 3.5 0 0 1 11 6.2V20a3 3 0 0 0-2.5-1.3H2zm20 0h-6.5A3.5 3.5 0 0 0 13 6.2V20a3 3 0 0 1 2.5-1.3H22z' },
  art: { fill: 'M12 3a9 9 0 0 0 0 18c1 0 1.5-.7 1.5-1.5 0-.4-.2-.7-.4-1-.3-.3-.4-.6-.4-1 0-.8.7-1.5 1.5-1.5H16a5 5 0 0 0 5-5c0-4.4-4-8-9-8zM7 12.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm3-4a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm4.5 0a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm3 4a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3z' },
  beach: { stroke: 'M7 10a5 5 0 0 1 10 0zM2 15c2.5 0 2.5-2 5-2s2.5 2 5 2 2.5-2 5-2 2.5 2 5 2M2 20c2.5 0 2.5-2 5-2s2.5 2 5 2 2.5-2 5-2 2.5 2 5 2' },
  kissing: { fill: 'M12 21s-8-5.2-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.8-8 11-8 11z' },
} as const satisfies Partial<Record<Interest, { fill?: string; stroke?: string }>>;

export type IconInterest = keyof typeof INTEREST_ICONS;
export const ICON_INTERESTS = Object.keys(INTEREST_ICONS) as IconInterest[];

