/**
 * Decision records stay findable and honest: each `docs/decisions/NNN-title.md` has a `Date:` and a
 * `Status:` line, a superseded record names a record that says it supersedes it, later additions are
 * records of their own (no "Addendum" sections), and every `docs/decisions/NNN…` reference anywhere in
 * the repository names a record that exists.
 */
import type { SourceFile } from './repo-files';

export const DECISIONS_DIR = 'docs/decisions/';

const RECORD_NAME = /^(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;

/** Problems in the records themselves; `records` are the files of docs/decisions (name and text). */
export function recordProblems(records: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  const byNumber = new Map<string, SourceFile>();
  for (const record of records) {
    if (record.path === '000-template.md') continue;
    const name = RECORD_NAME.exec(record.path);
    if (!name) {
      problems.push(`${record.path}: not named NNN-title.md`);
      continue;
    }
    const number = name[1]!;
    if (byNumber.has(number)) problems.push(`${record.path}: number ${number} is also ${byNumber.get(number)!.path}`);
    byNumber.set(number, record);
  }
  for (const [number, record] of byNumber) {
    const lines = record.text.split('\n');
    if (!lines[0]?.startsWith(`# ${number}: `)) problems.push(`${record.path}: the title line is not "# ${number}: …"`);
    if (!lines.some((l) => /^Date: \d{4}-\d{2}-\d{2}$/.test(l))) problems.push(`${record.path}: no "Date: YYYY-MM-DD" line`);
    const status = lines.find((l) => l.startsWith('Status: '));
    if (!status || !/^Status: (?:proposed|accepted|superseded by \d{3})\b/.test(status)) {
      problems.push(`${record.path}: no "Status: proposed | accepted | superseded by NNN" line`);
    } else {
      const by = /^Status: superseded by (\d{3})/.exec(status)?.[1];
      if (by !== undefined) {
        const successor = byNumber.get(by);
        if (!successor) problems.push(`${record.path}: superseded by ${by}, which does not exist`);
        else if (!new RegExp(`^Status: .*\\bSupersedes ${number}\\b`, 'm').test(successor.text)) {
          problems.push(`${record.path}: superseded by ${by}, whose Status line does not say "Supersedes ${number}"`);
        }
      }
    }
    lines.forEach((line, i) => {
      if (/^#+\s*Addendum\b/i.test(line)) problems.push(`${record.path}:${i + 1}: an addendum section (write a record that supersedes this one)`);
    });
  }
  return problems;
}

/** References to `docs/decisions/NNN` or `docs/decisions/NNN-title.md` that name no existing record. */
export function referenceProblems(files: readonly SourceFile[], recordNames: readonly string[]): string[] {
  const problems: string[] = [];
  const names = new Set(recordNames);
  const pattern = new RegExp(`${DECISIONS_DIR.replaceAll('/', '\\/')}(\\d{3})((?:-[A-Za-z0-9]+)*)(\\.md)?`, 'g');
  for (const file of files) {
    file.text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(pattern)) {
        const [reference, number, slug] = m as unknown as [string, string, string];
        const found = slug === '' ? recordNames.some((n) => n.startsWith(`${number}-`)) : names.has(`${number}${slug}.md`);
        if (!found) problems.push(`${file.path}:${i + 1}: ${reference} does not exist`);
      }
    });
  }
  return problems;
}
