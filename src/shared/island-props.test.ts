import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('the build still finds the line of Astro it patches so a wide chunk is encoded on its own (astro.config.mjs, decision 095)', () => {
    const render = readFileSync(join(import.meta.dirname, '../../node_modules/astro/dist/runtime/server/render/astro/render.js'), 'utf8');
    expect(render.split('const bytes = chunkToByteArrayOrString(result, chunk);')).toHaveLength(2);
    expect(render).toContain('mergedArray = encoder.encode(text);');
  });
});
