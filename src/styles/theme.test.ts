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

  it('LOOK-01 LAY-01 outline-secondary buttons have readable text on the dark page too', () => {
    const dark = css.slice(css.search(/@media \(prefers-color-scheme: dark\)\s*\{\s*\.btn-outline-secondary/));
    const color = /\.btn-outline-secondary\s*\{[^}]*--bs-btn-color:\s*(#[0-9a-fA-F]{3,6})/.exec(dark)?.[1];
    expect(color, 'a dark-mode text colour for .btn-outline-secondary').toBeDefined();
    expect(contrast(color!, '#161216')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(color!, '#221a20')).toBeGreaterThanOrEqual(4.5);
  });

  it('LAY-01 primary buttons have readable text on their fill', () => {
    expect(contrast(lastValue('.btn-primary', '--bs-btn-color'), lastValue('.btn-primary', '--bs-btn-bg'))).toBeGreaterThanOrEqual(4.5);
  });
});

// The tokens (issue 25): each text role on the surface it is used on, in light and in dark.
const tokensCss = compile(fileURLToPath(new URL('./_tokens.scss', import.meta.url))).css;

/** The `--app-*` colours of a scheme: the light values on :root, the dark ones in the prefers-color-scheme: dark block. */
function tokens(scheme: 'light' | 'dark'): Record<string, string> {
  const darkAt = tokensCss.search(/@media \(prefers-color-scheme: dark\)/);
  expect(darkAt, 'a dark block').toBeGreaterThan(0);
  const light = tokensCss.slice(0, darkAt);
  const dark = tokensCss.slice(darkAt, tokensCss.indexOf('}', darkAt) + 1);
  const read = (text: string) => Object.fromEntries([...text.matchAll(/--app-([a-z-]+):\s*(#[0-9a-fA-F]{3,6})\b/g)].map((m) => [m[1]!, m[2]!]));
  return scheme === 'light' ? read(light) : { ...read(light), ...read(dark) };
}

const PAIRS = [
  ['on-surface', 'surface'],
  ['on-surface', 'surface-raised'],
  ['muted', 'surface'],
  ['muted', 'surface-raised'],
  ['brand-text', 'surface'],
  ['brand-text', 'surface-raised'],
  ['on-brand', 'brand'],
  ['on-bubble-own', 'bubble-own'],
  ['on-bubble-other', 'bubble-other'],
] as const;

describe('design tokens', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`LOOK-01 every text token is readable (≥ 4.5:1) on its surface in ${scheme} mode`, () => {
      const colours = tokens(scheme);
      for (const [text, surface] of PAIRS) {
        expect(colours[text], `--app-${text} (${scheme})`).toMatch(/^#/);
        expect(colours[surface], `--app-${surface} (${scheme})`).toMatch(/^#/);
        expect(contrast(colours[text]!, colours[surface]!), `--app-${text} on --app-${surface} (${scheme})`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('LOOK-01 dark mode really changes the surfaces and the text (not the light values again)', () => {
    const light = tokens('light');
    const dark = tokens('dark');
    for (const role of ['surface', 'surface-raised', 'on-surface', 'muted', 'brand-text']) expect(dark[role], role).not.toBe(light[role]);
  });
});
