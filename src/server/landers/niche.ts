/**
 * Whom a niche puts first (SITE-03: the niche selects the site's flavour, imagery included): the landers
 * and the tinderswipe deck of a milf site open with mature women, of a gay site with men. Members
 * outside the focus still exist and still show after the featured ones when there are too few of those.
 */
import type { Niche } from '../../shared/settings';

export interface NicheFocus {
  genders?: readonly string[];
  minAge?: number;
  bodyTypes?: readonly string[];
}

export const NICHE_FOCUS: Record<Niche, NicheFocus> = {
  1: {},
  2: { genders: ['female'] },
  3: {},
  4: { genders: ['female'], bodyTypes: ['curvy', 'full'] },
  5: { genders: ['female'], minAge: 60 },
  6: { genders: ['female'], minAge: 35 },
  7: { genders: ['male'] },
};

/** The latest birth date (yyyy-mm-dd) of someone at least `age` years old on `now`. */
export function bornBy(now: Date, age: number): string {
  const y = now.getUTCFullYear() - age;
  const m = String(now.getUTCMonth() + 1).padStart(2, '0');
  const d = String(now.getUTCDate()).padStart(2, '0');
  // 29 February in a year without it: the 28th (a date PostgreSQL accepts).
  return m === '02' && d === '29' && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? `${y}-02-28` : `${y}-${m}-${d}`;
}
