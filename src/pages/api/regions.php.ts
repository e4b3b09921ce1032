/** GET /api/regions.php (MEM-07): the regions of the site's countries, per country; loaded once and cached by the client. */
import { endpoint, json, methodNotAllowed } from '../../server/web/api';
import { listRegions } from '../../server/members/places';
import type { Answer } from '../../shared/api/contract';

export const GET = endpoint(async ({ locals }) => {
  const countries = locals.site.settings.countries;
  const regions = await listRegions(locals.app.db, countries);
  return json(
    { countries: countries.map((code) => ({ code, regions: regions.filter((r) => r.country === code).map(({ id, code: c, name }) => ({ id, code: c, name })) })) } satisfies Answer<'getRegions', 200>,
    { headers: { 'cache-control': 'public, max-age=86400' } },
  );
});
export const ALL = methodNotAllowed;
