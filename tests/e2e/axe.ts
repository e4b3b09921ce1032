/**
 * axe-core in the end-to-end suite (LOOK-01): runs axe on the page as it is and returns its serious and
 * critical violations of WCAG 2.0 A/AA and 2.1 AA, one line per violation with the rule, the page and
 * the nodes (their selectors and what axe says is wrong), so a failing test names what to fix.
 *
 * axe-core is an init script of the checking context ({@link withAxe}), compiled with each page, and
 * `axe.run` is called in the page. @axe-core/playwright's AxeBuilder sent the 560 kB source through the
 * protocol into every frame at each check and finished each run in a new blank tab: 1.6–2.1 s a page
 * where the checks themselves take 0.2–0.4 s (docs/decisions/096-headless-shell-and-axe-in-the-page.md).
 * The rules, tags and results are axe's own either way.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from '@playwright/test';
import type { AxeResults, Result } from 'axe-core';

/** The WCAG levels checked: 2.0 A and AA, 2.1 AA (axe's tags). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];
/** The impacts that fail a page; minor and moderate findings are not counted. */
const FAILING = new Set(['serious', 'critical']);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Makes axe-core part of every page (and frame) `context` opens from now on. */
export async function withAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript(axeSource);
}

/** One line per failing node: `selector: summary`. */
function describeNodes(violation: Result): string[] {
  return violation.nodes.slice(0, 8).map((node) => {
    const target = node.target.map(String).join(' ');
    const why = (node.failureSummary ?? '').replace(/\s+/g, ' ').replace(/^Fix (any|all) of the following: /, '');
    return `${target}: ${why.slice(0, 220)}`;
  });
}

/**
 * The serious and critical violations of the page now, each as
 * `label — rule (impact, n nodes): help\n    node…`. An empty list is a pass. The page's context must
 * have been given axe with {@link withAxe}.
 */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe?: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    if (!axe) throw new Error('axe-core is not in this page: open it in a context given withAxe()');
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })).violations;
  }, WCAG_TAGS);
  return violations
    .filter((v) => FAILING.has(v.impact ?? ''))
    .map((v) => `${label} — ${v.id} (${v.impact}, ${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'}): ${v.help}\n    ${describeNodes(v).join('\n    ')}`);
}
