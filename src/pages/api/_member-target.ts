/**
 * The member a like or block call is about: `{ id }` in a JSON body (POST) or `?id=` in the query
 * (DELETE). A bad id is 400 `validation_failed`; the services' refusals map to stable codes.
 */
import { ApiError, readJson, readQuery } from '../../server/web/api';
import { MAX_ID } from '../../shared/ids';
import { memberTargetBody, memberTargetQuery } from '../../shared/api/member-target';

export async function targetFromBody(request: Request): Promise<number> {
  return (await readJson(request, memberTargetBody)).id;
}

export function targetFromQuery(url: URL): number {
  const id = Number(readQuery(url, memberTargetQuery).id);
  if (id > MAX_ID) throw new ApiError('validation_failed', { id: 'too_big' });
  return id;
}

/** A refusal of the likes or blocks service as the API's error: oneself 400, anyone not listed 404. */
export function refusal(reason: 'self' | 'not_found'): ApiError {
  return new ApiError(reason === 'self' ? 'self_not_allowed' : 'member_not_found');
}
