import { describe, expect, it } from 'vitest';
import { messageTimeFormat } from './message-time';

describe('chat message times', () => {
  const now = new Date('2026-11-26T08:40:00Z');

  it("CHT-02 a message of today shows its time in the page's language and the site's zone, not the machine's", () => {
    // 08:31 UTC is 09:31 in Amsterdam in November; Dutch and German write 24-hour times.
    expect(messageTimeFormat('nl', 'Europe/Amsterdam', now)('2026-11-26T08:31:00Z')).toBe('09:31');
    expect(messageTimeFormat('de', 'Europe/Berlin', now)('2026-11-26T20:05:00Z')).toBe('21:05');
    expect(messageTimeFormat('en', 'Europe/Amsterdam', now)('2026-11-26T14:02:00Z')).toMatch(/^03:02\sPM$/);
  });

  it('CHT-02 an older message shows its day too; the day boundary is the site’s midnight', () => {
    const nl = messageTimeFormat('nl', 'Europe/Amsterdam', now);
    expect(nl('2026-11-25T13:02:00Z')).toMatch(/^25 nov\.? 14:02$/);
    // 23:30 UTC on the 25th is already the 26th in Amsterdam: today.
    expect(nl('2026-11-25T23:30:00Z')).toBe('00:30');
    expect(nl('not a date')).toBe('');
  });
});
