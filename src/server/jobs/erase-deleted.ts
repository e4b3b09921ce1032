/**
 * Erases the personal data of accounts deleted 14 or more days ago (DEL-01, GDPR-01). The account row
 * stays, anonymised, so the credit ledger (bookkeeping must be kept) still points at a user id:
 * - photo files (main, thumbnail, blurred copy; on disk or in the S3 bucket) are deleted from the store and their rows removed;
 * - verification selfies (VER-01) likewise: files deleted, rows removed, the verified mark gone;
 * - the profile is anonymised: name 'deleted', no about text, no attributes, no photo, no region,
 *   the birth date cut to 1 January of its year (the row needs one), hidden;
 * - the e-mail address becomes `deleted-<id>@invalid`, the password hash, tracking record and signup
 *   message are cleared;
 * - sessions, account tokens, push subscriptions, mails sent to the member and their page events are removed;
 * - direct-debit codes and SMS are removed, mandates keep only their reference, status and the IBAN's
 *   country and last four digits.
 * Each account is erased in its own transaction, conditional on still being deleted and past the
 * grace period, so a reactivation at the same moment wins or loses cleanly. Files go after the commit:
 * a crash in between leaves unreferenced files, never rows without their files.
 */
import { and, eq, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accountTokens, directDebitCodes, directDebitMandates, mailOutbox, pageEvents, photos, profiles, pushSubscriptions, sessions, smsOutbox, users, verifications } from '../../db/schema';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { PhotoStore } from '../photos/store';
import { DELETE_GRACE_MS, erasedEmail } from '../../shared/account-deletion';

export interface EraseDeps {
  db: Db;
  clock: Clock;
  photos: PhotoStore;
  log?: Pick<Logger, 'info' | 'warn'>;
}

export interface EraseResult {
  erased: number[];
  filesDeleted: number;
}

/** Accounts handled per run; the next run (an hour later) takes the rest. */
export const ERASE_BATCH = 200;

export async function eraseDeletedAccounts(deps: EraseDeps, options: { batch?: number } = {}): Promise<EraseResult> {
  const cutoff = new Date(deps.clock.now().getTime() - DELETE_GRACE_MS);
  const due = and(
    eq(users.status, 'deleted'),
    lte(users.deletedAt, cutoff),
    // Not erased yet: the placeholder address is set by the erase itself.
    or(ne(users.email, sql`'deleted-' || ${users.id} || '@invalid'`), sql`${users.passwordHash} is not null`),
  );
  const candidates = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(due)
    .orderBy(users.deletedAt)
    .limit(options.batch ?? ERASE_BATCH);

  const result: EraseResult = { erased: [], filesDeleted: 0 };
  for (const { id } of candidates) {
    const files = await deps.db.transaction(async (tx) => {
      const [before] = await tx.select({ email: users.email, siteId: users.siteId }).from(users).where(eq(users.id, id)).for('update');
      if (!before) return null;
      const [user] = await tx
        .update(users)
        .set({
          email: erasedEmail(id),
          passwordHash: null,
          tracking: null,
          signupMessage: null,
          signupMemberId: null,
          dismissals: {},
          invisible: true,
        })
        .where(and(eq(users.id, id), due))
        .returning({ id: users.id });
      if (!user) return null; // reactivated (or erased by another run) meanwhile
      const removed = await tx.delete(photos).where(eq(photos.userId, id)).returning({ filename: photos.filename, thumbFilename: photos.thumbFilename, blurredFilename: photos.blurredFilename });
      const selfies = await tx.delete(verifications).where(eq(verifications.userId, id)).returning({ filename: verifications.filename });
      await tx
        .update(profiles)
        .set({
          name: 'deleted',
          status: 'disabled',
          about: '',
          birthDate: sql`make_date(extract(year from ${profiles.birthDate})::int, 1, 1)`,
          city: null,
          regionId: null,
          hairColour: null,
          eyeColour: null,
          bodyType: null,
          relationshipStatus: null,
          tattoos: null,
          interests: [],
          signupReason: null,
          mainPhotoId: null,
          verifiedPhotoId: null,
        })
        .where(eq(profiles.userId, id));
      await tx.delete(sessions).where(eq(sessions.userId, id));
      await tx.delete(accountTokens).where(eq(accountTokens.userId, id));
      await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, id));
      await tx.delete(mailOutbox).where(or(eq(mailOutbox.userId, id), and(eq(mailOutbox.siteId, before.siteId), sql`lower(${mailOutbox.toAddress}) = ${before.email.toLowerCase()}`)));
      await tx.delete(pageEvents).where(eq(pageEvents.userId, id));
      // Direct debit (DD-01): codes and SMS go; a mandate keeps its reference and status (payments name
      // it) but not the holder, address, number or account (only the IBAN's country and last four digits).
      await tx.delete(directDebitCodes).where(eq(directDebitCodes.userId, id));
      await tx.delete(smsOutbox).where(eq(smsOutbox.userId, id));
      await tx
        .update(directDebitMandates)
        .set({ accountHolder: 'deleted', street: '', houseNumber: '', zip: '', city: '', mobile: '', iban: sql`left(${directDebitMandates.iban}, 2) || '**' || right(${directDebitMandates.iban}, 4)` })
        .where(eq(directDebitMandates.userId, id));
      return [...removed.flatMap((r) => [r.filename, r.thumbFilename, r.blurredFilename]), ...selfies.map((r) => r.filename)].filter((n): n is string => n !== null);
    });
    if (files === null) continue;
    result.erased.push(id);
    for (const name of files) {
      try {
        await deps.photos.delete(name);
        result.filesDeleted++;
      } catch (err) {
        deps.log?.warn({ err, name, userId: id }, 'erase: photo file not deleted');
      }
    }
  }
  if (result.erased.length > 0) deps.log?.info({ erased: result.erased.length, files: result.filesDeleted }, 'erased deleted accounts');
  return result;
}
