import { describe, expect, it } from 'vitest';
import { packProps, unpackProps } from './island-props';

describe('island props', () => {
  const value = {
    plain: 'Hoi Sanne',
    latin1: 'café, één, ß, ÿ',
    wide: 'Schrijf een bericht…  € 0,25 — ‘zo’n’',
    emoji: '😀👍🏽',
    c1: '\u0085\u009f',
    quote: 'a "b" \\ c </script>',
    nested: [{ n: 1, ok: true, none: null }],
  };

  it('packed props read back as the same value, wide characters and emoji included', () => {
    expect(unpackProps(packProps(value))).toEqual(value);
    expect(unpackProps(packProps({ a: 'plain' }))).toEqual({ a: 'plain' });
  });

  it('packed props hold only Latin-1 characters (a wider one is its \\u escape), so the page they join stays one byte a character', () => {
    const packed = packProps(value);
    expect(/[\u0100-\uffff]/.test(packed)).toBe(false);
    expect(packed).toContain('\\u2026');
    expect(packed).toContain('\\ud83d\\ude00');
    // JSON without wide characters is left exactly as JSON.stringify wrote it.
    expect(packProps({ a: 'café' })).toBe(JSON.stringify({ a: 'café' }));
  });
});
