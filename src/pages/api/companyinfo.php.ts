/** GET /api/companyinfo.php (MEM-07): the operating company of the site; cached by the client. */
import { endpoint, json, methodNotAllowed } from '../../server/web/api';

export const GET = endpoint(({ locals }) => json(locals.site.company, { headers: { 'cache-control': 'public, max-age=3600' } }));
export const ALL = methodNotAllowed;
