/** The marketing landers of LND-01 served by `/landers/{name}/{slug?}` (tinderswipe has its own route). */
export const LANDER_NAMES = ['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video'] as const;

export type LanderName = (typeof LANDER_NAMES)[number];

export function isLanderName(value: unknown): value is LanderName {
  return typeof value === 'string' && (LANDER_NAMES as readonly string[]).includes(value);
}

/**
 * The optional slug segment of a lander route: one path segment (or none). More segments are not a
 * lander address at all and get the 404 page; anything in one segment renders (the slug only informs).
 */
export function slugSegment(rest: string | undefined): { ok: true; slug: string | null } | { ok: false } {
  if (!rest) return { ok: true, slug: null };
  if (rest.includes('/')) return { ok: false };
  return { ok: true, slug: rest };
}

/** The four member landings of LND-03. */
export type MemberLandingVariant = 'landing' | 'signup' | 'landing2' | 'landing3';
