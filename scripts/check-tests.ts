/**
 * Refuses focused or skipped tests, test files without an assertion (STYLE: "if a mistake happens a
 * few times, add a tool that prevents it"), and module mocks in vitest files: the unit and integration
 * files share their workers' module cache (vitest.config.ts, `isolate: false`, decision 055), so a
 * `vi.mock` would not reach a module an earlier file imported. Pass the collaborator in instead.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(test|spec)\.(ts|tsx|mjs|js)$/.test(f) && !f.startsWith('node_modules/'));

const problems: string[] = [];
for (const file of files) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue;
  }
  text.split('\n').forEach((line, i) => {
    if (/\b(it|test|describe)\.(only|skip|todo)\s*\(|\b(xit|xdescribe|fit|fdescribe)\s*\(/.test(line)) problems.push(`${file}:${i + 1}: focused or skipped test`);
    if (/\.skipIf\s*\(|\.runIf\s*\(/.test(line)) problems.push(`${file}:${i + 1}: conditional skip`);
    if (/\.test\./.test(file) && /\bvi\.(mock|doMock|unmock|resetModules)\s*\(/.test(line)) problems.push(`${file}:${i + 1}: module mock (the files share a module cache: pass the collaborator in)`);
  });
  if (!/\bexpect\s*[.(]/.test(text)) problems.push(`${file}: no assertion in the file`);
}
if (problems.length > 0) {
  console.error(`check-tests found ${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`check-tests: ${files.length} test files, no focused or skipped tests, no module mocks`);
