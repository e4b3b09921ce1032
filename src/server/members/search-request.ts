/**
 * One search for a request (MEM-01, MEM-02): the `/members` page and `GET /api/members.php` both run
 * it through sharedSearch (./search-pages.ts), so the visitor rule, the parsing and the error codes are
 * the same for HTML and JSON.
 */
import type { Db } from '../../db/client';
import type { ApiErrorCode } from '../../shared/api-errors';
import { parseSearchParams, SearchValidationError, visitorMaySearch, type SearchDefaults, type SearchResult } from './search';

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

export type SearchOutcome = { type: 'ok'; result: SearchResult } | { type: 'login_required' } | { type: 'invalid'; code: ApiErrorCode; field: string };

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
