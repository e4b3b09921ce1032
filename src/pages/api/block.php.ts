/**
 * /api/block.php (BLK-01): POST `{ id }` blocks a member of the site, DELETE `?id=` lifts the block; both
 * idempotent. After a block the two vanish from each other's search, likes and chats (visibility.ts).
 * Unknown ids and other sites' members are `member_not_found`, oneself `self_not_allowed`.
 */
import { endpoint, json, methodNotAllowed } from '../../server/web/api';
import { block, unblock } from '../../server/members/blocks';
import { requireMember } from '../../server/web/request-context';
import { refusal, targetFromBody, targetFromQuery } from './_member-target';
import type { BlockAnswer, UnblockAnswer } from '../../shared/api/block';

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const id = await targetFromBody(request);
  const result = await block({ db: locals.app.db, bus: locals.app.bus }, { siteId: locals.site.settings.id, userId: user.id }, id);
  if (result.type === 'refused') throw refusal(result.reason);
  return json({ ok: true, id, created: result.created } satisfies BlockAnswer, { status: result.created ? 201 : 200 });
});

export const DELETE = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  const id = targetFromQuery(url);
  if (id === user.id) throw refusal('self');
  const { removed } = await unblock({ db: locals.app.db, bus: locals.app.bus }, { siteId: locals.site.settings.id, userId: user.id }, id);
  return json({ ok: true, id, removed } satisfies UnblockAnswer);
});

export const ALL = methodNotAllowed;
