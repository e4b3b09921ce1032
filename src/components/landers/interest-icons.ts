/**
 * Simple inline SVG icons (24×24) for every one of the 50 interests (SPEC §2): the icons lander shows a
 * dozen, profiles show each member's (MEM-03); the adult interests get discreet symbols.
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
  art: {
    fill: 'M12 3a9 9 0 0 0 0 18c1 0 1.5-.7 1.5-1.5 0-.4-.2-.7-.4-1-.3-.3-.4-.6-.4-1 0-.8.7-1.5 1.5-1.5H16a5 5 0 0 0 5-5c0-4.4-4-8-9-8zM7 12.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm3-4a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm4.5 0a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zm3 4a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3z',
  },
  beach: { stroke: 'M7 10a5 5 0 0 1 10 0zM2 15c2.5 0 2.5-2 5-2s2.5 2 5 2 2.5-2 5-2 2.5 2 5 2M2 20c2.5 0 2.5-2 5-2s2.5 2 5 2 2.5-2 5-2 2.5 2 5 2' },
  kissing: { fill: 'M12 21s-8-5.2-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.8-8 11-8 11z' },
  adventure: { stroke: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM15.5 8.5l-2 5-5 2 2-5z' },
  analsex: { stroke: 'M12 21c-3.6 0-6.5-2.6-6.5-6 0-3.5 3-5.5 3.5-9 2 1.5 3 3.5 3 5.5 1-1 1.5-2 1.6-3.5 2.4 1.8 3.9 4.3 3.9 7 0 3.4-2.6 6-5.5 6z' },
  animals: {
    fill: 'M12 13c3 0 5.5 3 5.5 5.2 0 1.6-1.3 2.3-2.8 2.3-1.1 0-1.8-.6-2.7-.6s-1.6.6-2.7.6c-1.5 0-2.8-.7-2.8-2.3C6.5 16 9 13 12 13zM6 8.5a2 2.5 0 1 1 0 5 2 2.5 0 0 1 0-5zm12 0a2 2.5 0 1 1 0 5 2 2.5 0 0 1 0-5zM9.5 4a2 2.5 0 1 1 0 5 2 2.5 0 0 1 0-5zm5 0a2 2.5 0 1 1 0 5 2 2.5 0 0 1 0-5z',
  },
  astrology: { fill: 'M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z' },
  bbq: { stroke: 'M4 10h16a8 8 0 0 1-16 0zM8 17l-2 4M16 17l2 4M9 3c-1 1.5 1 2.5 0 4M13 3c-1 1.5 1 2.5 0 4' },
  beer: { stroke: 'M5 8h10v12H5zM15 10h2.5a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2H15M5 8a2.5 2.5 0 0 1 2.5-3c.8-1 2.2-1 3 0a2.5 2.5 0 0 1 4.5 3M8 11v6M12 11v6' },
  biking: { stroke: 'M9 17.5a3.5 3.5 0 1 1-7 0 3.5 3.5 0 0 1 7 0zM22 17.5a3.5 3.5 0 1 1-7 0 3.5 3.5 0 0 1 7 0zM5.5 17.5 9 10h6l3.5 7.5M9 10l3 7.5L15 10M7.5 7h3' },
  bondage: { stroke: 'M12 12c-2-3-7-5-8-2s4 4 8 2zm0 0c2-3 7-5 8-2s-4 4-8 2zm0 0-3 8m3-8 3 8' },
  dancing: { stroke: 'M12 5a7.5 7.5 0 1 0 0 15 7.5 7.5 0 0 0 0-15zM4.5 12.5h15M12 5c-3 3-3 12 0 15M12 5c3 3 3 12 0 15M12 2v3' },
  exchanging_pictures: { stroke: 'M3 8h12v11H3zM9 5h12v11h-3M5 17l3-3.5 2 2 2-2.5 3 4' },
  fashion: { stroke: 'M12 7a2 2 0 1 1 2-2M12 7v2L3 16h18l-9-7' },
  foodie: { stroke: 'M7 3v7a2 2 0 0 0 2 2v9M5 3v5a2 2 0 0 0 2 2M9 3v5a2 2 0 0 1-2 2M17 3c-2 1-3 4-3 8h3v10' },
  gardening: { stroke: 'M12 21v-9M12 12c0-4-3-7-7-7 0 4 3 7 7 7zm0 0c0-3 2.5-6 6.5-6 0 3.5-2.5 6-6.5 6zM6 21h12' },
  gym: { stroke: 'M6.5 6.5v11M17.5 6.5v11M3 9v6M21 9v6M6.5 12h11' },
  hugging: { stroke: 'M10.5 7a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0zM18.5 7a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0zM3 20c0-4 2.5-7 5-7 1.6 0 2.8 1.2 4 3 1.2-1.8 2.4-3 4-3 2.5 0 5 3 5 7M8 16l4 3 4-3' },
  lingerie: { stroke: 'M12 12 5 7v10zm0 0 7-5v10zm-1.5-1.5h3v3h-3z' },
  massages: { stroke: 'M3 15c2-2 4.5-2 6.5 0l1.5 1.5h4.5a2 2 0 0 1 0 4H9c-2 0-3.5-1-6-2.5M10 3c1 1 1 2 0 3s-1 2 0 3M14 3c1 1 1 2 0 3s-1 2 0 3M18 3c1 1 1 2 0 3s-1 2 0 3' },
  masturbating: { stroke: 'M12 20s-7-4.5-7-9.5A4 4 0 0 1 12 8a4 4 0 0 1 7 2.5c0 5-7 9.5-7 9.5zM19 2v4M17 4h4' },
  one_night_stand: { fill: 'M13 3a8.5 8.5 0 1 0 8 11.5A7.5 7.5 0 0 1 13 3zM19 2l.9 1.8 2 .3-1.5 1.4.4 2-1.8-1-1.8 1 .4-2-1.5-1.4 2-.3z' },
  oral_sex: { stroke: 'M3 12c2-3 5-5 7-4 1 .5 1.5.5 2 0 2-1 5 1 7 4-2 3-5 5-8 5s-6-2-8-5zM3 12h18' },
  outdoors: { stroke: 'M3 20l6-9 4 6 3-4 5 7zM19.5 6.5a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0z' },
  party: { stroke: 'M17 9a5 6 0 1 1-10 0 5 6 0 0 1 10 0zM12 15l-1 2h2zM12 17c0 2-2 2-2 4' },
  politics: { stroke: 'M4 11h16v9H4zM8 11V4h8v7M10 7h4M4 14h16' },
  public_sex: { stroke: 'M4 21V11h5v10M9 21V8h6v13M15 21v-7h5v7M2 21h20M12 6s-2-1.3-2-2.7A1.1 1.1 0 0 1 12 2.6a1.1 1.1 0 0 1 2 .7C14 4.7 12 6 12 6z' },
  relationship: { stroke: 'M14 14a5 5 0 1 1-10 0 5 5 0 0 1 10 0zM20 14a5 5 0 1 1-10 0 5 5 0 0 1 10 0zM9 5l1.5-2h3L15 5' },
  sadomasochism: { stroke: 'M2 9c3-1 6-1 8 1h4c2-2 5-2 8-1 0 4-2 7-5 7-2 0-3-2-5-2s-3 2-5 2c-3 0-5-3-5-7zM6.5 11.5h2M15.5 11.5h2' },
  safe_sex: { stroke: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM12 16s-3.5-2-3.5-4.3A1.8 1.8 0 0 1 12 10.5a1.8 1.8 0 0 1 3.5 1.2C15.5 14 12 16 12 16z' },
  sex: { stroke: 'M9 20s-6-3.9-6-8.3A3.4 3.4 0 0 1 9 9.6a3.4 3.4 0 0 1 6 2.1C15 16.1 9 20 9 20zM15.5 7.2A3 3 0 0 1 21 9c0 3.4-4 6-4 6' },
  sex_toys: { stroke: 'M4 10h16v10H4zM3 7h18v3H3zM12 7v13M12 7c-1-3-5-4-5-1.5S10 7 12 7zm0 0c1-3 5-4 5-1.5S14 7 12 7z' },
  shopping: { stroke: 'M5 8h14l-1 13H6zM9 8V6a3 3 0 0 1 6 0v2' },
  sports: { stroke: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3.5 9.5c4 1 13 1 17 0M3.5 14.5c4-1 13-1 17 0M12 3c-3 4-3 14 0 18M12 3c3 4 3 14 0 18' },
  sushi: { stroke: 'M4 11a8 4 0 1 0 16 0 8 4 0 0 0-16 0zM4 11v4c0 2.2 3.6 4 8 4s8-1.8 8-4v-4M9 10.5a3 1.5 0 1 0 6 0 3 1.5 0 0 0-6 0z' },
  tattoos: { stroke: 'M14 5a2 2 0 1 1-4 0 2 2 0 0 1 4 0zM12 7v14M8 10h8M5 14c0 4 3 7 7 7s7-3 7-7M3 14h4M17 14h4' },
  tea: { stroke: 'M4 10h12v4a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5zM16 11h1.5a2.5 2.5 0 0 1 0 5H16M10 10V5M8.5 3h3v3h-3z' },
  theater: { stroke: 'M3 4h9v6a4.5 4.5 0 0 1-9 0zM6 7h.01M9 7h.01M6 11c1 1 2 1 3 0M12 10h9v6a4.5 4.5 0 0 1-9 0M15 13h.01M18 13h.01M15 17.5c1-1 2-1 3 0' },
  threesome: { stroke: 'M16 8a4 4 0 1 1-8 0 4 4 0 0 1 8 0zM12 15a4 4 0 1 1-8 0 4 4 0 0 1 8 0zM20 15a4 4 0 1 1-8 0 4 4 0 0 1 8 0z' },
  vegetarian: { stroke: 'M5 19C5 10 11 5 20 4c-1 9-6 15-15 15zM5 19l8-8' },
  videogames: { stroke: 'M6 8h12a4 4 0 0 1 4 4v3a3 3 0 0 1-5.2 2L15 15H9l-1.8 2A3 3 0 0 1 2 15v-3a4 4 0 0 1 4-4zM7 11v3M5.5 12.5h3M16 11.5h.01M18 13.5h.01' },
} as const satisfies Record<Interest, { fill?: string; stroke?: string }>;

export type IconInterest = keyof typeof INTEREST_ICONS;
/** The dozen the icons lander shows (everyday interests; the adult ones stay on profiles). */
export const ICON_INTERESTS: readonly IconInterest[] = ['travelling', 'coffee', 'music', 'cooking', 'wine', 'hiking', 'movies', 'photography', 'reading', 'art', 'beach', 'kissing'];
