/**
 * Complaints filed through /complaints (STA-03): checked, stored in `complaints`, mailed to the site's
 * support address (reply-to the complainant) and confirmed to the complainant in their language.
 * At most COMPLAINTS_PER_DAY complaints per e-mail address per site in 24 hours.
 */
import { and, count, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { complaints } from '../../db/schema';
import { createTranslator } from '../../i18n';
import type { Language } from '../../shared/languages';
import type { Clock } from '../clock';
import { renderMail, siteSender } from '../mail/layout';
import type { Mailer, SendResult } from '../mail/mailer';
import type { Site } from '../sites/directory';

export const COMPLAINTS_PER_DAY = 5;
const DAY_MS = 86_400_000;

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
  /** The raw form values; anything not a string counts as empty. */
  form: Partial<Record<ComplaintField, unknown>>;
}

export type FileComplaintResult =
  | { type: 'ok'; id: number; mails: SendResult[] }
  | { type: 'invalid'; fields: Partial<Record<ComplaintField, ComplaintFieldError>>; values: Record<ComplaintField, string> }
  | { type: 'rate_limited'; values: Record<ComplaintField, string> };

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
      fields[field] ??= (isFieldError(issue.message) ? issue.message : 'required');
    }
    return { type: 'invalid', fields, values };
  }
  const input = parsed.data;
  const siteId = request.site.settings.id;
  const now = deps.clock.now();

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
  if (stored === null) return { type: 'rate_limited', values };

  const mails = [
    await deps.mailer.send(supportMail(request.site, stored, input, request.userId)),
    await deps.mailer.send(confirmationMail(request.site, request.lang, stored, input, request.userId)),
  ];
  return { type: 'ok', id: stored, mails };
}

function isFieldError(code: string): code is ComplaintFieldError {
  return ['required', 'too_short', 'too_long', 'invalid_email', 'invalid_characters'].includes(code);
}

const messageParagraphs = (message: string) => message.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);

/** The mail to support, in the site's own language, answerable straight to the complainant. */
function supportMail(site: Site, id: number, input: ComplaintInput, userId: number | null) {
  const t = createTranslator(site.settings.domain_language);
  const body = renderMail(site, {
    heading: t('complaints:mail_support_heading', { id }),
    paragraphs: [
      t('complaints:mail_support_from', { name: input.name, email: input.email }),
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
    replyTo: input.email,
    subject: t('complaints:mail_support_subject', { id, subject: input.subject }),
    ...body,
  };
}

/** The receipt to the complainant, in their language, quoting what they sent. */
function confirmationMail(site: Site, lang: Language, id: number, input: ComplaintInput, userId: number | null) {
  const t = createTranslator(lang);
  const body = renderMail(site, {
    heading: t('complaints:mail_confirm_heading'),
    paragraphs: [
      t('complaints:mail_confirm_greeting', { name: input.name }),
      t('complaints:mail_confirm_body', { id, site: site.settings.name }),
      `${t('complaints:subject')}: ${input.subject}`,
      ...messageParagraphs(input.message),
    ],
    footer: t('complaints:mail_footer'),
  });
  return {
    siteId: site.settings.id,
    userId,
    kind: 'complaint_confirmation',
    to: input.email,
    ...siteSender(site),
    replyTo: site.settings.support_email,
    subject: t('complaints:mail_confirm_subject', { id, site: site.settings.name }),
    ...body,
  };
}
