/** The repository's own files (tracked or new, not ignored), for the guards that read the source. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export function repoFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !f.startsWith('node_modules/'));
}

export interface SourceFile {
  path: string;
  text: string;
}

/** The text files among `paths` (a deleted but still listed file is left out). */
export function readTexts(paths: readonly string[]): SourceFile[] {
  const out: SourceFile[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(join(ROOT, path), 'utf8');
    } catch {
      continue;
    }
    if (!text.includes('\u0000')) out.push({ path, text });
  }
  return out;
}
