/**
 * "Download my data" (GDPR-01, GDPR art. 15 and 20): everything the platform keeps about one member, as
 * one JSON document. Secrets are left out (password hash, session and link tokens); everything else
 * about the member is in: account, profile, photos, sessions, credit ledger, payments, direct-debit mandates
 * and SMS (not the codes' hashes), mails sent to them and the page events their browser reported. Mails count when they were sent for the account or to its address.
 */
import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditLedger, directDebitAccounts, directDebitMandates, mailOutbox, pageEvents, payments, photos, profiles, pushSubscriptions, regions, sessions, smsOutbox, users } from '../../db/schema';
import type { Site } from '../sites/directory';

export const DATA_EXPORT_VERSION = 1;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface UserDataExport {
  format_version: number;
  exported_at: string;
  site: { id: number; name: string; domain: string };
  account: {
    id: number;
    email: string;
    status: string;
    email_confirmed_at: string | null;
    signup_date: string;
    language: string;
    credits: number;
    paid_user: boolean;
    invisible: boolean;
    /** HON-02: shown on the public pages (first name, age, city, main photo). */
    public_profile: boolean;
    notifications_disabled: string[];
    tracking: Record<string, string> | null;
    signup_message: string | null;
    signup_step: number;
    deleted_at: string | null;
  };
  profile: {
    name: string;
    status: string;
    gender: string;
    sexuality: string;
    birth_date: string;
    country: string;
    region: string | null;
    city: string | null;
    hair_colour: string | null;
    eye_colour: string | null;
    body_type: string | null;
    relationship_status: string | null;
    tattoos: string | null;
    interests: string[];
    signup_reason: string | null;
    about: string;
    last_active_at: string;
  } | null;
  photos: Array<{ filename: string; thumb_filename: string; status: string; premium: boolean; main: boolean; created_at: string }>;
  sessions: Array<{ created_at: string; expires_at: string; ip: string | null; user_agent: string | null }>;
  credit_ledger: Array<{ delta: number; reason: string; reference: string | null; created_at: string }>;
  payments: Array<{ id: number; credits: number; amount_cents: number; discount_cents: number; currency: string; method: string; status: string; discount_code: string | null; created_at: string; settled_at: string | null }>;
  mails: Array<{ kind: string; subject: string; to: string; status: string; created_at: string }>;
  page_events: Array<{ kind: string; path: string; duration_ms: number | null; created_at: string }>;
  push_subscriptions: Array<{ endpoint: string; created_at: string }>;
  direct_debit: {
    blocked_at: string | null;
    mandates: Array<{ reference: string; status: string; account_holder: string; iban: string; street: string; house_number: string; zip: string; city: string; mobile: string; created_at: string; confirmed_at: string | null }>;
    sms: Array<{ to: string; text: string; status: string; created_at: string }>;
  };
}

/** Collects the member's data; null when there is no such member on this site. */
export async function exportUserData(db: Db, site: Site, userId: number, now: Date): Promise<UserDataExport | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.siteId !== site.settings.id) return null;
  const [[profileRow], photoRows, sessionRows, ledgerRows, mailRows, eventRows, pushRows, paymentRows, mandateRows, smsRows, [ddState]] = await Promise.all([
    db.select({ profile: profiles, region: regions.name }).from(profiles).leftJoin(regions, eq(regions.id, profiles.regionId)).where(eq(profiles.userId, userId)).limit(1),
    db.select().from(photos).where(eq(photos.userId, userId)).orderBy(asc(photos.createdAt), asc(photos.id)),
    db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt)),
    db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(asc(creditLedger.createdAt), asc(creditLedger.id)),
    db.select().from(mailOutbox).where(and(eq(mailOutbox.siteId, site.settings.id), or(eq(mailOutbox.userId, userId), sql`lower(${mailOutbox.toAddress}) = ${user.email.toLowerCase()}`))).orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id)),
    db.select().from(pageEvents).where(eq(pageEvents.userId, userId)).orderBy(asc(pageEvents.createdAt), asc(pageEvents.id)),
    db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(asc(pushSubscriptions.createdAt)),
    db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.createdAt), asc(payments.id)),
    db.select().from(directDebitMandates).where(eq(directDebitMandates.userId, userId)).orderBy(asc(directDebitMandates.id)),
    db.select().from(smsOutbox).where(eq(smsOutbox.userId, userId)).orderBy(asc(smsOutbox.id)),
    db.select({ blockedAt: directDebitAccounts.blockedAt }).from(directDebitAccounts).where(eq(directDebitAccounts.userId, userId)).limit(1),
  ]);
  const p = profileRow?.profile;
  return {
    format_version: DATA_EXPORT_VERSION,
    exported_at: now.toISOString(),
    site: { id: site.settings.id, name: site.settings.name, domain: site.settings.domain },
    account: {
      id: user.id,
      email: user.email,
      status: user.status,
      email_confirmed_at: iso(user.emailConfirmedAt),
      signup_date: user.signupDate.toISOString(),
      language: user.language,
      credits: user.credits,
      paid_user: user.paidUser,
      invisible: user.invisible,
      public_profile: user.publicProfile,
      notifications_disabled: user.notificationsDisabled,
      tracking: user.tracking,
      signup_message: user.signupMessage,
      signup_step: user.signupStep,
      deleted_at: iso(user.deletedAt),
    },
    profile: p
      ? {
          name: p.name,
          status: p.status,
          gender: p.gender,
          sexuality: p.sexuality,
          birth_date: p.birthDate,
          country: p.country,
          region: profileRow.region,
          city: p.city,
          hair_colour: p.hairColour,
          eye_colour: p.eyeColour,
          body_type: p.bodyType,
          relationship_status: p.relationshipStatus,
          tattoos: p.tattoos,
          interests: p.interests,
          signup_reason: p.signupReason,
          about: p.about,
          last_active_at: p.lastActiveAt.toISOString(),
        }
      : null,
    photos: photoRows.map((r) => ({
      filename: r.filename,
      thumb_filename: r.thumbFilename,
      status: r.status,
      premium: r.premium,
      main: p?.mainPhotoId === r.id,
      created_at: r.createdAt.toISOString(),
    })),
    sessions: sessionRows.map((r) => ({ created_at: r.createdAt.toISOString(), expires_at: r.expiresAt.toISOString(), ip: r.ip, user_agent: r.userAgent })),
    credit_ledger: ledgerRows.map((r) => ({ delta: r.delta, reason: r.reason, reference: r.reference, created_at: r.createdAt.toISOString() })),
    payments: paymentRows.map((r) => ({
      id: r.id,
      credits: r.credits,
      amount_cents: r.amountCents,
      discount_cents: r.discountCents,
      currency: r.currency,
      method: r.method,
      status: r.status,
      discount_code: r.discountCode,
      created_at: r.createdAt.toISOString(),
      settled_at: r.settledAt?.toISOString() ?? null,
    })),
    mails: mailRows.map((r) => ({ kind: r.kind, subject: r.subject, to: r.toAddress, status: r.status, created_at: r.createdAt.toISOString() })),
    page_events: eventRows.map((r) => ({ kind: r.kind, path: r.path, duration_ms: r.durationMs, created_at: r.createdAt.toISOString() })),
    push_subscriptions: pushRows.map((r) => ({ endpoint: r.endpoint, created_at: r.createdAt.toISOString() })),
    direct_debit: {
      blocked_at: iso(ddState?.blockedAt ?? null),
      mandates: mandateRows.map((r) => ({
        reference: r.reference,
        status: r.status,
        account_holder: r.accountHolder,
        iban: r.iban,
        street: r.street,
        house_number: r.houseNumber,
        zip: r.zip,
        city: r.city,
        mobile: r.mobile,
        created_at: r.createdAt.toISOString(),
        confirmed_at: iso(r.confirmedAt),
      })),
      sms: smsRows.map((r) => ({ to: r.toNumber, text: r.text, status: r.status, created_at: r.createdAt.toISOString() })),
    },
  };
}

/** The download's file name: `<site>-data-<id>.json`, the site's name reduced to safe characters. */
export function exportFilename(siteName: string, userId: number): string {
  const slug = siteName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug || 'site'}-data-${userId}.json`;
}
