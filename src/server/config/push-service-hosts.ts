/**
 * The host list of the browser push services (SEC-06, `PUSH_SERVICE_HOSTS`): its default, how a
 * configured value is read, and whether a host is on it. No imports, so the configuration can use it.
 */

/**
 * The browser push services a subscription may point at (SEC-06), as `PUSH_SERVICE_HOSTS` lists them by
 * default: each vendor's documented endpoint hosts. Chrome and the other Chromium browsers use Firebase
 * Cloud Messaging (`https://fcm.googleapis.com/fcm/send/…`), Firefox Mozilla's autopush
 * (`https://updates.push.services.mozilla.com/wpush/v2/…`), Edge the Windows Push Notification Services
 * (`https://<region>.notify.windows.com/w/?token=…`) and Safari Apple's web push service, which asks
 * servers that keep an allow-list to allow any subdomain of push.apple.com (`https://web.push.apple.com/…`).
 */
export const DEFAULT_PUSH_SERVICE_HOSTS: readonly string[] = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.notify.windows.com', '*.push.apple.com'];

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Parses a `PUSH_SERVICE_HOSTS` value: a comma (or space) separated list of host names (`fcm.googleapis.com`,
 * that host only) and `*.suffix` entries (`*.push.apple.com`: any name under it, not the suffix itself).
 * Names need two labels or more (three under a `*.`) and a top-level label that is not numeric, so no IP
 * address, `localhost` or `*.com` can be listed. Returns the lower-cased entries, or null when one is bad.
 */
export function parsePushServiceHosts(value: string): string[] | null {
  const entries = value
    .split(/[\s,]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) return null;
  for (const entry of entries) {
    const wildcard = entry.startsWith('*.');
    const labels = (wildcard ? entry.slice(2) : entry).split('.');
    if (labels.length < (wildcard ? 3 : 2) || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) return null;
  }
  return [...new Set(entries)];
}

/** Whether `hostname` (as `URL.hostname` gives it) is one of the push service hosts. */
export function isPushServiceHost(hostname: string, hosts: readonly string[]): boolean {
  const name = hostname.toLowerCase();
  return hosts.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) && name.length > entry.length - 1 : name === entry));
}
