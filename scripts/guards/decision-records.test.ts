import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISIONS_DIR, recordProblems, referenceProblems } from './decision-records';
import { readTexts, repoFiles, ROOT } from './repo-files';

const TEXT = /\.(?:ts|tsx|astro|mjs|js|md|json|ya?ml|sh|py|scss|css|html)$/;

const records = readdirSync(join(ROOT, DECISIONS_DIR))
  .filter((n) => n.endsWith('.md'))
  .map((path) => ({ path, text: readFileSync(join(ROOT, DECISIONS_DIR, path), 'utf8') }));

const record = (path: string, head: string) => ({ path, text: `# ${path.slice(0, 3)}: A title\n\n${head}\n\n## Context\n` });

describe('decision records', () => {
  it('every record has a Date and a Status line, and a superseded one names the record that supersedes it', () => {
    expect(recordProblems(records)).toEqual([]);
  });

  it('every docs/decisions reference in the repository names an existing record', () => {
    const files = readTexts(repoFiles().filter((f) => TEXT.test(f) && f !== 'package-lock.json'));
    expect(files.length).toBeGreaterThan(100);
    expect(
      referenceProblems(
        files,
        records.map((r) => r.path),
      ),
    ).toEqual([]);
  });

  it('refuses a record without Date or Status, an addendum, and a supersession the successor does not state', () => {
    const problems = recordProblems([
      record('101-no-date.md', 'Status: accepted'),
      record('102-no-status.md', 'Date: 2026-11-27'),
      { path: '103-addendum.md', text: '# 103: T\n\nDate: 2026-11-27\nStatus: accepted\n\n## Addendum (2026-11-28): more\n' },
      record('104-old.md', 'Date: 2026-11-27\nStatus: superseded by 105'),
      record('105-new.md', 'Date: 2026-11-27\nStatus: accepted'),
      record('106-gone.md', 'Date: 2026-11-27\nStatus: superseded by 199'),
      record('107-fine.md', 'Date: 2026-11-27\nStatus: superseded by 108'),
      record('108-successor.md', 'Date: 2026-11-27\nStatus: accepted · Supersedes 107'),
    ]);
    expect(problems).toEqual([
      '101-no-date.md: no "Date: YYYY-MM-DD" line',
      '102-no-status.md: no "Status: proposed | accepted | superseded by NNN" line',
      '103-addendum.md:6: an addendum section (write a record that supersedes this one)',
      '104-old.md: superseded by 105, whose Status line does not say "Supersedes 104"',
      '106-gone.md: superseded by 199, which does not exist',
    ]);
  });

  it('refuses a reference to a record that does not exist, by number or by name', () => {
    const names = ['003-i18n.md', '013-request-context-and-dependencies.md'];
    const files = [
      { path: 'a.ts', text: `// see ${DECISIONS_DIR}003-i18n.md and ${DECISIONS_DIR}013\n` },
      { path: 'b.ts', text: `// see ${DECISIONS_DIR}004-i18n.md\n// and ${DECISIONS_DIR}013-dependency-style.md, ${DECISIONS_DIR}099` },
    ];
    expect(referenceProblems(files, names)).toEqual([
      `b.ts:1: ${DECISIONS_DIR}004-i18n.md does not exist`,
      `b.ts:2: ${DECISIONS_DIR}013-dependency-style.md does not exist`,
      `b.ts:2: ${DECISIONS_DIR}099 does not exist`,
    ]);
  });
});
