/**
 * SPEC §4, §9: a deleted account can be restored for 14 days, then it is erased. One home for the
 * number that the login (auth/login.ts), the deletion and its mail (accounts/deletion.ts), the erase job
 * (jobs/erase-deleted.ts) and the help pages (static-pages/content.ts) all quote. Nothing here may pull
 * in the i18n catalogues: the erase job is loaded by the app context.
 */
export const DELETE_GRACE_DAYS = 14;
export const DELETE_GRACE_MS = DELETE_GRACE_DAYS * 24 * 3600 * 1000;

/** The address an erased account keeps: unique per account and never deliverable (RFC 2606 .invalid). */
export function erasedEmail(userId: number): string {
  return `deleted-${userId}@invalid`;
}
