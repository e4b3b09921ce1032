/**
 * What the chat screen shows (CHT-02, CHT-03, CHT-09): `/chats/{id}` (a conversation of the member's)
 * and `/members/{id}/chat` (the conversation with that member, or an empty one to start when the member
 * is listed to the viewer). Opening it reads the conversation (CHT-03). Anything else is not found.
 * A conversation the member may not start says why before anything is typed (CHT-04 limit, VER-02).
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users } from '../../db/schema';
import { activeMainPhoto } from '../members/listing';
import { isListedTo } from '../members/visibility';
import type { EventBus } from '../realtime/bus';
import { conversationFor, conversationWith, history, markRead, needsRead, type ChatPartner, type ConversationView } from './conversations';
import { conversationLimitReached, type ChatMessage } from './send';
import { cachedPackages, type CreditPackage } from '../credits/packages';
import type { TtlCache } from '../cache';
import { verificationRequired, verifiedCondition } from '../photos/verification';

/**
 * Messages the screen renders at first: a desktop's screenful and more (a phone shows about ten). Older
 * ones load as the member scrolls up (HISTORY_PAGE at a time, the island's 'older'). Each message is
 * rendered twice per page (as HTML and in the island's props), so the first page is most of the
 * conversation page's cost (decision 095).
 */
export const FIRST_PAGE = 20;

export type ChatScreen =
  | { type: 'not_found' }
  | {
      type: 'ok';
      partner: ChatPartner;
      view: ConversationView | null;
      messages: ChatMessage[];
      more: boolean;
      /** CHT-04: a free member who may not start this conversation (their limit is reached): said before they type. */
      limitReached: boolean;
      /** VER-02: the partner lets only verified members start a conversation and the member is not verified: said before they type. */
      verificationRequired: boolean;
      /** The site's credit packages (as /credits lists them), for the 'not enough credits' card in the chat (CHT-05). */
      packages: CreditPackage[];
      /** Opening it read messages: the member's badge counts changed (the page reads them again). */
      read: boolean;
    };

async function partnerFor(db: Db, memberId: number): Promise<ChatPartner | null> {
  const [row] = await db
    .select({ id: users.id, name: profiles.name, fictional: profiles.fictional, verified: verifiedCondition, status: users.status, thumb: photos.thumbFilename, image: photos.filename })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, and(activeMainPhoto))
    .where(eq(users.id, memberId))
    .limit(1);
  return row ? { id: row.id, name: row.name, fictional: row.fictional, verified: row.verified === true, thumb: row.thumb, image: row.image, confirmed: row.status === 'active' } : null;
}

export async function loadChatScreen(
  deps: { db: Db; bus: EventBus; cache: TtlCache },
  member: { siteId: number; userId: number; paidUser: boolean },
  target: { conversationId: number } | { memberId: number },
): Promise<ChatScreen> {
  const { db } = deps;
  let view: ConversationView | null;
  let partner: ChatPartner | null;
  if ('conversationId' in target) {
    view = await conversationFor(db, member, target.conversationId);
    partner = view?.partner ?? null;
  } else {
    if (target.memberId === member.userId) return { type: 'not_found' };
    view = await conversationWith(db, member, target.memberId);
    // No conversation yet: one can start only with a member listed to the viewer.
    partner = view?.partner ?? ((await isListedTo(db, member, target.memberId)) ? await partnerFor(db, target.memberId) : null);
  }
  if (!partner) return { type: 'not_found' };
  const packages = await cachedPackages(deps, member.siteId);
  if (!view) {
    const [limitReached, needsVerification] = await Promise.all([conversationLimitReached(db, member, partner.id), verificationRequired(db, member.userId, partner.id)]);
    return { type: 'ok', partner, view: null, messages: [], more: false, limitReached, verificationRequired: needsVerification, packages, read: false };
  }
  const page = await history(db, view, { limit: FIRST_PAGE });
  // Reading a conversation already read changes nothing: the update (and the badge's recount) only when it does.
  const read = needsRead(view, page.messages.at(-1)?.id) && (await markRead(deps, member, view)).changed;
  return { type: 'ok', partner, view: { ...view, unread: 0 }, messages: page.messages, more: page.more, limitReached: false, verificationRequired: false, packages, read };
}
