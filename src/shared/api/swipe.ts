/** /api/swipe.php (GAME-02): like or pass a member of the swipe game's deck. */
import { z } from 'zod';
import { MAX_ID } from '../ids';
import type { Answer } from './contract';

export const swipeBody = z.object({ id: z.number().int().min(1).max(MAX_ID), like: z.boolean() });

export type SwipeAnswer = Answer<'swipe', 200>;
