/** What the lander route hands every lander body component. */
import type { LanderContent } from '../../server/landers/content';

export interface LanderBodyProps {
  content: LanderContent;
  /** The niche's headline in the visitor's language (SITE-03). */
  headline: string;
  lead: string;
}

/**
 * `sizes` of a photo in a two-up (phones) / four-up (from 576 px) grid inside a `.container` (the
 * live-cam tiles, the member rows): the tile's width at each breakpoint of the theme (container
 * 540/720/960/1140 px, 12 px padding each side, 8 px gaps). On a 360 px phone a tile is 164 px wide, so
 * the browser takes the 480 px main image, not the 160 px thumbnail, from a density of 1 up.
 */
export const GRID_TILE_SIZES = '(min-width: 1200px) 273px, (min-width: 992px) 228px, (min-width: 768px) 168px, (min-width: 576px) 123px, calc(50vw - 16px)';
