/**
 * Record ids from addresses and forms (SEC-19; docs/decisions/059-no-5xx-and-atomic-attempts.md). Every
 * id column is a PostgreSQL `integer` (`serial`), so an id is a positive int32: 1 … 2,147,483,647. A
 * route that takes an id reads it with {@link parseId} and answers its 404 (or its refusal) for null;
 * nothing bigger ever reaches the database, which refuses it (SQLSTATE 22003).
 */

/** The largest value of a PostgreSQL `integer`: the last id a `serial` column hands out. */
export const MAX_ID = 2_147_483_647;

/** A positive int32 in canonical decimal form: no sign, no leading zero, no spaces, at most ten digits. */
const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;

/**
 * The id `value` names, or null when it is not exactly the decimal form of an id: '0', '-1', '01', '+1',
 * ' 1', '1.0', '1e3', '0x1f', other scripts' digits and anything above {@link MAX_ID} are all null.
 */
export function parseId(value: string | null | undefined): number | null {
  if (typeof value !== 'string' || !CANONICAL_ID.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}
