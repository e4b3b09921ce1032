/** GET /api/user-data.php (GDPR-01): the signed-in member's data as a JSON download. */
import { exportFilename, exportUserData } from '../../server/accounts/data-export';
import { ApiError, endpoint, methodNotAllowed } from '../../server/web/api';
import type { Answer } from '../../shared/api/contract';

export const GET = endpoint(async ({ locals }) => {
  const { app, site, user } = locals;
  if (!user) throw new ApiError('authentication_required');
  const data = await exportUserData(app.db, site, user.id, app.clock.now());
  if (!data) throw new ApiError('authentication_required');
  // Indented: the file is meant to be read by the member, too.
  return new Response(JSON.stringify(data satisfies Answer<'getUserData', 200>, null, 2), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${exportFilename(site.settings.name, user.id)}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});

export const ALL = methodNotAllowed;
