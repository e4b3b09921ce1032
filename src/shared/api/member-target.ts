/**
 * The member a like or block call is about (/api/likes.php, /api/block.php): `{ id }` in a JSON body
 * (POST) or `?id=` in the query (DELETE).
 */
import { z } from 'zod';
import { MAX_ID } from '../ids';

export const memberTargetBody = z.object({ id: z.number().int().min(1).max(MAX_ID) });
export const memberTargetQuery = z.object({ id: z.string().regex(/^[1-9]\d{0,9}$/) });
