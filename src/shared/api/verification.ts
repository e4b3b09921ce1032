/** /api/verification.php (VER-01, VER-02): the member's verification, their selfie, their contact setting. */
import { z } from 'zod';
import type { Answer } from './contract';

export const onlyVerifiedContactBody = z.object({ only_verified_contact: z.boolean() }).strict();

export type VerificationAnswer = Answer<'getVerification', 200>;
