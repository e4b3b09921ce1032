/**
 * axe-core in the end-to-end suite (LOOK-01): runs axe on the page as it is and returns its serious and
 * critical violations of WCAG 2.0 A/AA and 2.1 AA, one line per violation with the rule, the page and
 * the nodes (their selectors and what axe says is wrong), so a failing test names what to fix.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The WCAG levels checked: 2.0 A and AA, 2.1 AA (axe's tags). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];
/** The impacts that fail a page; minor and moderate findings are not counted. */
const FAILING = new Set(['serious', 'critical']);

type Results = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** One line per failing node: `selector: summary`. */
function describeNodes(violation: Results['violations'][number]): string[] {
  return violation.nodes.slice(0, 8).map((node) => {
    const target = node.target.map(String).join(' ');
    const why = (node.failureSummary ?? '').replace(/\s+/g, ' ').replace(/^Fix (any|all) of the following: /, '');
    return `${target}: ${why.slice(0, 220)}`;
  });
}

/**
 * The serious and critical violations of the page now, each as
 * `label — rule (impact, n nodes): help\n    node…`. An empty list is a pass.
 */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((v) => FAILING.has(v.impact ?? ''))
    .map((v) => `${label} — ${v.id} (${v.impact}, ${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'}): ${v.help}\n    ${describeNodes(v).join('\n    ')}`);
}
