/**
 * The layering of ARCHITECTURE.md, checked on the source: no import circles (a circle makes module
 * order matter and hides which side owns what), and the rules in `src/server` import neither Astro nor
 * React (they are tested directly against a database and reused by jobs and scripts). The HTTP glue in
 * `src/server/http` and `src/server/web` (endpoint wrapper, cookie options) may import Astro's *types*.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SOURCES = ['src', 'server'].map((d) => join(ROOT, d));
const EXTENSIONS = ['.ts', '.tsx', '.astro', '.mjs', '.js'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return EXTENSIONS.some((ext) => name.endsWith(ext)) && !/\.(test|spec)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Module specifiers a file imports (static imports, re-exports, dynamic imports); type-only ones too. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of source.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

function resolveLocal(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`))];
  return candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  }) ?? null;
}

const all = SOURCES.flatMap(files);
const graph = new Map<string, { local: string[]; external: string[]; typeOnly: string[] }>();
for (const file of all) {
  const specs = specifiers(readFileSync(file, "utf8"));
  const source = readFileSync(file, 'utf8');
  graph.set(file, {
    local: specs.map((s) => resolveLocal(file, s)).filter((f): f is string => f !== null),
    external: specs.filter((s) => !s.startsWith('.')),
    typeOnly: [...source.matchAll(/(?:^|[\s;])import\s+type\s[^'"`;]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!),
  });
}

describe('architecture', () => {
  it('no module imports itself through a circle of imports', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file)?.local ?? []) {
        if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(ROOT, f)).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it('the rules in src/server import neither Astro nor React (the HTTP glue only Astro types)', () => {
    const framework = (s: string) => s === 'astro' || s.startsWith('astro:') || s.startsWith('astro/') || s === 'react' || s.startsWith('react-dom') || s.startsWith('@astrojs/');
    const offenders = [...graph.entries()]
      .filter(([file]) => relative(ROOT, file).startsWith('src/server/'))
      .flatMap(([file, { external, typeOnly }]) => {
        const glue = /^src\/server\/(http|web)\//.test(relative(ROOT, file));
        return external.filter((s) => framework(s) && !(glue && typeOnly.includes(s))).map((s) => `${relative(ROOT, file)} imports ${s}`);
      });
    expect(offenders).toEqual([]);
  });
});
