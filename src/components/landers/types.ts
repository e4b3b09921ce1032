/** What the lander route hands every lander body component. */
import type { LanderContent } from '../../server/landers/content';

export interface LanderBodyProps {
  content: LanderContent;
  /** The niche's headline in the visitor's language (SITE-03). */
  headline: string;
  lead: string;
}
