/** The chat's shown list as pure functions: day separators and groups (CHT-02). */
import { describe, expect, it } from 'vitest';
import { arrivedAfter, chatTimeline, dayKey, GROUP_GAP_MS, type ShownMessage } from './chat-state';

const ME = 7;
const PARTNER = 9;
const TZ = 'Europe/Amsterdam';

function shown(id: number, sender: number, at: string, state: ShownMessage['state'] = 'stored'): ShownMessage {
  return {
    id,
    conversation: 3,
    sender,
    recipient: sender === ME ? PARTNER : ME,
    kind: 'text',
    body: `m${id}`,
    attachment: null,
    client_id: `c${id}`,
    credits: 0,
    safety_notice: false,
    created_at: at,
    state,
  };
}

const shape = (items: ReturnType<typeof chatTimeline>) => items.map((i) => (i.type === 'day' ? `day:${i.label}:${i.day}` : `${i.message.id}${i.first ? '<' : ''}${i.last ? '>' : ''}`));

describe('chatTimeline (CHT-02)', () => {
  const now = new Date('2026-11-27T10:00:00Z');

  it('CHT-02 puts a day separator before each day: today, yesterday, older by date, in the site time zone', () => {
    const items = chatTimeline(
      [
        shown(1, PARTNER, '2026-11-20T12:00:00Z'),
        // 23:30 UTC on the 25th is already the 26th in Amsterdam: yesterday.
        shown(2, PARTNER, '2026-11-25T23:30:00Z'),
        shown(3, ME, '2026-11-27T08:00:00Z'),
      ],
      TZ,
      now,
    );
    expect(shape(items)).toEqual(['day:date:2026-11-20', '1<>', 'day:yesterday:2026-11-26', '2<>', 'day:today:2026-11-27', '3<>']);
  });

  it('CHT-02 groups consecutive messages of one sender within a few minutes: one time, under the last', () => {
    const items = chatTimeline(
      [
        shown(1, PARTNER, '2026-11-27T09:00:00Z'),
        shown(2, PARTNER, '2026-11-27T09:01:00Z'),
        shown(3, PARTNER, '2026-11-27T09:03:00Z'),
        shown(4, ME, '2026-11-27T09:04:00Z'),
        shown(5, ME, new Date(Date.parse('2026-11-27T09:04:00Z') + GROUP_GAP_MS + 1000).toISOString()),
        shown(6, PARTNER, '2026-11-27T09:30:00Z'),
      ],
      TZ,
      now,
    );
    expect(shape(items)).toEqual(['day:today:2026-11-27', '1<', '2', '3>', '4<>', '5<>', '6<>']);
  });

  it('CHT-02 a day change ends a group; a message being sent counts as now and joins the member’s recent group', () => {
    const items = chatTimeline([shown(1, ME, '2026-11-26T22:58:00Z'), shown(2, ME, '2026-11-26T23:01:00Z'), shown(3, ME, '2026-11-27T09:58:00Z'), shown(0, ME, '', 'sending')], TZ, now);
    expect(shape(items)).toEqual(['day:yesterday:2026-11-26', '1<>', 'day:today:2026-11-27', '2<>', '3<', '0>']);
  });

  it('dayKey writes the day in the given time zone', () => {
    expect(dayKey(new Date('2026-11-26T23:30:00Z'), TZ)).toBe('2026-11-27');
    expect(dayKey(new Date('2026-11-26T23:30:00Z'), 'UTC')).toBe('2026-11-26');
  });

  it('CHT-02 dayKey, kept per quarter hour, gives the formatted day of every minute (DST changes, half- and quarter-hour zones)', () => {
    const zones = ['Europe/Amsterdam', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'];
    const spans = ['2026-03-28T00:00:00Z', '2026-10-24T00:00:00Z', '2026-04-04T00:00:00Z', '2026-11-26T00:00:00Z'];
    let checked = 0;
    const wrong: string[] = [];
    for (const timeZone of zones) {
      const direct = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
      for (const start of spans) {
        // Three days a minute at a time, asked last minute first so each quarter hour is kept from its end.
        for (let minute = 3 * 24 * 60 - 1; minute >= 0; minute -= 1) {
          const at = new Date(Date.parse(start) + minute * 60_000 + 59_000);
          if (dayKey(at, timeZone) !== direct.format(at)) wrong.push(`${timeZone} ${at.toISOString()}`);
          checked += 1;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(7 * 4 * 3 * 24 * 60);
    expect(dayKey(new Date('1937-06-30T23:50:00Z'), 'Europe/Amsterdam')).toBe('1937-07-01'); // +00:19:32 then: formatted, not kept
  });
});

describe('arrivedAfter (CHT-02 jump to newest)', () => {
  it('counts the partner’s stored messages after the last one seen, not the member’s own', () => {
    const list = [shown(1, PARTNER, 'x'), shown(2, ME, 'x'), shown(3, PARTNER, 'x'), shown(4, PARTNER, 'x'), shown(0, ME, '', 'sending')];
    expect(arrivedAfter(list, ME, 2)).toBe(2);
    expect(arrivedAfter(list, ME, 4)).toBe(0);
  });
});
