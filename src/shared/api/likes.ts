/** /api/likes.php (LIK-01): the member's likes; POST and DELETE take a member target (member-target.ts). */
import { z } from 'zod';
import type { Answer } from './contract';

/** The lists of likes: received (the default), given, matches. */
export const LIKE_LIST_TYPES = ['received', 'given', 'matches'] as const;

export const likesQuery = z.object({
  type: z.enum(LIKE_LIST_TYPES).optional(),
  after: z.string().max(60).optional(),
});

export type LikesAnswer = Answer<'getLikes', 200>;
export type LikeAnswer = Answer<'likeMember', 200 | 201>;
export type UnlikeAnswer = Answer<'unlikeMember', 200>;
