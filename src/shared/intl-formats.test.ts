import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat, pluralRules } from './intl-formats';
import { createTranslator, pluralTemplates } from '../i18n';

describe('shared Intl formatters (issue 26)', () => {
  it('PERF-01 a formatter is made once per locale and options, and formats as a new one does', () => {
    const at = new Date('2026-11-27T23:30:00Z');
    const a = dateTimeFormat('nl', { timeZone: 'Europe/Amsterdam', hour: '2-digit', minute: '2-digit' });
    expect(dateTimeFormat('nl', { timeZone: 'Europe/Amsterdam', hour: '2-digit', minute: '2-digit' })).toBe(a);
    expect(a.format(at)).toBe(new Intl.DateTimeFormat('nl', { timeZone: 'Europe/Amsterdam', hour: '2-digit', minute: '2-digit' }).format(at));
    // Another zone, language or option set is another formatter.
    expect(dateTimeFormat('nl', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' }).format(at)).toBe('23:30');
    expect(a.format(at)).toBe('00:30');
    expect(dateTimeFormat('en', { timeZone: 'Europe/Amsterdam', hour: '2-digit', minute: '2-digit' })).not.toBe(a);
    expect(numberFormat('nl', { style: 'currency', currency: 'EUR' }).format(12.5)).toBe(new Intl.NumberFormat('nl', { style: 'currency', currency: 'EUR' }).format(12.5));
    expect(numberFormat('de')).toBe(numberFormat('de'));
    expect(pluralRules('pl').select(5)).toBe('many');
  });

  it('PERF-01 UX-05 kept plural templates are the same as made anew, and a caller changing its copy changes nothing for the next', () => {
    const t = createTranslator('pl');
    const first = pluralTemplates(t, 'pl', 'nav:new_likes');
    expect(Object.keys(first).sort()).toEqual(['few', 'many', 'one', 'other']);
    first.one = 'changed';
    const second = pluralTemplates(t, 'pl', 'nav:new_likes');
    expect(second.one).not.toBe('changed');
    expect(second.one).toContain('{count}');
    expect(pluralTemplates(createTranslator('en'), 'en', 'nav:new_likes').one).not.toBe(second.one);
  });
});
