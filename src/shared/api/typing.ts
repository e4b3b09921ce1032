/**
 * 'Typing…' signals: the member's /api/typing.php (CHT-10) and the operator's /admin/operator/typing
 * (OPS-02); both take the conversation and answer 204.
 */
import { z } from 'zod';
import { MAX_ID } from '../ids';

export const typingBody = z.object({ conversation: z.number().int().min(1).max(MAX_ID) }).strict();
