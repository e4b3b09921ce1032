// Prints one closing line for a test log holding vitest's and Playwright's summaries:
// "N passed, N failed" (", N skipped" when any), adding both runners' counts.
import { readFileSync } from 'node:fs';

// eslint-disable-next-line no-control-regex -- the terminal's colour codes start with ESC
const text = readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
let passed = 0;
let failed = 0;
let skipped = 0;
let found = false;
// vitest: "      Tests  143 passed | 3 failed (146)"
for (const m of text.matchAll(/^\s*Tests\s+(.+)\(\d+\)\s*$/gm)) {
  found = true;
  passed += Number(/(\d+) passed/.exec(m[1])?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(m[1])?.[1] ?? 0);
  skipped += Number(/(\d+) skipped/.exec(m[1])?.[1] ?? 0);
}
// Playwright list reporter: "  6 passed (12.3s)", "  1 failed", "  2 skipped"
const pw = text
  .split(/Running \d+ tests? using/)
  .slice(1)
  .join('\n');
if (pw) {
  found = true;
  passed += Number(/^\s*(\d+) passed/m.exec(pw)?.[1] ?? 0);
  failed += Number(/^\s*(\d+) failed/m.exec(pw)?.[1] ?? 0);
  skipped += Number(/^\s*(\d+) skipped/m.exec(pw)?.[1] ?? 0);
}
if (!found) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
