/**
 * One app server process for multi-process tests (tests/integration/settings-invalidation.test.ts):
 * boots the built app on the database of DATABASE_URL (the demo seeded when the database is empty) and
 * speaks JSON lines. Out: {type:'ready', url}, {type:'event', topic, siteId} for every bus event it
 * receives, {type:'updated', result}. In: {cmd:'update', siteId, patch} runs updateSiteSettings here.
 * It stops when stdin closes.
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/server/config';
import { bootServer } from '../../src/runtime/boot';
import { createLogger } from '../../src/server/logger';
import { updateSiteSettings } from '../../src/server/sites/settings-update';

const say = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

const config = loadConfig(process.env);
const running = await bootServer({ config, log: createLogger(config.LOG_LEVEL), host: '127.0.0.1', port: 0 });
const { app } = running;
for (const topic of ['site.changed', 'site.content_changed'] as const) {
  app.bus.subscribe(topic, ({ siteId }) => void say({ type: 'event', topic, siteId }));
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line) as { cmd: 'update'; siteId: number; patch: Parameters<typeof updateSiteSettings>[2] };
  updateSiteSettings(app, message.siteId, message.patch).then(
    (result) => say({ type: 'updated', result }),
    (err: unknown) => say({ type: 'error', message: String(err) }),
  );
});
lines.on('close', () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
say({ type: 'ready', url: running.url });
