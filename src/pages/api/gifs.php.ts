/**
 * /api/gifs.php (CHT-07): GET `?q=&offset=` searches gifs for the chat through the configured
 * `GifProvider` (the shipped library by default, GIPHY with GIPHY_API_KEY) in the member's language:
 * `{ items, next }`, `next` being the offset of the next page or null. Members only. A query over 50
 * characters or with control characters is `validation_failed`; a provider that fails is
 * `gif_search_unavailable` (503), never a 500.
 */
import { GIF_PAGE_SIZE, gifProvider, GifProviderError } from '../../server/chat/gifs';
import { ApiError, endpoint, json, methodNotAllowed, readQuery } from '../../server/web/api';
import { requireMember } from '../../server/web/request-context';
import { gifsQuery, type GifsAnswer } from '../../shared/api/gifs';

export const GET = endpoint(async ({ locals, url }) => {
  requireMember(locals, url.pathname);
  const { q = '', offset = 0 } = readQuery(url, gifsQuery);
  const provider = gifProvider(locals.app.config);
  try {
    const page = await provider.search(q, { lang: locals.lang, limit: GIF_PAGE_SIZE, offset });
    return json(page satisfies GifsAnswer);
  } catch (err) {
    if (!(err instanceof GifProviderError)) throw err;
    locals.log.warn({ provider: provider.name, status: err.status, reason: err.message }, 'gif search failed');
    throw new ApiError('gif_search_unavailable');
  }
});

export const ALL = methodNotAllowed;
