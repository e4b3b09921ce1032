/** /api/activation-mail.php (ACT-02): a new activation link; a JSON call may name the page to return to. */
import { z } from 'zod';
import type { Answer } from './contract';

export const activationMailBody = z.object({ next: z.string().max(500).optional() });

export type ActivationMailAnswer = Answer<'resendActivationMail', 200>;
