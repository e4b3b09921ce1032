/**
 * One search for a request (MEM-01, MEM-02): the `/members` page and `GET /api/members.php` both run
 * this, so the visitor rule, the parsing and the error codes are the same for HTML and JSON.
 */
import type { Db } from '../../db/client';
import type { ApiErrorCode } from '../../shared/api-errors';
import { parseSearchParams, searchMembers, SearchValidationError, visitorMaySearch, type SearchDefaults, type SearchResult } from './search';

export interface SearchRequest {
  db: Db;
  now: Date;
  site: { id: number; min_age: number; logged_out_search: boolean; logged_out_search_trafficsource: boolean };
  userId: number | null;
  tracking: unknown;
  params: URLSearchParams;
  /**
   * The members blocked by or blocking the viewer, when the request knows them already (a page's session
   * lookup read them); else the search asks the database.
   */
  blocked?: ReadonlySet<number> | null;
  /** The viewer's own search defaults, when the request read them already (a page's session lookup); else the search reads them. */
  defaults?: SearchDefaults | null;
}

export type SearchOutcome =
  | { type: 'ok'; result: SearchResult }
  | { type: 'login_required' }
  | { type: 'invalid'; code: ApiErrorCode; field: string };

/** The stable API code for a refused filter (the field names of {@link parseSearchParams}). */
export function searchErrorCode(err: SearchValidationError): ApiErrorCode {
  switch (err.field) {
    case 'gender':
      return 'invalid_gender';
    case 'minAge':
    case 'maxAge':
      return 'invalid_age_range';
    case 'country':
      return 'unknown_country';
    case 'region':
      return 'unknown_region';
    case 'cursor':
      return 'invalid_cursor';
    default:
      return 'validation_failed';
  }
}

/** Whether this viewer may search at all: members always, visitors as MEM-02 allows. */
export function maySearch(req: Pick<SearchRequest, 'site' | 'userId' | 'tracking'>): boolean {
  return req.userId !== null || visitorMaySearch(req.site, req.tracking);
}

export async function runSearch(req: SearchRequest): Promise<SearchOutcome> {
  if (!maySearch(req)) return { type: 'login_required' };
  try {
    const filters = parseSearchParams(req.params);
    const result = await searchMembers(req.db, { viewer: { siteId: req.site.id, userId: req.userId }, filters, now: req.now, minAge: req.site.min_age });
    return { type: 'ok', result };
  } catch (err) {
    if (err instanceof SearchValidationError) return { type: 'invalid', code: searchErrorCode(err), field: err.field };
    throw err;
  }
}
