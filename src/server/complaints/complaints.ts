/**
 * Complaints filed through /complaints (STA-03): checked, stored in `complaints`, mailed to the site's
 * support address (reply-to the complainant) and confirmed to the complainant in their language.
 *
 * Not an open mail relay (SEC-05):
 * - Limits: COMPLAINTS_PER_DAY per e-mail address per site in 24 hours (counted on the stored
 *   complaints), and, counted on the shared throttle counters so they hold across processes,
 *   COMPLAINT_IP_RULE per client address and COMPLAINT_SITE_RULE per site. A refusal stores and mails nothing.
 * - The confirmation goes to an address nobody has proved to own, so it quotes nothing the visitor
 *   typed (not the name, subject or text): only our own words and the complaint number. A member whose
 *   confirmed address is the one given gets the copy of the complaint.
 * - Every mail that carries the visitor's words (the support mail, a member's copy) has its links
 *   stripped. The stored complaint keeps the original words as evidence; whatever shows or relays it
 *   later must strip links too (`stripLinks`).
 */
import { and, count, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { complaints, users } from '../../db/schema';
import { createTranslator } from '../../i18n';
import type { Language } from '../../shared/languages';
import { consumeAllowance, type ThrottleRule } from '../auth/throttle';
import type { Clock } from '../clock';
import { renderMail, siteSender } from '../mail/layout';
import { stripLinks } from '../mail/strip-links';
import type { Mailer, SendResult } from '../mail/mailer';
import type { Site } from '../sites/directory';

export const COMPLAINTS_PER_DAY = 5;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Complaints per client address: 5 an hour. */
export const COMPLAINT_IP_RULE: ThrottleRule = { limit: 5, windowMs: HOUR_MS, blockMs: HOUR_MS };
/** Complaints per site from everyone together: 50 an hour (far above real use; caps what a botnet can make us send). */
export const COMPLAINT_SITE_RULE: ThrottleRule = { limit: 50, windowMs: HOUR_MS, blockMs: HOUR_MS };
export const complaintIpKey = (ip: string) => `complaint-ip:${ip}`;
export const complaintSiteKey = (siteId: number) => `complaint-site:${siteId}`;

/** Length limits of the form fields; the page shows them and the checks use them. */
export const COMPLAINT_LIMITS = {
  name: { min: 2, max: 100 },
  email: { max: 254 },
  subject: { min: 3, max: 150 },
  message: { min: 20, max: 5000 },
} as const;

export const COMPLAINT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
export type ComplaintField = (typeof COMPLAINT_FIELDS)[number];
/** Why a field was refused; the page shows `complaints:errors.<code>`. */
export type ComplaintFieldError = 'required' | 'too_short' | 'too_long' | 'invalid_email' | 'invalid_characters';

/** One line of text: inner whitespace (line breaks included) collapsed to single spaces. */
const oneLine = (field: 'name' | 'subject') =>
  z
    .string()
    .transform((s) => s.replace(/\s+/g, ' ').trim())
    .pipe(
      z
        .string()
        .min(1, 'required')
        .min(COMPLAINT_LIMITS[field].min, 'too_short')
        .max(COMPLAINT_LIMITS[field].max, 'too_long')
        // No control characters and no angle brackets in what goes into mail headers and subjects.
        .regex(/^[^\p{Cc}<>]*$/u, 'invalid_characters'),
    );

export const complaintSchema = z.object({
  name: oneLine('name'),
  email: z
    .string()
    .trim()
    .pipe(z.string().min(1, 'required').max(COMPLAINT_LIMITS.email.max, 'too_long').pipe(z.email('invalid_email'))),
  subject: oneLine('subject'),
  message: z
    .string()
    .transform((s) => s.replace(/\r\n?/g, '\n').trim())
    .pipe(z.string().min(1, 'required').min(COMPLAINT_LIMITS.message.min, 'too_short').max(COMPLAINT_LIMITS.message.max, 'too_long')),
});
export type ComplaintInput = z.infer<typeof complaintSchema>;

export interface ComplaintDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  clock: Clock;
}

export interface ComplaintRequest {
  site: Site;
  /** The complainant's language (their confirmation mail is written in it). */
  lang: Language;
  /** The signed-in member, if any. */
  userId: number | null;
  /** The client's address (per-IP limit); null when unknown. */
  ip: string | null;
  /** The raw form values; anything not a string counts as empty. */
  form: Partial<Record<ComplaintField, unknown>>;
}

export type FileComplaintResult =
  | { type: 'ok'; id: number; mails: SendResult[] }
  | { type: 'invalid'; fields: Partial<Record<ComplaintField, ComplaintFieldError>>; values: Record<ComplaintField, string> }
  /** `limit`: which limit refused it (the complainant's address per day, the client address, the site). */
  | { type: 'rate_limited'; limit: 'address' | 'ip' | 'site'; values: Record<ComplaintField, string> };

/** Checks the form; on success stores the complaint and sends both mails. Refusals store nothing. */
export async function fileComplaint(deps: ComplaintDeps, request: ComplaintRequest): Promise<FileComplaintResult> {
  const values = Object.fromEntries(
    COMPLAINT_FIELDS.map((f) => {
      const raw = request.form[f];
      return [f, typeof raw === 'string' ? raw.slice(0, COMPLAINT_LIMITS[f].max * 2) : ''];
    }),
  ) as Record<ComplaintField, string>;
  const parsed = complaintSchema.safeParse(values);
  if (!parsed.success) {
    const fields: Partial<Record<ComplaintField, ComplaintFieldError>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as ComplaintField;
      fields[field] ??= isFieldError(issue.message) ? issue.message : 'required';
    }
    return { type: 'invalid', fields, values };
  }
  const input = parsed.data;
  const siteId = request.site.settings.id;
  const now = deps.clock.now();

  // The client address first: one client over its limit cannot use up the site's allowance too.
  const refused = await consumeAllowance(deps, [...(request.ip ? [{ key: complaintIpKey(request.ip), rule: COMPLAINT_IP_RULE }] : []), { key: complaintSiteKey(siteId), rule: COMPLAINT_SITE_RULE }]);
  if (refused) return { type: 'rate_limited', limit: refused.key === complaintSiteKey(siteId) ? 'site' : 'ip', values };

  const stored = await deps.db.transaction(async (tx) => {
    // One complainant's concurrent posts take turns, so the daily limit cannot be outrun.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`complaints:${siteId}:${input.email.toLowerCase()}`}))`);
    const [recent] = await tx
      .select({ n: count() })
      .from(complaints)
      .where(and(eq(complaints.siteId, siteId), sql`lower(${complaints.email}) = ${input.email.toLowerCase()}`, gt(complaints.createdAt, new Date(now.getTime() - DAY_MS))));
    if ((recent?.n ?? 0) >= COMPLAINTS_PER_DAY) return null;
    const [row] = await tx
      .insert(complaints)
      .values({ siteId, userId: request.userId, name: input.name, email: input.email, subject: input.subject, message: input.message, createdAt: now })
      .returning({ id: complaints.id });
    return row!.id;
  });
  if (stored === null) return { type: 'rate_limited', limit: 'address', values };

  const verified = request.userId !== null && (await isOwnConfirmedAddress(deps.db, request.userId, input.email));
  const mails = [
    await deps.mailer.send(supportMail(request.site, stored, input, request.userId)),
    await deps.mailer.send(confirmationMail(request.site, request.lang, stored, input, request.userId, verified)),
  ];
  return { type: 'ok', id: stored, mails };
}

function isFieldError(code: string): code is ComplaintFieldError {
  return ['required', 'too_short', 'too_long', 'invalid_email', 'invalid_characters'].includes(code);
}

/** Whether `email` is the confirmed address of member `userId` (then it may get a copy of the text). */
async function isOwnConfirmedAddress(db: Db, userId: number, email: string): Promise<boolean> {
  const [member] = await db.select({ email: users.email, confirmedAt: users.emailConfirmedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return !!member?.confirmedAt && member.email.toLowerCase() === email.toLowerCase();
}

const messageParagraphs = (message: string) =>
  message
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/** The visitor's words with their links replaced by the translated "[link removed]". */
function withoutLinks(input: ComplaintInput, t: (key: string) => string): ComplaintInput {
  const placeholder = t('complaints:mail_link_removed');
  return { ...input, name: stripLinks(input.name, placeholder), subject: stripLinks(input.subject, placeholder), message: stripLinks(input.message, placeholder) };
}

/** The mail to support, in the site's own language, answerable straight to the complainant; links stripped. */
function supportMail(site: Site, id: number, complaint: ComplaintInput, userId: number | null) {
  const t = createTranslator(site.settings.domain_language);
  const input = withoutLinks(complaint, t);
  const body = renderMail(site, {
    heading: t('complaints:mail_support_heading', { id }),
    paragraphs: [
      t('complaints:mail_support_from', { name: input.name, email: complaint.email }),
      userId === null ? t('complaints:mail_support_visitor') : t('complaints:mail_support_member', { id: userId }),
      `${t('complaints:subject')}: ${input.subject}`,
      ...messageParagraphs(input.message),
    ],
    footer: t('complaints:mail_footer'),
  });
  return {
    siteId: site.settings.id,
    userId,
    kind: 'complaint',
    to: site.settings.support_email,
    ...siteSender(site),
    replyTo: complaint.email,
    subject: t('complaints:mail_support_subject', { id, subject: input.subject }),
    ...body,
  };
}

/**
 * The receipt to the complainant, in their language. To an address nobody has proved to own it carries
 * only our own words and the number (anyone could have typed it in); a member's own confirmed address
 * also gets a copy of the complaint, links stripped.
 */
function confirmationMail(site: Site, lang: Language, id: number, complaint: ComplaintInput, userId: number | null, verified: boolean) {
  const t = createTranslator(lang);
  const input = withoutLinks(complaint, t);
  const paragraphs = verified
    ? [
        t('complaints:mail_confirm_greeting', { name: input.name }),
        t('complaints:mail_confirm_body', { id, site: site.settings.name }),
        `${t('complaints:subject')}: ${input.subject}`,
        ...messageParagraphs(input.message),
      ]
    : [t('complaints:mail_confirm_greeting_plain'), t('complaints:mail_confirm_body_no_copy', { id, site: site.settings.name })];
  const body = renderMail(site, { heading: t('complaints:mail_confirm_heading'), paragraphs, footer: t('complaints:mail_footer') });
  return {
    siteId: site.settings.id,
    userId,
    kind: 'complaint_confirmation',
    to: complaint.email,
    ...siteSender(site),
    replyTo: site.settings.support_email,
    subject: t('complaints:mail_confirm_subject', { id, site: site.settings.name }),
    ...body,
  };
}
