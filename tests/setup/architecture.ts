/**
 * The layer rules of docs/architecture.md as functions over an import graph, so the architecture test
 * (src/architecture.test.ts) applies them to the source and shows on small made-up graphs that each one
 * catches what it forbids. A graph maps a file (relative to the project, `/` separators) to what it
 * imports: local files resolved to their paths, packages by their specifiers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface Imports {
  /** Local files this file imports (type-only imports included). */
  local: string[];
  /** Package specifiers (`astro`, `drizzle-orm`, `node:fs`…). */
  external: string[];
  /** Specifiers imported with `import type` only. */
  typeOnly: string[];
}

export type Graph = Map<string, Imports>;

const EXTENSIONS = ['.ts', '.tsx', '.astro', '.mjs', '.js'];

/** The source files under `dir` (test files left out). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return EXTENSIONS.some((ext) => name.endsWith(ext)) && !/\.(test|spec)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Module specifiers a file imports (static imports, re-exports, dynamic imports); type-only ones too. */
export function specifiers(source: string): string[] {
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
  return (
    candidates.find((c) => {
      try {
        return statSync(c).isFile();
      } catch {
        return false;
      }
    }) ?? null
  );
}

/** The import graph of the project's source (`src/`, `server/`), test files left out. */
export function projectGraph(root: string): Graph {
  const graph: Graph = new Map();
  const rel = (file: string) => relative(root, file).split(sep).join('/');
  for (const file of ['src', 'server'].flatMap((d) => sourceFiles(join(root, d)))) {
    const source = readFileSync(file, 'utf8');
    const specs = specifiers(source);
    graph.set(rel(file), {
      local: specs
        .map((s) => resolveLocal(file, s))
        .filter((f): f is string => f !== null)
        .map(rel),
      external: specs.filter((s) => !s.startsWith('.')),
      typeOnly: [...source.matchAll(/(?:^|[\s;])import\s+type\s[^'"`;]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!),
    });
  }
  return graph;
}

/** Import circles between files: each as `a → b → … → a`. */
export function moduleCycles(graph: Graph): string[] {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file)?.local ?? []) {
      if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return circles;
}

/**
 * The folder of `file` under `base` as a unit of the folder graph: `src/server/chat/send.ts` is `chat`,
 * a file at the root of `base` (`src/server/config.ts`) is a unit of its own (`config`).
 */
export function unitOf(file: string, base: string): string | null {
  if (!file.startsWith(`${base}/`)) return null;
  const rest = file.slice(base.length + 1);
  const slash = rest.indexOf('/');
  return slash >= 0 ? rest.slice(0, slash) : rest.replace(/\.[^.]+$/, '');
}

/**
 * Groups of folders under `base` that reach each other through imports (strongly connected components of
 * more than one folder), each with the imports that tie it, as `a → b (file → file)`. Empty: the folders
 * form layers.
 */
export function folderCycles(graph: Graph, base: string): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, { local }] of graph) {
    const from = unitOf(file, base);
    if (!from) continue;
    for (const target of local) {
      const to = unitOf(target, base);
      if (!to || to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file} → ${target}`);
      edges.set(from, out);
    }
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);
  return groups.map((group) => {
    const ties = group.flatMap((a) => group.filter((b) => edges.get(a)?.has(b)).map((b) => `${a} → ${b} (${edges.get(a)!.get(b)})`));
    return `${group.join(', ')}: ${ties.join('; ')}`;
  });
}

/** A rule "files matching `from` never import files matching `to`". */
export interface LayerRule {
  name: string;
  from: RegExp;
  to: RegExp;
  /** Files `from` matches that the rule leaves alone. */
  except?: RegExp;
}

/** Imports that break `rule`, as `file → target`. */
export function forbiddenImports(graph: Graph, rule: LayerRule): string[] {
  return [...graph.entries()]
    .filter(([file]) => rule.from.test(file) && !rule.except?.test(file))
    .flatMap(([file, { local }]) => local.filter((target) => rule.to.test(target)).map((target) => `${file} → ${target}`));
}

/**
 * The layers (docs/architecture.md), lowest first: `src/shared` (browser and server), `src/db`, the rules
 * in `src/server` (the web adapter `src/server/web` on top of them), `src/demo`, the runtime
 * `src/runtime`, and the Astro side (`src/pages`, `src/layouts`, `src/components`, `src/middleware.ts`).
 */
export const LAYER_RULES: readonly LayerRule[] = [
  {
    name: 'the rules in src/server never import the web adapter, the runtime, the demo data or the Astro side',
    from: /^src\/server\//,
    except: /^src\/server\/web\//,
    to: /^src\/(server\/web|runtime|demo|pages|layouts|components|islands|stores|client)\/|^src\/middleware\.ts$/,
  },
  {
    name: 'the rules never take the whole app context: they name the services they need',
    from: /^src\/server\//,
    except: /^src\/server\/(web\/|app\.ts$)/,
    to: /^src\/server\/app\.ts$/,
  },
  {
    name: 'the web adapter never imports the runtime, the demo data or the Astro side',
    from: /^src\/server\/web\//,
    to: /^src\/(runtime|demo|pages|layouts|components|islands|stores|client)\/|^src\/middleware\.ts$/,
  },
  { name: 'routes never import src/db (a query belongs to a service in src/server)', from: /^src\/(pages|layouts|components)\//, to: /^src\/db\// },
  { name: 'src/db imports nothing above it', from: /^src\/db\//, to: /^src\/(?!db\/|shared\/)/ },
  { name: 'src/shared imports only src/shared (the browser bundles it)', from: /^src\/shared\//, to: /^src\/(?!shared\/)/ },
  { name: 'the demo data never imports the runtime or the Astro side', from: /^src\/demo\//, to: /^src\/(runtime|pages|layouts|components|islands|stores|client)\/|^src\/middleware\.ts$/ },
];
