/** Column types Drizzle's pg-core does not name. */
import { customType } from 'drizzle-orm/pg-core';

/** Raw bytes (a passkey's public key). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
