/**
 * E-mail address checks shared by the signup form (browser) and the server (SIGN-05):
 * a plain syntax check and a 'did you mean' suggestion for mistyped popular domains.
 */
import { run as spellCheck, POPULAR_DOMAINS, POPULAR_TLDS } from '@zootools/email-spell-checker';

/** Providers our members use most, on top of the library's international list. */
const LOCAL_DOMAINS = [
  'hotmail.nl',
  'live.nl',
  'outlook.com',
  'ziggo.nl',
  'kpnmail.nl',
  'kpnplanet.nl',
  'planet.nl',
  'home.nl',
  'telenet.be',
  'skynet.be',
  'gmx.de',
  'gmx.net',
  'web.de',
  't-online.de',
  'freenet.de',
  'gmx.at',
  'bluewin.ch',
  'icloud.com',
  'me.com',
];
const DOMAINS = [...new Set([...POPULAR_DOMAINS, ...LOCAL_DOMAINS])];
const TLDS = [...new Set([...POPULAR_TLDS, 'nl', 'be', 'de', 'at', 'ch', 'dk', 'se', 'no', 'fi', 'pl', 'it', 'fr', 'es'])];

const EMAIL = /^[^\s@"<>(),;:\\[\]]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** Syntax check: one @, a dotted domain, no spaces or quotes; at most 254 characters. */
export function isValidEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value) && !/\.\./.test(value) && /\.[a-z]{2,}$/i.test(value);
}

/** A corrected address when the domain looks like a typo of a popular one ('gmial.com' → 'gmail.com'). */
export function suggestEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  if (!email.includes('@')) return null;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (DOMAINS.includes(domain)) return null;
  const result = spellCheck({ email, domains: DOMAINS, topLevelDomains: TLDS });
  return result && result.full !== email ? result.full : null;
}
