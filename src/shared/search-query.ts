/**
 * The member search's filters as the URL carries them (MEM-01): the `/members` page, its island and
 * `GET /api/members.php` use the same names (gender repeated, country, region, minAge, maxAge, verified, cursor),
 * so a URL the island writes is a page the server renders.
 */
export interface SearchQuery {
  gender: string[];
  country?: string;
  region?: number;
  minAge?: number;
  maxAge?: number;
  /** VER-01: verified members only. */
  verified?: boolean;
}

/** The filters as query parameters, in a stable order; absent values are left out. */
export function toSearchParams(query: SearchQuery, cursor?: string | null): URLSearchParams {
  const params = new URLSearchParams();
  for (const g of query.gender) params.append('gender', g);
  if (query.country) params.set('country', query.country);
  if (query.region !== undefined) params.set('region', String(query.region));
  if (query.minAge !== undefined) params.set('minAge', String(query.minAge));
  if (query.maxAge !== undefined) params.set('maxAge', String(query.maxAge));
  if (query.verified) params.set('verified', '1');
  if (cursor) params.set('cursor', cursor);
  return params;
}

const whole = (v: string | null): number | undefined => {
  if (v === null || !/^\d{1,3}$/.test(v.trim())) return undefined;
  return Number(v);
};

/**
 * Reads filters from a query string leniently (the browser's side: the server judges and answers 400 for
 * anything it refuses); unreadable numbers are left out.
 */
export function fromSearchParams(params: URLSearchParams): SearchQuery {
  const raw = params.get('country')?.trim() ?? '';
  const country = /^[A-Za-z]{2}$/.test(raw) ? raw : undefined;
  const region = params.get('region');
  return {
    gender: [...new Set(params.getAll('gender').filter((g) => g === 'male' || g === 'female'))],
    ...(country ? { country: country.toUpperCase() } : {}),
    ...(region !== null && /^\d{1,9}$/.test(region) ? { region: Number(region) } : {}),
    ...(whole(params.get('minAge')) !== undefined ? { minAge: whole(params.get('minAge')) } : {}),
    ...(whole(params.get('maxAge')) !== undefined ? { maxAge: whole(params.get('maxAge')) } : {}),
    ...(params.get('verified') === '1' || params.get('verified') === 'true' ? { verified: true } : {}),
  };
}

/** UX-02: the most pages one answer renders (src/server/members/search.ts MAX_SHOWN_PAGES). */
const MAX_PAGES = 10;

/**
 * UX-02: how many pages the list at this address showed — `pages=N`, written by 'more members' so that
 * opening a profile and going back renders them all again (and the browser puts the scroll back). 1
 * when absent; the server refuses a bad value, the browser reads it as 1.
 */
export function shownPages(params: URLSearchParams): number {
  const value = params.get('pages');
  const n = value !== null && /^\d{1,2}$/.test(value) ? Number(value) : 1;
  return n >= 1 && n <= MAX_PAGES ? n : 1;
}

/** A query string (`location.search`) with `pages` set to `pages` (left out at 1), all else kept. */
export function withShownPages(locationSearch: string, pages: number): string {
  const params = new URLSearchParams(locationSearch);
  if (pages > 1) params.set('pages', String(Math.min(pages, MAX_PAGES)));
  else params.delete('pages');
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** `/members` with the filters (and cursor), or `/members` alone. */
export function searchUrl(query: SearchQuery, cursor?: string | null): string {
  const qs = toSearchParams(query, cursor).toString();
  return qs ? `/members?${qs}` : '/members';
}
