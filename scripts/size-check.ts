/**
 * Size budgets (budgets.json): how many compressed bytes of JavaScript and CSS each page type makes a
 * browser load. Starts the built app (in-memory database), fetches the representative URLs of every page
 * type as a Dutch visitor who accepted the entry warning (members: logged in as the demo member, or as a
 * member who signed up just before: `"member": "new"`), and
 * collects per page:
 * - JavaScript: every `<script src>`, `<link rel=modulepreload>`, the static imports inside those files
 *   (followed through /_astro/*.js), inline `<script>`s, and the component, renderer and their imports of
 *   every island. Split in two (PERF-02): "eager" is what loads before the visitor does anything (the
 *   scripts, inline scripts — Astro's island runtime and directives are in the HTML — and islands hydrated
 *   on load or idle); "lazy" is the code of islands that wait for an interaction (`client:interaction`),
 *   for being scrolled to (`client:visible`) or for a media query (`client:media`), minus what the eager
 *   part already loads. The `eagerJs` budget limits the first, the `js` budget both together;
 * - CSS: every `<link rel=stylesheet>`, the `@import`s inside them, inline `<style>`s.
 * Each file is compressed on its own, as a browser fetches it: gzip -9 and brotli 11 (what the server
 * sends once its cache is warm). Budgets are in gzip bytes, the encoding every client accepts.
 *
 * Prints one row per URL and exits 1 when a page is over budget, or when a URL of a page type marked
 * `required` is missing (HTTP status other than 200). Missing URLs of other page types are reported only.
 *
 *   npm run build && npm run size            (--verbose: every file; --json: the figures as JSON)
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DEMO_ACCOUNTS } from '../src/demo/seed';
import { loginCookie, rawRequest, readBudgets, signupCookie, startMeasureServer, VISITOR_COOKIES, type MeasureServer } from './_measure-server';

interface Asset {
  url: string;
  raw: number;
  gzip: number;
  brotli: number;
}

interface PageMeasure {
  html: Asset;
  js: Asset[];
  lazyJs: Asset[];
  css: Asset[];
}

const EAGER_ISLANDS = new Set(['load', 'idle', 'only']);
const EXECUTABLE_SCRIPT = /^(|module|text\/javascript|application\/javascript)$/i;

/** Compressed sizes by content: pages share most of their files, and brotli 11 is slow. */
const measured = new Map<string, { gzip: number; brotli: number }>();

function sizes(url: string, bytes: Buffer): Asset {
  const key = createHash('sha1').update(bytes).digest('hex');
  let compressed = measured.get(key);
  if (!compressed) {
    compressed = {
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length,
    };
    measured.set(key, compressed);
  }
  return { url, raw: bytes.length, ...compressed };
}

function attributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attrs[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|quot|#39|lt|gt);/g, (_, e: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[e]!);
}

/** Static imports and re-exports of an ES module (`import x from "./a.js"`, `import "./b.js"`, `export * from`). */
function staticImports(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g)) found.push(m[1]!);
  return found;
}

/** `@import url(…)` / `@import "…"` of a stylesheet. */
function cssImports(css: string): string[] {
  return [...css.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)/g)].map((m) => m[1]!);
}

async function measurePage(server: MeasureServer, path: string, cookie: string): Promise<PageMeasure | { missing: number }> {
  const page = await rawRequest(server.port, path, { headers: { cookie } });
  if (page.status !== 200) return { missing: page.status };
  const html = page.body.toString('utf8');
  const base = `http://localhost:${server.port}${path}`;
  const fetched = new Map<string, Buffer | null>();
  const fetchAsset = async (url: string): Promise<Buffer | null> => {
    if (!fetched.has(url)) {
      const u = new URL(url);
      const res = u.port === String(server.port) ? await rawRequest(server.port, u.pathname + u.search, { headers: { cookie } }) : null;
      fetched.set(url, res && res.status === 200 ? res.body : null);
    }
    return fetched.get(url)!;
  };
  const resolve = (ref: string, from: string) => new URL(ref, from).toString();

  const js = new Map<string, Asset>();
  const lazyJs = new Map<string, Asset>();
  const css = new Map<string, Asset>();
  const addModule = async (url: string, into: Map<string, Asset>) => {
    if (js.has(url) || into.has(url)) return;
    const body = await fetchAsset(url);
    if (!body) throw new Error(`${path}: script ${url} is not served`);
    into.set(url, sizes(url, body));
    for (const ref of staticImports(body.toString('utf8'))) {
      if (ref.startsWith('.') || ref.startsWith('/')) await addModule(resolve(ref, url), into);
    }
  };
  const addStylesheet = async (url: string) => {
    if (css.has(url)) return;
    const body = await fetchAsset(url);
    if (!body) throw new Error(`${path}: stylesheet ${url} is not served`);
    css.set(url, sizes(url, body));
    for (const ref of cssImports(body.toString('utf8'))) await addStylesheet(resolve(ref, url));
  };

  const islands = [...html.matchAll(/<astro-island\b([^>]*)>/g)].map((m) => attributes(m[1]!));
  let inline = 0;
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = attributes(m[1]!);
    if (!EXECUTABLE_SCRIPT.test(attrs.type ?? '')) continue;
    if (attrs.src) {
      await addModule(resolve(attrs.src, base), js);
    } else if (m[2]!.trim()) {
      // In the HTML, so loaded and run with the page: the island runtime and the directives too.
      js.set(`inline script #${++inline}`, sizes(`inline script #${inline}`, Buffer.from(m[2]!)));
    }
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = attributes(m[1]!);
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    if (!attrs.href) continue;
    if (rel.includes('stylesheet') || (rel.includes('preload') && attrs.as === 'style')) await addStylesheet(resolve(attrs.href, base));
    else if (rel.includes('modulepreload') || (rel.includes('preload') && attrs.as === 'script')) await addModule(resolve(attrs.href, base), js);
  }
  for (const island of islands) {
    const into = EAGER_ISLANDS.has(island.client ?? '') ? js : lazyJs;
    for (const key of ['component-url', 'renderer-url', 'before-hydration-url']) {
      if (island[key]) await addModule(resolve(island[key]!, base), into);
    }
  }
  let inlineStyle = 0;
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) {
    if (m[1]!.trim()) css.set(`inline style #${++inlineStyle}`, sizes(`inline style #${inlineStyle}`, Buffer.from(m[1]!)));
  }
  for (const url of js.keys()) lazyJs.delete(url);
  return { html: sizes(path, page.body), js: [...js.values()], lazyJs: [...lazyJs.values()], css: [...css.values()] };
}

const sum = (assets: Asset[], key: 'gzip' | 'brotli' | 'raw') => assets.reduce((n, a) => n + a[key], 0);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function main(): Promise<number> {
  const budgets = await readBudgets();
  const server = await startMeasureServer();
  const verbose = process.argv.includes('--verbose');
  const rows: string[][] = [];
  const figures: Array<Record<string, string | number>> = [];
  const failures: string[] = [];
  try {
    let memberCookie: string | undefined;
    for (const [type, budget] of Object.entries(budgets.pageTypes)) {
      let cookie = VISITOR_COOKIES;
      if (budget.member === 'new') {
        cookie = `${VISITOR_COOKIES}; ${await signupCookie(server.port)}`;
      } else if (budget.member) {
        memberCookie ??= await loginCookie(server.port, DEMO_ACCOUNTS.free.email, DEMO_ACCOUNTS.free.password);
        cookie = `${VISITOR_COOKIES}; ${memberCookie}`;
      }
      for (const url of budget.urls) {
        const budgetText = `${kb(budget.js)}${budget.eagerJs === undefined ? '' : ` (${kb(budget.eagerJs)})`} / ${kb(budget.css)}`;
        const result = await measurePage(server, url, cookie);
        if ('missing' in result) {
          const verdict = budget.required ? `MISSING (HTTP ${result.missing}), required` : `missing (HTTP ${result.missing})`;
          rows.push([type, url, '-', '-', '-', '-', '-', '-', '-', budgetText, verdict]);
          if (budget.required) failures.push(`${type} ${url}: missing (HTTP ${result.missing}) but required`);
          continue;
        }
        const eagerGzip = sum(result.js, 'gzip');
        const lazyGzip = sum(result.lazyJs, 'gzip');
        const jsGzip = eagerGzip + lazyGzip;
        const cssGzip = sum(result.css, 'gzip');
        figures.push({
          type,
          url,
          htmlGzip: result.html.gzip,
          jsGzip,
          jsBrotli: sum(result.js, 'brotli') + sum(result.lazyJs, 'brotli'),
          eagerJsGzip: eagerGzip,
          lazyJsGzip: lazyGzip,
          cssGzip,
          cssBrotli: sum(result.css, 'brotli'),
        });
        const over: string[] = [];
        if (jsGzip > budget.js) over.push(`JS ${jsGzip} B > ${budget.js} B`);
        if (budget.eagerJs !== undefined && eagerGzip > budget.eagerJs) over.push(`eager JS ${eagerGzip} B > ${budget.eagerJs} B`);
        if (cssGzip > budget.css) over.push(`CSS ${cssGzip} B > ${budget.css} B`);
        if (over.length > 0) failures.push(`${type} ${url}: ${over.join(', ')}`);
        rows.push([
          type,
          url,
          kb(result.html.gzip),
          kb(jsGzip),
          kb(sum(result.js, 'brotli') + sum(result.lazyJs, 'brotli')),
          kb(eagerGzip),
          kb(lazyGzip),
          kb(cssGzip),
          kb(sum(result.css, 'brotli')),
          budgetText,
          over.length > 0 ? `OVER: ${over.join(', ')}` : 'ok',
        ]);
        if (verbose) {
          for (const [kind, assets] of [
            ['js', result.js],
            ['lazy', result.lazyJs],
            ['css', result.css],
          ] as const) {
            for (const a of assets)
              console.log(
                `  ${url} ${kind.padEnd(4)} ${String(a.raw).padStart(8)} raw ${String(a.gzip).padStart(7)} gz ${String(a.brotli).padStart(7)} br  ${a.url.replace(server.origin, '').replace(`http://localhost:${server.port}`, '')}`,
              );
          }
        }
      }
    }
  } finally {
    await server.close();
  }

  if (process.argv.includes('--json')) console.log(JSON.stringify(figures, null, 1));
  const header = ['page type', 'URL', 'HTML gz', 'JS gz', 'JS br', 'eager gz', 'lazy gz', 'CSS gz', 'CSS br', 'budget JS (eager) / CSS gz', 'verdict'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log('Size budgets (KiB; each file compressed on its own: gzip -9, brotli 11; budgets in gzip; JS = eager (before any interaction) + lazy (islands on interaction or in view))');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('');
  if (failures.length > 0) {
    console.log(`size check FAILED (${failures.length}):`);
    for (const f of failures) console.log(`  - ${f}`);
    return 1;
  }
  console.log('size check passed');
  return 0;
}

process.exitCode = await main().catch((err: unknown) => {
  console.error(err);
  return 1;
});
