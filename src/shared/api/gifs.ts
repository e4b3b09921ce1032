/** /api/gifs.php (CHT-07): one page of the gif search. */
import { z } from 'zod';
import type { Answer } from './contract';

/** Longest query the API accepts (characters). */
export const GIF_QUERY_MAX = 50;
/** Highest offset the API accepts (GIPHY's own limit is 4999). */
export const GIF_OFFSET_MAX = 4999;

export const gifsQuery = z.object({
  // eslint-disable-next-line no-control-regex
  q: z.string().max(GIF_QUERY_MAX).regex(/^[^\u0000-\u001f\u007f]*$/).optional(),
  offset: z.string().regex(/^\d{1,4}$/).transform(Number).pipe(z.number().int().min(0).max(GIF_OFFSET_MAX)).optional(),
});

export type GifsAnswer = Answer<'searchGifs', 200>;
