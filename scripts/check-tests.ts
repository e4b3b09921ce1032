/**
 * Refuses focused or skipped tests and test files without an assertion (STYLE: "if a mistake happens a
 * few times, add a tool that prevents it").
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
  });
  if (!/\bexpect\s*[.(]/.test(text)) problems.push(`${file}: no assertion in the file`);
}
if (problems.length > 0) {
  console.error(`check-tests found ${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`check-tests: ${files.length} test files, no focused or skipped tests`);
