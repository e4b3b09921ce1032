/**
 * npm's `postinstall` (package.json): mends a known fault in a dependency until its own release does
 * (docs/decisions/099-postgres-js-begin-reservation.md). Plain Node, no dependency of its own, so a
 * production install (`npm ci --omit=dev`) runs it too. Running it twice changes nothing.
 *
 * postgres.js 3.4.9, `execute()` in connection.js: `sql.begin()` reserves the connection that carries its
 * BEGIN through an `onexecute` hook, the last term of an `&&` chain that first asks whether the
 * connection's pipeline has room for more. When the BEGIN is the query that fills the pipeline (or the
 * socket pushes back), the chain stops before the hook: BEGIN reaches PostgreSQL, the connection is not
 * reserved, the transaction fails with UNSAFE_TRANSACTION, and the connection goes back to the pool with
 * the transaction still open on the server, where other requests' statements then run inside it and are
 * never committed (porsager/postgres#823, #1189; the fix proposed upstream in #1211 and #1218). The mend
 * runs the hook whenever the query was written, and leaves the answer "may more be pipelined here"
 * as it was: never after a BEGIN of `sql.begin()`.
 *
 * When the text to mend is neither found nor already mended (postgres.js changed), the install stops
 * with a line saying so: the driver's transactions must then be checked again before it is used.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DRIVER_MEND_MARK, postgresPackageDir } from '../src/db/postgres-driver.mjs';

const BEFORE = `      return write(toBuffer(q))
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline
        && (!q.options.onexecute || q.options.onexecute(connection))`;

export const POSTGRES_BEGIN_MEND = `      // ${DRIVER_MEND_MARK}: reserve the connection of a
      // BEGIN whether or not the pipeline has room for more.
      const more = write(toBuffer(q))
      q.options.onexecute && q.options.onexecute(connection)
      return more
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline
        && !q.options.onexecute`;

/** The copies of postgres.js's connection.js (ESM, CommonJS, Cloudflare) under `root`'s node_modules. */
export function postgresConnectionFiles(root = process.cwd()) {
  const dir = postgresPackageDir(join(root, 'package.json'));
  return ['src', 'cjs/src', 'cf/src'].map((sub) => join(dir, sub, 'connection.js'));
}

/** Mends one file's text: 'mended', 'already' or 'unknown' (the text is not the one this script knows). */
export function mendText(text) {
  if (text.includes(POSTGRES_BEGIN_MEND)) return { state: 'already', text };
  if (text.split(BEFORE).length !== 2) return { state: 'unknown', text };
  return { state: 'mended', text: text.replace(BEFORE, POSTGRES_BEGIN_MEND) };
}

function main() {
  let files;
  try {
    files = postgresConnectionFiles();
  } catch {
    return 0; // postgres.js is not installed (nothing to mend)
  }
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // a build of postgres.js without this copy
    }
    const result = mendText(text);
    if (result.state === 'unknown') {
      console.error(`patch-dependencies: ${file} is not the postgres.js 3.4.9 text this mend knows: check porsager/postgres#1189 against the new version, then update scripts/patch-dependencies.mjs`);
      return 1;
    }
    if (result.state === 'mended') writeFileSync(file, result.text);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
