/**
 * "Download my data" (GDPR-01, GDPR art. 15 and 20): everything the platform keeps about one member, as
 * one JSON document. Secrets are left out (password hash, session and link tokens); everything else
 * about the member is in: account, profile, photos, verification selfies (VER-01), sessions, credit ledger, payments, direct-debit mandates
 * and SMS (not the codes' hashes), mails sent to them and the page events their browser reported. Mails count when they were sent for the account or to its address.
 */
import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  creditLedger,
  directDebitAccounts,
  directDebitMandates,
  mailOutbox,
  pageEvents,
  payments,
  photos,
  profiles,
  pushSubscriptions,
  regions,
  sessions,
  smsOutbox,
  users,
  verifications,
} from '../../db/schema';
import type { Schema } from '../../shared/api/contract';
import type { Site } from '../sites/directory';

export const DATA_EXPORT_VERSION = 1;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The download (`UserDataExport` of openapi/openapi.yaml). */
export type UserDataExport = Schema<'UserDataExport'>;

/** Collects the member's data; null when there is no such member on this site. */
export async function exportUserData(db: Db, site: Site, userId: number, now: Date): Promise<UserDataExport | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.siteId !== site.settings.id) return null;
  const [[profileRow], photoRows, verificationRows, sessionRows, ledgerRows, mailRows, eventRows, pushRows, paymentRows, mandateRows, smsRows, [ddState]] = await Promise.all([
    db.select({ profile: profiles, region: regions.name }).from(profiles).leftJoin(regions, eq(regions.id, profiles.regionId)).where(eq(profiles.userId, userId)).limit(1),
    db.select().from(photos).where(eq(photos.userId, userId)).orderBy(asc(photos.createdAt), asc(photos.id)),
    db.select().from(verifications).where(eq(verifications.userId, userId)).orderBy(asc(verifications.createdAt), asc(verifications.id)),
    db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt)),
    db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(asc(creditLedger.createdAt), asc(creditLedger.id)),
    db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.siteId, site.settings.id), or(eq(mailOutbox.userId, userId), sql`lower(${mailOutbox.toAddress}) = ${user.email.toLowerCase()}`)))
      .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id)),
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
      only_verified_contact: user.onlyVerifiedContact,
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
    verifications: verificationRows.map((r) => ({
      pose: r.pose,
      filename: r.filename,
      status: r.status,
      rejection_reason: r.rejectionReason,
      created_at: r.createdAt.toISOString(),
      decided_at: iso(r.decidedAt),
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
