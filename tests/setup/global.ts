/** Vitest global setup: tells once whether the PostgreSQL leg of the integration tests runs. */
import { postgresAvailable, TEST_POSTGRES_URL } from './databases';

export default async function setup(): Promise<void> {
  const ok = await postgresAvailable();
  console.log(
    ok
      ? `integration tests: PGlite and PostgreSQL (${TEST_POSTGRES_URL})`
      : `integration tests: PGlite only — PostgreSQL at ${TEST_POSTGRES_URL} did not answer, so its leg is not run`,
  );
}
