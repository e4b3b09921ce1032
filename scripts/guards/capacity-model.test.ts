/**
 * SCALE-03: the capacity model (docs/scaling.md) answers the sizes the issue asks for, says where
 * LISTEN/NOTIFY stops and what takes over, labels its figures, and every benchmark it cites exists, so
 * its numbers can be measured again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'scaling.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the capacity model', () => {
  it('SCALE-03 covers 1 million members, 50,000 online and 5 million messages a day with processes, cores, database, IO, storage and bandwidth', () => {
    for (const size of ['1,000,000', '50,000', '5,000,000']) expect(doc).toContain(size);
    for (const heading of ['CPU, processes and machines', 'Database size and IO', 'Object storage and bandwidth', 'Where LISTEN/NOTIFY stops']) expect(doc).toContain(heading);
    for (const next of ['Redis', 'NATS', 'EventBus', 'read replica', 'partition']) expect(doc.toLowerCase()).toContain(next.toLowerCase());
  });

  it('SCALE-03 labels measured, assumed and computed figures, and every command it cites is a script of package.json', () => {
    for (const label of ['**measured**', '**assumed**', '**computed**']) expect(doc).toContain(label);
    const cited = [...doc.matchAll(/npm run ([a-z:]+)/g)].map((m) => m[1]!);
    expect(cited).toEqual(expect.arrayContaining(['bench:members', 'bench:chat', 'bench:capacity', 'cluster']));
    for (const name of cited) expect(scripts, name).toHaveProperty(name);
  });
});
