/**
 * GET /api/auto-like.php (LIK-03, UX-01): the next like the signed-in member received and has not been
 * shown, for the 'New like' / 'It's a match' modal — `id`, `name`, `main_image.match`, `fictional`,
 * `match` — marked shown so it comes once (matches first). `?member=` asks for that member's like only
 * (the live 'match' event names them): 204 when it was shown already, in another tab or page. 204 when
 * there is none.
 */
import { endpoint, json, methodNotAllowed, readQuery } from '../../server/web/api';
import { nextAutoLike } from '../../server/members/likes';
import { mainImage } from '../../server/web/likes';
import { requireMember } from '../../server/web/request-context';
import { parseId } from '../../shared/ids';
import { autoLikeQuery, type AutoLikeAnswer } from '../../shared/api/auto-like';

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  const { member } = readQuery(url, autoLikeQuery);
  const from = member === undefined ? undefined : parseId(member)!;
  const next = await nextAutoLike({ db: locals.app.db, clock: locals.app.clock }, { siteId: locals.site.settings.id, userId: user.id }, from);
  if (!next) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  const image = mainImage(locals.site.settings.cdn_prefix, { image: next.image, thumb: null });
  return json({ id: next.id, name: next.name, fictional: next.fictional, match: next.match, main_image: image ? { match: image.match } : null } satisfies AutoLikeAnswer);
});

export const ALL = methodNotAllowed;
