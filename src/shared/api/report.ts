/** /api/report.php (SAFE-01): report a member (or one of their messages) and block them in the same step if asked. */
import { z } from 'zod';
import { MAX_ID } from '../ids';
import type { Answer } from './contract';

export const reportBody = z
  .object({
    id: z.number().int().min(1).max(MAX_ID),
    reason: z.enum(['scam', 'harassment', 'fake', 'inappropriate', 'spam', 'underage', 'other']),
    message: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
    note: z.string().max(1000).default(''),
    block: z.boolean().default(false),
  })
  .strict();

export type ReportAnswer = Answer<'reportMember', 201>;
