import { dateTimeFormat } from '../../shared/intl-formats';

/**
 * A site's time zone: its local day (GAME-02's daily limit) and the times its pages show its members.
 * The site settings carry no time zone, so a site's zone is that of its main country (the first of
 * `countries`), that country's capital's; a country not in the table falls back to UTC
 * (docs/decisions/030-swipe-game-daily-limit.md).
 */
const COUNTRY_ZONES: Record<string, string> = {
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  LU: 'Europe/Luxembourg',
  DE: 'Europe/Berlin',
  AT: 'Europe/Vienna',
  CH: 'Europe/Zurich',
  FR: 'Europe/Paris',
  ES: 'Europe/Madrid',
  IT: 'Europe/Rome',
  DK: 'Europe/Copenhagen',
  NO: 'Europe/Oslo',
  SE: 'Europe/Stockholm',
  FI: 'Europe/Helsinki',
  PL: 'Europe/Warsaw',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  PT: 'Europe/Lisbon',
  US: 'America/New_York',
  CA: 'America/Toronto',
  AU: 'Australia/Sydney',
};

/** The IANA zone of a site: its main country's. */
export function siteTimeZone(settings: { countries: readonly string[] }): string {
  return COUNTRY_ZONES[settings.countries[0] ?? ''] ?? 'UTC';
}

/**
 * A date/time format for what a page shows its members (chats, transactions, offers, 'member since'):
 * in the page's language and the site's zone, never the server's own zone (UTC on a server).
 */
export function siteDateTimeFormat(lang: string, settings: { countries: readonly string[] }, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return dateTimeFormat(lang, { ...options, timeZone: siteTimeZone(settings) });
}

/** Milliseconds `timeZone` is ahead of UTC at `at`. */
function offsetAt(at: Date, timeZone: string): number {
  const parts = dateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The local calendar date (y, m, d) in `timeZone` at `at`, plus `days`, at 00:00 local, as an instant. */
function midnight(at: Date, timeZone: string, days: number): Date {
  const local = new Date(at.getTime() + offsetAt(at, timeZone));
  const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days);
  // The offset at midnight may differ from now's (a DST change during the day): take the one in force then.
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

/** The instant today began in `timeZone`. */
export function localMidnight(at: Date, timeZone: string): Date {
  return midnight(at, timeZone, 0);
}

/** The instant tomorrow begins in `timeZone`. */
export function nextLocalMidnight(at: Date, timeZone: string): Date {
  return midnight(at, timeZone, 1);
}
