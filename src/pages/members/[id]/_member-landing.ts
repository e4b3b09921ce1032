/**
 * Shared by the member landing routes (LND-03): the member a landing shows, or null for the 404 page
 * (unknown id, inactive or invisible member, a member of another site, or a slug of more than one
 * path segment).
 */
import type { AstroGlobal } from 'astro';
import { loadLanderMember } from '../../../server/landers/content';
import { slugSegment } from '../../../server/landers/names';
import { parseId } from '../../../shared/ids';

export async function memberForLanding(astro: AstroGlobal) {
  const id = parseId(astro.params.id);
  const segment = slugSegment(astro.params.slug);
  const { app, site } = astro.locals;
  const member = id !== null && segment.ok ? await loadLanderMember(app.db, { siteId: site.settings.id, memberId: id, now: app.clock.now() }) : null;
  return member;
}
