/**
 * POST /admin/operator/typing `{ conversation }` (OPS-02, OPS-05): the operator who holds the conversation
 * is typing. The member's stream shows the fictional profile typing for a few seconds and the operator's
 * lock is renewed; nothing is stored. Anyone else: 403 (no staff session or role) or 409 (not theirs).
 */
import { ApiError, endpoint, methodNotAllowed, readJson } from '../../../server/web/api';
import { currentStaff } from '../../../server/web/staff-guard';
import { operatorTyping } from '../../../server/staff/operator';
import { typingBody } from '../../../shared/api/typing';

export const POST = endpoint(async (context) => {
  const staff = await currentStaff(context);
  if (!staff || (staff.role !== 'operator' && staff.role !== 'admin')) throw new ApiError('authentication_required');
  const { conversation } = await readJson(context.request, typingBody);
  if (!(await operatorTyping(context.locals.app, staff, conversation))) throw new ApiError('conversation_not_found');
  return new Response(null, { status: 204 });
});

export const ALL = methodNotAllowed;
