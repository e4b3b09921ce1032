/**
 * The safety net behind the edge checks (SEC-04, docs/decisions/014): errors the database raises
 * because of what a client sent (class 22 "data exception": a NUL byte, a character the encoding cannot
 * hold, a value out of range, text that is no number or date, …) are the client's fault and answer 400,
 * never 500. And errors are scrubbed before anything logs them: Drizzle's query errors carry the query's
 * parameters (e-mail addresses, password hashes, tokens) in `params` and in their message.
 */

/** PostgreSQL SQLSTATEs caused by input: class 22 (data exception) and a few like it. */
const INPUT_STATES = new Set(['54000' /* program_limit_exceeded: e.g. an index row too large */, '42P18' /* indeterminate datatype */]);

/** The SQLSTATE of `err` or of an error in its `cause` chain (Drizzle wraps the driver's error). */
export function sqlState(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether `err` is a database error caused by the request's input (it answers 400, not 500). */
export function isInputError(err: unknown): boolean {
  const state = sqlState(err);
  return state !== undefined && (state.startsWith('22') || INPUT_STATES.has(state));
}

/** "params: …" up to the stack's first frame (a parameter may hold line breaks itself). */
const PARAMS_IN_STACK = /\nparams: [\s\S]*?(?=\n\s+at |$)/;

/**
 * Removes query parameters from `err` and its causes, in place: the `params` property and the
 * "params: …" line Drizzle writes into the message and the stack. Returns `err`.
 */
export function scrubError<T>(err: T): T {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const e = current as { params?: unknown; message?: unknown; stack?: unknown; parameters?: unknown; cause?: unknown };
    try {
      if ('params' in e) e.params = '[redacted]';
      if ('parameters' in e) e.parameters = '[redacted]';
      if (typeof e.message === 'string' && e.message.includes('\nparams: ')) e.message = `${e.message.slice(0, e.message.indexOf('\nparams: '))}\nparams: [redacted]`;
      if (typeof e.stack === 'string') e.stack = e.stack.replace(PARAMS_IN_STACK, '\nparams: [redacted]');
    } catch {
      // A frozen error keeps what it has; the logger's serializer scrubs again.
    }
    current = e.cause;
  }
  return err;
}
