/**
 * Invitation requests of invite-only sites (LND-04): a visitor leaves an e-mail address; asking twice
 * is fine and keeps one request (unique per site and lower-cased address). Staff answer them (LND-06):
 * a single-use link that expires, mailed to the address, signs that address up once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { invitationRequests, invitations, users } from '../../db/schema';
import { createTranslator } from '../../i18n';
import type { Language } from '../../shared/languages';
import type { Clock } from '../clock';
import { renderMail, siteSender } from '../mail/layout';
import type { Mailer } from '../mail/mailer';
import type { Site } from '../sites/directory';
import { audit } from '../audit';

export const invitationRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.string().min(3, 'required').max(254, 'too_long').pipe(z.email('invalid_email'))),
});

/** Stores the request once; `created` is false when the address had asked before. */
export async function requestInvitation(db: Db, siteId: number, email: string): Promise<{ created: boolean }> {
  const rows = await db.insert(invitationRequests).values({ siteId, email }).onConflictDoNothing().returning({ id: invitationRequests.id });
  return { created: rows.length > 0 };
}

/** Days an invitation link stays good (LND-06). */
export const INVITATION_DAYS = 14;
const DAY_MS = 24 * 3600 * 1000;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type InvitationState = 'waiting' | 'invited' | 'expired' | 'signed_up';

export interface InvitationRow {
  email: string;
  requestId: number | null;
  requestedAt: Date | null;
  invitedAt: Date | null;
  expiresAt: Date | null;
  state: InvitationState;
}

/**
 * The site's invitation requests and direct invitations, newest first, each with its state: waiting (asked,
 * not invited), invited (a link is out and good), expired (the last link ran out unused), signed up (the
 * address is a member of the site now).
 */
export async function listInvitations(db: Db, siteId: number, now: Date, limit = 200): Promise<InvitationRow[]> {
  const [requests, sent, members] = await Promise.all([
    db.select().from(invitationRequests).where(eq(invitationRequests.siteId, siteId)).orderBy(desc(invitationRequests.createdAt)).limit(limit),
    db
      .select()
      .from(invitations)
      .where(eq(invitations.siteId, siteId))
      .orderBy(desc(invitations.createdAt))
      .limit(limit * 2),
    db
      .select({ email: sql<string>`lower(${users.email})` })
      .from(users)
      .innerJoin(invitations, and(eq(invitations.siteId, users.siteId), sql`lower(${invitations.email}) = lower(${users.email})`))
      .where(eq(users.siteId, siteId)),
  ]);
  const joined = new Set(members.map((m) => m.email));
  const byEmail = new Map<string, InvitationRow>();
  const stateOf = (email: string, last: (typeof sent)[number] | undefined): InvitationState => {
    if (joined.has(email) || last?.usedAt) return 'signed_up';
    if (!last) return 'waiting';
    return last.expiresAt.getTime() > now.getTime() ? 'invited' : 'expired';
  };
  for (const r of requests) {
    const email = r.email.toLowerCase();
    const last = sent.find((s) => s.email.toLowerCase() === email);
    byEmail.set(email, { email, requestId: r.id, requestedAt: r.createdAt, invitedAt: last?.createdAt ?? null, expiresAt: last?.expiresAt ?? null, state: stateOf(email, last) });
  }
  for (const s of sent) {
    const email = s.email.toLowerCase();
    if (byEmail.has(email)) continue;
    byEmail.set(email, { email, requestId: null, requestedAt: null, invitedAt: s.createdAt, expiresAt: s.expiresAt, state: stateOf(email, s) });
  }
  const when = (row: InvitationRow) => Math.max(row.requestedAt?.getTime() ?? 0, row.invitedAt?.getTime() ?? 0);
  return [...byEmail.values()].sort((a, b) => when(b) - when(a)).slice(0, limit);
}

export type SendInvitationResult = { type: 'sent'; email: string } | { type: 'invalid'; error: 'invalid_email' | 'already_member' };

/**
 * Sends a single-use invitation link to `email` (answering its request when there is one), in the
 * language of the request's page or the site's, audited. A new link replaces none: each is good once, until
 * it expires; the first one used signs the address up.
 */
export async function sendInvitation(
  deps: { db: Db; clock: Clock; mailer: Pick<Mailer, 'send'> },
  input: { site: Site; staffId: number; email: string; language: Language; origin: string },
): Promise<SendInvitationResult> {
  const parsed = invitationRequestSchema.safeParse({ email: input.email });
  if (!parsed.success) return { type: 'invalid', error: 'invalid_email' };
  const email = parsed.data.email;
  const siteId = input.site.settings.id;
  const [member] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email}`))
    .limit(1);
  if (member) return { type: 'invalid', error: 'already_member' };
  const [request] = await deps.db
    .select({ id: invitationRequests.id })
    .from(invitationRequests)
    .where(and(eq(invitationRequests.siteId, siteId), sql`lower(${invitationRequests.email}) = ${email}`))
    .limit(1);
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.insert(invitations).values({
      siteId,
      email,
      tokenHash: hashToken(token),
      requestId: request?.id ?? null,
      staffId: input.staffId,
      language: input.language,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
    });
    await audit(tx, { staffId: input.staffId, action: 'invitation.sent', targetType: 'site', targetId: siteId, after: { email, request: request?.id ?? null } }, now);
  });
  const t = createTranslator(input.language);
  const values = { site: input.site.settings.name, days: INVITATION_DAYS };
  const body = t('mail:invitation.body', { ...values, returnObjects: true }) as unknown;
  const { text, html } = renderMail(input.site, {
    heading: t('mail:invitation.heading', values),
    paragraphs: Array.isArray(body) ? body.map(String) : [String(body)],
    button: { label: t('mail:invitation.button', values), url: `${input.origin}/signup?invitation=${token}` },
    footer: t('mail:footer', { ...values, name: email }),
  });
  await deps.mailer.send({
    siteId,
    userId: null,
    kind: 'invitation',
    to: email,
    ...siteSender(input.site),
    replyTo: input.site.settings.support_email,
    subject: t('mail:invitation.subject', values),
    text,
    html,
  });
  return { type: 'sent', email };
}

export type InvitationCheck = { type: 'ok'; id: number; email: string } | { type: 'error'; reason: 'invalid' | 'expired' | 'used' };

/** Whether `token` is a good invitation to `siteId` now (the signup page and the signup itself ask). */
export async function checkInvitation(db: Pick<Db, 'select'>, siteId: number, token: string, now: Date): Promise<InvitationCheck> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { type: 'error', reason: 'invalid' };
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tokenHash, hashToken(token)), eq(invitations.siteId, siteId)))
    .limit(1);
  if (!row) return { type: 'error', reason: 'invalid' };
  if (row.usedAt) return { type: 'error', reason: 'used' };
  if (row.expiresAt.getTime() <= now.getTime()) return { type: 'error', reason: 'expired' };
  return { type: 'ok', id: row.id, email: row.email };
}

/** Uses the invitation for the account `userId`, in the signup's transaction: false when another signup took it first. */
export async function useInvitation(tx: Pick<Db, 'update'>, invitationId: number, userId: number, now: Date): Promise<boolean> {
  const used = await tx
    .update(invitations)
    .set({ usedAt: now, userId })
    .where(and(eq(invitations.id, invitationId), isNull(invitations.usedAt), gt(invitations.expiresAt, now)))
    .returning({ id: invitations.id });
  return used.length > 0;
}
