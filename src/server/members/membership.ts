/**
 * What premium membership gives (SPEC §6, §9): the numbers the premium page, the pricing page and the
 * static texts quote. The claim 'more chance' is not a constant: it is the site's own figure
 * (../credits/premium-figure.ts, HON-03). The features that enforce them (photos, conversations) use the same values.
 */

/** Photos a member may upload: free / premium (SPEC §5, §9). */
export const FREE_PHOTO_LIMIT = 3;
export const PREMIUM_PHOTO_LIMIT = 25;
/** Conversations a free member may start (SPEC §9). */
export const FREE_CONVERSATION_LIMIT = 2;

/**
 * CHT-04: whether a member may start one more conversation, having started `startedBefore` (the new one
 * not counted): a premium member always, a free member FREE_CONVERSATION_LIMIT times.
 */
export function mayStartConversation(member: { paidUser: boolean }, startedBefore: number): boolean {
  return member.paidUser || startedBefore < FREE_CONVERSATION_LIMIT;
}
