/** GET /api/interests.php (MEM-07): the interest keys profiles pick from (texts: `interests:<key>`); loaded once and cached by the client. */
import { endpoint, json, methodNotAllowed } from '../../server/web/api';
import { INTERESTS } from '../../shared/interests';
import type { Answer } from '../../shared/api/contract';

const answer = { interests: [...INTERESTS] };

export const GET = endpoint(() => json(answer satisfies Answer<'getInterests', 200>, { headers: { 'cache-control': 'public, max-age=604800' } }));
export const ALL = methodNotAllowed;
