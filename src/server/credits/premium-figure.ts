/**
 * The premium claim of SPEC §9, kept honest (HON-03): "more chance" is shown only with the site's own
 * figure behind it. Nightly, per site, over the last 90 days: of the conversations real members started
 * with real members, the share whose first message the other member answered, for senders who were
 * premium when they wrote it (a paid payment started before it) and for those who were not. The figure is
 * how much more often premium members' first messages were answered, with its basis (counts and window).
 * Fictional profiles' answers do not count: the claim is about real members' chances. With fewer than
 * MIN_FIRST_MESSAGES first messages in either group, or no advantage, there is no figure and no claim.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { DAY_MS, FIGURE_WINDOW_DAYS, loadFigure, refreshStaleFigures, saveFigure } from './site-figures';

export const PREMIUM_FIGURE_KEY = 'premium_answer_rate';
/** First messages needed in each group (premium, free) before a figure is shown. */
export const MIN_FIRST_MESSAGES = 100;

export interface PremiumFigure {
  /** How much more often (in %) premium members' first messages were answered than free members'. */
  percent: number;
  premiumSent: number;
  premiumAnswered: number;
  freeSent: number;
  freeAnswered: number;
  days: number;
  computedAt: Date;
}

export interface AnswerCounts {
  premiumSent: number;
  premiumAnswered: number;
  freeSent: number;
  freeAnswered: number;
}

/** The site's first messages of the window and how many were answered, per group. */
export async function countFirstMessageAnswers(db: Db, siteId: number, now: Date): Promise<AnswerCounts> {
  const since = new Date(now.getTime() - FIGURE_WINDOW_DAYS * DAY_MS);
  const result = await db.execute(sql`
    with firsts as (
      select distinct on (m.conversation_id) m.conversation_id, m.sender_id, m.recipient_id, m.created_at
      from messages m
      join conversations c on c.id = m.conversation_id
      where c.site_id = ${siteId} and m.created_at >= ${since.toISOString()} and m.created_at < ${now.toISOString()}
      order by m.conversation_id, m.id
    )
    select
      exists (select 1 from payments p where p.user_id = f.sender_id and p.status = 'paid' and p.created_at <= f.created_at) as premium,
      count(*)::int as sent,
      (count(*) filter (where exists (
        select 1 from messages r where r.conversation_id = f.conversation_id and r.sender_id = f.recipient_id and r.created_at > f.created_at
      )))::int as answered
    from firsts f
    join users s on s.id = f.sender_id and s.role = 'member'
    join users t on t.id = f.recipient_id and t.role = 'member'
    -- Only conversations whose first message is in the window (not one that started before it).
    where not exists (select 1 from messages e where e.conversation_id = f.conversation_id and e.created_at < ${since.toISOString()})
    group by 1`);
  // PGlite answers { rows }, the PostgreSQL driver the rows themselves.
  type Row = { premium: boolean; sent: number; answered: number };
  const rows: Row[] = Array.isArray(result) ? (result as Row[]) : (result as unknown as { rows: Row[] }).rows;
  const of = (premium: boolean) => rows.find((r) => r.premium === premium) ?? { sent: 0, answered: 0 };
  const p = of(true);
  const f = of(false);
  return { premiumSent: Number(p.sent), premiumAnswered: Number(p.answered), freeSent: Number(f.sent), freeAnswered: Number(f.answered) };
}

/** The claim's percentage from the counts, or null when there is too little data or no advantage. */
export function premiumAdvantage(c: AnswerCounts): number | null {
  if (c.premiumSent < MIN_FIRST_MESSAGES || c.freeSent < MIN_FIRST_MESSAGES || c.freeAnswered === 0) return null;
  const lift = Math.round((c.premiumAnswered / c.premiumSent / (c.freeAnswered / c.freeSent) - 1) * 100);
  return lift >= 1 ? lift : null;
}

/** Computes and stores (or removes) one site's figure. */
export async function computePremiumFigure(db: Db, siteId: number, now: Date): Promise<PremiumFigure | null> {
  const counts = await countFirstMessageAnswers(db, siteId, now);
  const percent = premiumAdvantage(counts);
  const value = percent === null ? null : { percent, ...counts, days: FIGURE_WINDOW_DAYS };
  await saveFigure(db, siteId, PREMIUM_FIGURE_KEY, value, now);
  return value && { ...value, computedAt: now };
}

/** The nightly job: every site whose figure is missing or older than a day is computed again. */
export function refreshPremiumFigures(deps: { db: Db; clock: { now(): Date } }): Promise<{ computed: number }> {
  return refreshStaleFigures(deps, PREMIUM_FIGURE_KEY, (siteId, now) => computePremiumFigure(deps.db, siteId, now));
}

/** The site's stored figure, or null: then no claim is shown. */
export async function loadPremiumFigure(db: Db, siteId: number): Promise<PremiumFigure | null> {
  const row = await loadFigure(db, siteId, PREMIUM_FIGURE_KEY);
  if (!row) return null;
  const v = row.value;
  return { percent: v.percent!, premiumSent: v.premiumSent!, premiumAnswered: v.premiumAnswered!, freeSent: v.freeSent!, freeAnswered: v.freeAnswered!, days: v.days!, computedAt: row.computedAt };
}
