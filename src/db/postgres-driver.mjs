/**
 * Where the installed postgres.js lives, and the mark its install-time mend leaves
 * (docs/decisions/099-postgres-js-begin-reservation.md). Plain JavaScript without dependencies: npm's
 * `postinstall` (scripts/patch-dependencies.mjs) runs it before anything is built, and opening
 * PostgreSQL (src/db/client.ts) checks the mend with it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The line the mend writes into postgres.js. */
export const DRIVER_MEND_MARK = 'Mended by scripts/patch-dependencies.mjs (porsager/postgres#1189)';

/**
 * The folder of the postgres.js package that `from` (a file URL or path) resolves: up from its entry
 * to the folder whose package.json is its own (its exports leave package.json out).
 * @param {string} from
 * @returns {string}
 */
export function postgresPackageDir(from) {
  const require = createRequire(from);
  let dir = dirname(require.resolve('postgres'));
  const isPackage = (/** @type {string} */ d) => existsSync(join(d, 'package.json')) && JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).name === 'postgres';
  while (!isPackage(dir)) {
    if (dirname(dir) === dir) throw new Error('postgres.js: no package folder above its entry');
    dir = dirname(dir);
  }
  return dir;
}
