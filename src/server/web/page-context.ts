/**
 * What the Default layout shows around every page, read once per request: the member's counts for the
 * navigation badges and the client (cached per request, src/server/session/counts.ts), whether the like
 * modal asks at once (UX-01), the time bonus banner and modal (TB-01, TB-02) and the warning banners
 * (ALR-01..04, ACT-02). The stored dismissals are read at most once (the session lookup usually has them).
 */
import { loadDismissals } from '../alerts/dismissals';
import { planAlerts, routeFromPath, type AlertPlan } from '../alerts/rules';
import { planTimeBonus, type TimeBonusPlan } from '../payments/time-bonus';
import { memberCountsForRequest, type MemberCounts } from '../session/counts';
import { discountMember } from './credits';
import type { RequestContext } from './request-context';

export interface PageContext {
  counts: MemberCounts;
  /** The like modal asks for a like at once: one waits to be shown. */
  autoLike: boolean;
  timeBonus: TimeBonusPlan | null;
  alerts: AlertPlan;
}

/** `route`: the page's route name for the alerts; without one, the path names it where it is a named route. */
export async function pageContext(ctx: Pick<RequestContext, 'app' | 'site' | 'user' | 'dismissals'>, url: URL, route: string | undefined): Promise<PageContext> {
  const { app, user } = ctx;
  const counts = await memberCountsForRequest(ctx);
  if (!user) return { counts, autoLike: false, timeBonus: null, alerts: planAlerts(null) };
  const dismissals = ctx.dismissals ?? (await loadDismissals(app.db, user.id));
  const now = app.clock.now();
  return {
    counts,
    autoLike: counts.unshown > 0,
    // The time bonus is the server's decision; the page only carries what it decided (and its script only then).
    timeBonus: planTimeBonus({ member: { ...discountMember(user), credits: user.credits }, pathname: url.pathname, dismissals, now }),
    alerts: planAlerts({ user, route: route ?? routeFromPath(url.pathname), dismissals, now, signupComplete: url.searchParams.has('api_signup_complete') }),
  };
}
