import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('defaults: port 4321, PGlite in ./data, demo seed on', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(4321);
    expect(c.databaseUrl).toMatch(/data[/\\]pglite$/);
    expect(c.SEED_DEMO).toBe(true);
    expect(c.COUNTRY_HEADER).toBe('cf-ipcountry');
  });

  it('DATABASE_URL switches to PostgreSQL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).databaseUrl).toBe('postgres://u@h:5432/db');
  });

  it('a bad value stops start with a message naming every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT="eighty"');
    expect(message).toContain('DATABASE_URL="mysql://x"');
    expect(message).toContain('SEED_DEMO="maybe"');
  });
});
