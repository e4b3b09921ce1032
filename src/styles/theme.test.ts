/** The theme's button colours are readable (WCAG AA, 4.5:1 for text): checked on the compiled stylesheet. */
import { fileURLToPath } from 'node:url';
import { compile } from 'sass';
import { describe, expect, it } from 'vitest';

const css = compile(fileURLToPath(new URL('./theme.scss', import.meta.url)), {
  loadPaths: [fileURLToPath(new URL('../../node_modules', import.meta.url))],
  quietDeps: true,
  silenceDeprecations: ['import', 'global-builtin', 'color-functions'],
}).css;

function luminance(hex: string): number {
  const full = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/** The last value the stylesheet gives `property` in a rule for exactly `selector`. */
function lastValue(selector: string, property: string): string {
  const rules = [...css.matchAll(new RegExp(`(?:^|\\})\\s*${selector.replace(/\./g, '\\.')}\\s*\\{([^}]*)\\}`, 'g'))];
  const values = rules.flatMap((m) => [...m[1]!.matchAll(new RegExp(`${property}:\\s*(#[0-9a-fA-F]{3,6})`, 'g'))].map((v) => v[1]!));
  expect(values.length, `${selector} ${property}`).toBeGreaterThan(0);
  return values.at(-1)!;
}

describe('theme colours', () => {
  it('LAY-02 LAY-01 outline-secondary buttons (the entry warning\u2019s Leave) have readable text on white', () => {
    expect(contrast(lastValue('.btn-outline-secondary', '--bs-btn-color'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('LAY-01 primary buttons have readable text on their fill', () => {
    expect(contrast(lastValue('.btn-primary', '--bs-btn-color'), lastValue('.btn-primary', '--bs-btn-bg'))).toBeGreaterThanOrEqual(4.5);
  });
});
