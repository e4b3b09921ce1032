/**
 * The browser's layers of ARCHITECTURE.md ("islands → stores → client"), checked on the source:
 * - an island (src/islands) renders and calls store actions: it never imports `src/client/` and never
 *   calls `fetch` (the stores own every request);
 * - `src/client/` is transport and browser glue: it never imports `src/stores/` (boot code and feature
 *   controllers that tie stores to the page live in `src/boot/`, docs/decisions/069-islands-on-stores.md).
 * Each rule is a function of a file list, run on the real files and on a small made-up list that breaks
 * it, so a rule that stopped seeing violations would fail here too.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, specifiers } from '../tests/setup/architecture';

const ROOT = resolve(import.meta.dirname, '..');

/** A source file: its path from the project root (with `/`) and its text. */
interface SourceFile {
  path: string;
  source: string;
}

/** The project path a relative specifier of `from` names (without extension), or null for a package. */
function target(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return join(dirname(from), specifier).split('\\').join('/');
}

/** Files of `files` under `folder` that import something under `forbidden`. */
function importsInto(files: readonly SourceFile[], folder: string, forbidden: string): string[] {
  return files
    .filter((f) => f.path.startsWith(`${folder}/`))
    .flatMap((f) =>
      specifiers(f.source)
        .filter((s) => target(f.path, s)?.startsWith(`${forbidden}/`))
        .map((s) => `${f.path} imports ${s}`),
    );
}

/** `fetch(` as a call of its own (not `fetchGifs(`, `api.fetch(` or `prefetch(`). */
const FETCH_CALL = /(?<![\w$.])fetch\s*\(/;

/** Rule: islands never import `src/client/` and never call `fetch`. */
function islandViolations(files: readonly SourceFile[]): string[] {
  const fetching = files.filter((f) => f.path.startsWith('src/islands/') && FETCH_CALL.test(f.source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''))).map((f) => `${f.path} calls fetch`);
  return [...importsInto(files, 'src/islands', 'src/client'), ...fetching];
}

/** Rule: `src/client/` never imports `src/stores/`. */
function clientViolations(files: readonly SourceFile[]): string[] {
  return importsInto(files, 'src/client', 'src/stores');
}

const project: SourceFile[] = sourceFiles(join(ROOT, 'src')).map((file) => ({ path: relative(ROOT, file).split('\\').join('/'), source: readFileSync(file, 'utf8') }));

describe('islands → stores → client', () => {
  it('islands never import src/client/ or call fetch', () => {
    expect(islandViolations(project)).toEqual([]);
  });

  it('src/client/ never imports src/stores/', () => {
    expect(clientViolations(project)).toEqual([]);
  });

  it('the island rule catches an island that imports the client or calls fetch', () => {
    const files: SourceFile[] = [
      { path: 'src/islands/chat/Bad.tsx', source: "import { api } from '../../client/api';\nexport const x = api;" },
      { path: 'src/islands/chat/Lazy.tsx', source: "export const load = () => import('../../client/live');" },
      { path: 'src/islands/signup/Raw.tsx', source: "export async function go() { await fetch('/api/signup.php'); }" },
      { path: 'src/islands/chat/Good.tsx', source: "import { $chatRoom } from '../../stores/chat-room';\n// fetch('/x') in a comment\nexport const n = fetchGifs(1);" },
      { path: 'src/stores/chat-room.ts', source: "import { api } from '../client/api';\nexport const r = fetch('/x');" },
    ];
    expect(islandViolations(files)).toEqual(['src/islands/chat/Bad.tsx imports ../../client/api', 'src/islands/chat/Lazy.tsx imports ../../client/live', 'src/islands/signup/Raw.tsx calls fetch']);
  });

  it('the client rule catches client code that imports a store', () => {
    const files: SourceFile[] = [
      { path: 'src/client/boot.ts', source: "import { $user } from '../stores/user';" },
      { path: 'src/client/directives/x.ts', source: "export { $credits } from '../../stores/credits';" },
      { path: 'src/client/api.ts', source: "import type { paths } from '../shared/api-types';" },
      { path: 'src/boot/boot.ts', source: "import { $user } from '../stores/user';" },
    ];
    expect(clientViolations(files)).toEqual(['src/client/boot.ts imports ../stores/user', 'src/client/directives/x.ts imports ../../stores/credits']);
  });
});
