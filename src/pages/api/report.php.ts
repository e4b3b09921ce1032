/**
 * /api/report.php (SAFE-01): POST `{ id, reason, message?, note?, block? }` reports a member of the site
 * to the moderators with the messages it carries (members/reports.ts), blocking them too when asked. The
 * screens use the same service through their server form (member-profile.ts); this is the API's way.
 */
import { ApiError, endpoint, json, methodNotAllowed, readJson } from '../../server/web/api';
import { reportMember } from '../../server/members/reports';
import { requireMember } from '../../server/web/request-context';
import { refusal } from './_member-target';
import { reportBody, type ReportAnswer } from '../../shared/api/report';

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const input = await readJson(request, reportBody);
  const result = await reportMember(
    locals.app,
    { siteId: locals.site.settings.id, userId: user.id },
    { memberId: input.id, reason: input.reason, messageId: input.message ?? null, note: input.note, block: input.block },
  );
  if (result.type === 'refused') throw result.reason === 'rate_limited' ? new ApiError('report_limit_reached') : refusal(result.reason);
  return json({ ok: true, id: result.id, blocked: result.blocked } satisfies ReportAnswer, { status: 201 });
});

export const ALL = methodNotAllowed;
