/**
 * `npm run cluster` (SCALE-02): the app as several machines would run it, on this one. Three built app
 * processes on one PostgreSQL database and one S3-compatible bucket (s3rver), behind HAProxy (Debian's
 * package; installed when run as root with apt), round robin and without stickiness. It runs the
 * checks of the cluster test through the balancer and prints them, then stays up at
 * http://localhost:<CLUSTER_PORT> (default 4300) until Ctrl-C; `--check` ends after the checks, with
 * status 1 if one failed.
 *
 * The database: DATABASE_URL when set; otherwise a fresh database on the PostgreSQL server at
 * TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test), dropped at the end. Without
 * PostgreSQL or HAProxy it stops at once with one line saying what to install.
 */
import { startCluster, type Cluster } from '../tests/setup/cluster';
import { checkConnections, checkJobsOnce, checkKill, checkLiveDelivery, checkPhotos, checkRateLimits, checkSessions, checkSettingsCaches, clusterContext } from '../tests/setup/cluster-checks';
import { createTestDatabase, postgresAvailable, TEST_POSTGRES_URL } from '../tests/setup/databases';

const checkOnly = process.argv.includes('--check');
const port = Number(process.env.CLUSTER_PORT ?? 4300);

async function main(): Promise<number> {
  let databaseUrl = process.env.DATABASE_URL;
  let drop = async () => {};
  if (!databaseUrl) {
    if (!(await postgresAvailable())) {
      console.error(`npm run cluster needs PostgreSQL: set DATABASE_URL, or run a server at ${TEST_POSTGRES_URL} (Debian: apt-get install postgresql)`);
      return 1;
    }
    const database = await createTestDatabase('postgres');
    databaseUrl = database.url;
    drop = () => database.drop();
  }
  const outcome = await startCluster({
    databaseUrl,
    port,
    env: { SETTINGS_TTL_MS: '3600000', JOBS_INTERVAL_SECONDS: '5', PAYMENTS_PROVIDER: 'simulated', DEMO_MODE: 'true' },
    say: (line) => console.log(line),
  });
  if ('unavailable' in outcome) {
    console.error(outcome.unavailable);
    await drop();
    return 1;
  }
  const cluster: Cluster = outcome;
  const ctx = await clusterContext(cluster);
  const checks: Array<[string, () => Promise<string>]> = [
    ['sessions', () => checkSessions(ctx)],
    ['rate limits', () => checkRateLimits(ctx)],
    ['photos', () => checkPhotos(ctx)],
    ['live delivery', () => checkLiveDelivery(ctx)],
    ['settings caches', () => checkSettingsCaches(ctx)],
    ['jobs once per round', () => checkJobsOnce(ctx, 2)],
    ['connections', () => checkConnections(ctx)],
    ['SIGKILL and restart', async () => (await checkKill(ctx)).line],
  ];
  let failed = 0;
  for (const [name, run] of checks) {
    try {
      console.log(`✓ ${name}: ${await run()}`);
    } catch (err) {
      failed++;
      console.log(`✗ ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  console.log(`${checks.length - failed} of ${checks.length} checks passed`);
  await ctx.db.close();
  const shutdown = async () => {
    await cluster.stop();
    await drop();
  };
  if (checkOnly) {
    await shutdown();
    return failed ? 1 : 0;
  }
  console.log(`The cluster serves http://localhost:${port} (demo members: premium@demo.test / free@demo.test, password demo-password-1). Ctrl-C stops it.`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await shutdown();
  return 0;
}

process.exitCode = await main();
