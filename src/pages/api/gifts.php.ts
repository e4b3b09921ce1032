/**
 * /api/gifts.php (GFT-01): GET the gift catalogue in the member's language, `{ gifts: [{ id, name,
 * image }], cost }`, `cost` being the site's `gift_credits` per gift. Members only. Sending a gift (and
 * charging it) belongs to the chat's message API.
 */
import { listGifts } from '../../server/chat/gifts';
import { endpoint, json, methodNotAllowed } from '../../server/web/api';
import { requireMember } from '../../server/web/request-context';
import type { Answer } from '../../shared/api/contract';

export const GET = endpoint(({ locals, url }) => {
  requireMember(locals, url.pathname);
  return json({ gifts: listGifts(locals.lang), cost: locals.site.settings.gift_credits } satisfies Answer<'listGifts', 200>);
});

export const ALL = methodNotAllowed;
