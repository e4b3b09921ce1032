import { describe, expect, it } from 'vitest';
import { INTERESTS } from '../../shared/interests';
import { ICON_INTERESTS, INTEREST_ICONS } from './interest-icons';

describe('interest icons', () => {
  it('MEM-03 every interest has a drawn icon: a valid SVG path inside the 24×24 box', () => {
    for (const interest of INTERESTS) {
      const icon = INTEREST_ICONS[interest] as { fill?: string; stroke?: string };
      const d = icon.fill ?? icon.stroke;
      expect(d, interest).toBeTruthy();
      expect(d, interest).toMatch(/^M[\sMmLlHhVvCcSsQqTtAaZz\d.,-]+$/);
      // Absolute move-to points land in the box (relative and arc numbers are not coordinates).
      for (const m of d!.matchAll(/M\s*(-?[\d.]+)[\s,]*(-?[\d.]+)/g)) {
        for (const n of [Number(m[1]), Number(m[2])]) {
          expect(n, `${interest}: ${m[0]}`).toBeGreaterThanOrEqual(0);
          expect(n, `${interest}: ${m[0]}`).toBeLessThanOrEqual(24);
        }
      }
    }
  });

  it('LND-01 the icons lander keeps its dozen everyday interests', () => {
    expect(ICON_INTERESTS).toHaveLength(12);
    for (const name of ICON_INTERESTS) expect(INTEREST_ICONS).toHaveProperty(name);
  });
});
