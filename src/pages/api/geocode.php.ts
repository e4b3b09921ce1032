/**
 * GET /api/geocode.php?lat&lon (MEM-08): the country and region nearest to a position among the site's
 * countries, from the regions' centroids (no network). Bad coordinates: 400 invalid_coordinates. The
 * client may keep an answer for an hour.
 */
import { ApiError, endpoint, json, methodNotAllowed } from '../../server/web/api';
import { geocode, parseCoordinates, InvalidCoordinates } from '../../server/members/places';
import type { Answer } from '../../shared/api/contract';

export const GET = endpoint(async ({ locals, url }) => {
  let position: { lat: number; lon: number };
  try {
    position = parseCoordinates(url.searchParams.get('lat'), url.searchParams.get('lon'));
  } catch (err) {
    if (err instanceof InvalidCoordinates) throw new ApiError('invalid_coordinates', { lat: 'invalid', lon: 'invalid' });
    throw err;
  }
  const found = await geocode(locals.app.db, position, locals.site.settings.countries);
  return json(found satisfies Answer<'geocode', 200>, { headers: { 'cache-control': 'private, max-age=3600' } });
});
export const ALL = methodNotAllowed;
