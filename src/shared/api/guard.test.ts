/**
 * Keeps the one contract one (docs/decisions/070-one-api-contract.md): routes under src/pages take their
 * request schemas from src/shared/api and define none of their own, every `json(…)` answer of a route
 * is checked with `satisfies` against the OpenAPI types, and browser code takes only types
 * from the schema modules (a value import would put zod in the browser's bundles); the zod-free
 * `limits.ts` and `contract.ts` are the exceptions.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/** Source files under `dir` (relative to the project) with their text; test files left out. */
function sources(dir: string, extensions: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (extensions.some((e) => name.endsWith(e)) && !/\.test\.tsx?$/.test(name)) found.set(relative(ROOT, child), readFileSync(child, 'utf8'));
    }
  };
  walk(join(ROOT, dir));
  return found;
}

/** `file:line` of every zod import or `z.object(` call in the given route files. */
function inlineSchemas(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    text.split('\n').forEach((line, i) => {
      if (/\bz\.object\(/.test(line) || /^\s*import\s[^;]*from\s*['"]zod['"]/.test(line)) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

/** The text of each `json(…)` call's arguments in `text` (parentheses balanced). */
function jsonCalls(text: string): string[] {
  const calls: string[] = [];
  for (const m of text.matchAll(/\bjson\(/g)) {
    const start = m.index + m[0].length;
    let depth = 1;
    let i = start;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
    }
    calls.push(text.slice(start, i - 1));
  }
  return calls;
}

/** `file: call` of every JSON answer in the given route files whose value is not checked with `satisfies`. */
function uncheckedAnswers(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    for (const args of jsonCalls(text)) if (!/\bsatisfies\b/.test(args)) found.push(`${file}: json(${args.replace(/\s+/g, ' ').slice(0, 60)})`);
  }
  return found;
}

/** `file: specifier` of every value import of a schema module of src/shared/api in the given browser files. */
function schemaValueImports(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    for (const m of text.matchAll(/(?:^|\n)\s*import\s+(?!type\s)[^;]*?from\s*['"]([^'"]*shared\/api\/([\w-]+))['"]/g)) {
      if (m[2] !== 'limits' && m[2] !== 'contract') found.push(`${file}: ${m[1]}`);
    }
  }
  return found;
}

describe('one API contract', () => {
  it('no route under src/pages defines a zod schema of its own', () => {
    const routes = sources('src/pages', ['.ts', '.astro']);
    expect(routes.size).toBeGreaterThan(30);
    expect(inlineSchemas(routes)).toEqual([]);
  });

  it('the check finds a schema written in a route', () => {
    const routes = new Map([
      ['src/pages/api/clean.php.ts', "import { typingBody } from '../../shared/api/typing';\nexport const POST = endpoint(async ({ request }) => readJson(request, typingBody));\n"],
      ['src/pages/api/inline.php.ts', "import { z } from 'zod';\n\nconst body = z.object({ conversation: z.number() });\n"],
    ]);
    expect(inlineSchemas(routes)).toEqual(['src/pages/api/inline.php.ts:1', 'src/pages/api/inline.php.ts:3']);
  });

  it('every JSON answer of a route is checked against the contract with satisfies', () => {
    const routes = sources('src/pages', ['.ts']);
    expect([...routes.values()].flatMap(jsonCalls).length).toBeGreaterThan(30);
    expect(uncheckedAnswers(routes)).toEqual([]);
  });

  it('the check finds an answer the contract does not check', () => {
    const routes = new Map([
      ['src/pages/api/checked.php.ts', "return json({ ok: true, id: f(x) } satisfies Answer<'blockMember', 200>, { status: 201 });\n"],
      ['src/pages/api/unchecked.php.ts', 'return json({ ok: true, id: f(x) }, { status: 201 });\n'],
    ]);
    expect(uncheckedAnswers(routes)).toEqual(['src/pages/api/unchecked.php.ts: json({ ok: true, id: f(x) }, { status: 201 })']);
  });

  it('browser code imports only types from the request schema modules', () => {
    const browser = new Map([...['src/client', 'src/islands', 'src/stores', 'src/components'].flatMap((dir) => [...sources(dir, ['.ts', '.tsx'])])]);
    expect(browser.size).toBeGreaterThan(30);
    expect(schemaValueImports(browser)).toEqual([]);
  });

  it('the check finds a schema module imported as a value by browser code', () => {
    const browser = new Map([
      ['src/islands/ok.tsx', "import type { SignupErrorAnswer } from '../../shared/api/signup';\nimport { GIF_QUERY_MAX } from '../../shared/api/limits';\n"],
      ['src/islands/bad.tsx', "import { signupBody } from '../../shared/api/signup';\n"],
    ]);
    expect(schemaValueImports(browser)).toEqual(['src/islands/bad.tsx: ../../shared/api/signup']);
  });
});
