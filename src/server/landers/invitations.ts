/**
 * Invitation requests of invite-only sites (LND-04): a visitor leaves an e-mail address; asking twice
 * is fine and keeps one request (unique per site and lower-cased address).
 */
import { z } from 'zod';
import type { Db } from '../../db/client';
import { invitationRequests } from '../../db/schema';

export const invitationRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.string().min(3, 'required').max(254, 'too_long').pipe(z.email('invalid_email'))),
});

export type InvitationRequestInput = z.infer<typeof invitationRequestSchema>;

/** Stores the request once; `created` is false when the address had asked before. */
export async function requestInvitation(db: Db, siteId: number, email: string): Promise<{ created: boolean }> {
  const rows = await db
    .insert(invitationRequests)
    .values({ siteId, email })
    .onConflictDoNothing()
    .returning({ id: invitationRequests.id });
  return { created: rows.length > 0 };
}
