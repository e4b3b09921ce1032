/** /api/gifs.php (CHT-07): one page of the gif search. */
import { z } from 'zod';
import type { Answer } from './contract';
import { GIF_OFFSET_MAX, GIF_QUERY_MAX } from './limits';

export const gifsQuery = z.object({
  q: z
    .string()
    .max(GIF_QUERY_MAX)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/)
    .optional(),
  offset: z
    .string()
    .regex(/^\d{1,4}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(GIF_OFFSET_MAX))
    .optional(),
});

export type GifsAnswer = Answer<'searchGifs', 200>;
