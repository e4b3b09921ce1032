/**
 * Creates a back-office account (issue 12): `npm run staff -- create <email> <role> [name]`, role one of
 * moderator, operator, admin. Prints a one-time password and the TOTP setup key and otpauth:// address
 * for the authenticator app (no network: type the key or turn the address into a QR code locally).
 * Uses DATABASE_URL / DATA_DIR like the server.
 */
import { databaseOptions, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/db/client';
import { createStaff, isStaffRole, newStaffPassword, totpUri } from '../src/server/staff/accounts';

const [command, email, role, ...name] = process.argv.slice(2);
if (command !== 'create' || !email || !isStaffRole(role)) {
  console.error('usage: npm run staff -- create <email> <moderator|operator|admin> [name]');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, databaseOptions(config));
try {
  const password = newStaffPassword();
  const created = await createStaff({ db: database.db }, { email, role, name: name.join(' ') || email, password });
  console.log(`staff #${created.id} ${created.email} (${created.role})`);
  console.log(`password (shown once, keep it in a password manager): ${password}`);
  console.log(`authenticator setup key: ${created.totpSecret}`);
  console.log(`otpauth address: ${totpUri(created.email, created.totpSecret)}`);
} finally {
  await database.close();
}
