/**
 * Thin pages (docs/architecture.md: a page reads the request, calls one function, renders): the length
 * of each page's frontmatter, so the architecture test can keep it short. A page that needs more than a
 * few lines of shaping hands it to its view model in src/server/web/pages/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Lines between the opening and the closing `---` fence (comments included); 0 without frontmatter. */
function frontmatterLines(source: string): number {
  const lines = source.split('\n');
  if (lines[0]?.trimEnd() !== '---') return 0;
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  return close === -1 ? lines.length - 1 : close - 1;
}

/** `path (n lines)` for every page in `pages` (path → source) whose frontmatter is longer than `max`. */
export function longFrontmatter(pages: ReadonlyMap<string, string>, max: number): string[] {
  return [...pages].flatMap(([path, source]) => {
    const n = frontmatterLines(source);
    return n > max ? [`${path} (${n} lines)`] : [];
  });
}

/** The `.astro` pages under `dir`, by path relative to `root`. */
export function astroPages(root: string, dir: string): Map<string, string> {
  const pages = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.astro')) pages.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(join(root, dir));
  return pages;
}
