import { dateTimeFormat } from './intl-formats';

/**
 * How a chat message's time is shown (CHT-02): in the page's language and the site's time zone
 * (src/server/games/site-time.ts), so the server's first render and the browser's hydration agree,
 * whatever the server's or the browser's own locale. A message of today shows its time ("09:31"); an
 * older one its day too ("25 nov. 09:31").
 */
export function messageTimeFormat(lang: string, timeZone: string, now: Date): (iso: string) => string {
  const day = dateTimeFormat(lang, { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const time = dateTimeFormat(lang, { timeZone, hour: '2-digit', minute: '2-digit' });
  // Day and time formatted apart and joined: the joint pattern differs more between ICU versions (the
  // server's Node and the browser), and a difference would be a hydration mismatch.
  const shortDay = dateTimeFormat(lang, { timeZone, day: 'numeric', month: 'short' });
  const today = day.format(now);
  return (iso) => {
    const at = new Date(iso);
    if (Number.isNaN(at.getTime())) return '';
    return day.format(at) === today ? time.format(at) : `${shortDay.format(at)} ${time.format(at)}`;
  };
}
