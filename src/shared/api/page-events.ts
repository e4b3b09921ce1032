/** The page beacons: /api/page-hidden.php (CLI-06, an empty object) and /api/page-bounce.php (CLI-05). */
import { z } from 'zod';

export const pageHiddenBody = z.object({}).strict();

export const pageBounceBody = z.object({
  path: z.string().startsWith('/').max(500),
  duration_ms: z.number().int().min(0).max(86_400_000),
});

export type PageBounceBody = z.input<typeof pageBounceBody>;
export type PageHiddenBody = z.input<typeof pageHiddenBody>;
