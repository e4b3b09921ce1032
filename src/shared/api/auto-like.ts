/** /api/auto-like.php (LIK-03): the next like to show in the 'New like' / match modal. */
import { z } from 'zod';
import { parseId } from '../ids';
import type { Answer } from './contract';

export const autoLikeQuery = z.object({
  member: z
    .string()
    .max(10)
    .refine((v) => parseId(v) !== null)
    .optional(),
});

export type AutoLikeAnswer = Answer<'getAutoLike', 200>;
