/** GET /api/companyinfo.php (MEM-07): the operating company of the site; cached by the client. */
import { endpoint, json, methodNotAllowed } from '../../server/web/api';
import type { Answer } from '../../shared/api/contract';

export const GET = endpoint(({ locals }) => json(locals.site.company satisfies Answer<'getCompanyInfo', 200>, { headers: { 'cache-control': 'public, max-age=3600' } }));
export const ALL = methodNotAllowed;
