/**
 * /api/likes.php (LIK-01): GET the signed-in member's likes — `profiles`, one page of cards of the list
 * `type` (received by default, given, matches; `after` continues a page) with `next`, and `liked_by`, the
 * ids of everyone who liked the member with whether the like is new (the nav badge counts those).
 * POST `{ id }` likes a member, DELETE `?id=` takes the like back; both idempotent. The liked member is
 * told per their preferences (PUSH-02). Members not listed to the member (unknown, other site,
 * invisible, blocked either way) are `member_not_found`, oneself `self_not_allowed`.
 */
import { servicesFor } from '../../server/web/services';
import { endpoint, json, methodNotAllowed, readQuery } from '../../server/web/api';
import { like, likedBy, listLikes, unlike } from '../../server/members/likes';
import { formatCursor, likeCardJson, parseCursor } from '../../server/web/likes';
import { requireMember } from '../../server/web/request-context';
import { refusal, targetFromBody, targetFromQuery } from './_member-target';
import { likesQuery, type LikeAnswer, type LikesAnswer, type UnlikeAnswer } from '../../shared/api/likes';

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  const { type = 'received', after } = readQuery(url, likesQuery);
  const member = { siteId: locals.site.settings.id, userId: user.id };
  const [page, liked] = await Promise.all([listLikes(locals.app.db, member, { type, now: locals.app.clock.now(), after: parseCursor(after) }), likedBy(locals.app.db, member)]);
  const prefix = locals.site.settings.cdn_prefix;
  return json({ type, profiles: page.cards.map((card) => likeCardJson(prefix, card)), next: page.next ? formatCursor(page.next) : null, liked_by: liked } satisfies LikesAnswer);
});

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const id = await targetFromBody(request);
  const result = await like(await servicesFor(locals), { siteId: locals.site.settings.id, userId: user.id }, id);
  if (result.type === 'refused') throw refusal(result.reason);
  return json({ ok: true, id, created: result.created, match: result.match } satisfies LikeAnswer, { status: result.created ? 201 : 200 });
});

export const DELETE = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  const id = targetFromQuery(url);
  if (id === user.id) throw refusal('self');
  const { removed } = await unlike(await servicesFor(locals), { siteId: locals.site.settings.id, userId: user.id }, id);
  return json({ ok: true, id, removed } satisfies UnlikeAnswer);
});

export const ALL = methodNotAllowed;
