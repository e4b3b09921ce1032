/**
 * Every text in the English catalogue (i18n/en.json, the reference the other ten follow) is used in
 * src/. A key counts as used when the source names it: `ns:key` anywhere (a `t('ns:key')` call or a key
 * kept in a table), or `key` as a whole string literal (the islands' translators are bound to their
 * namespaces, so they call `t('key')`). Plural variants (`key_one`, `key_other`, …) count as `key`. Keys
 * the code builds from a prefix and a value (`t(`credits:status_${status}`)`) cannot be found that way:
 * their prefixes are listed below, each with what fills in the rest.
 */
import type { SourceFile } from './repo-files';

export const BUILT_KEY_PREFIXES: Readonly<Record<string, string>> = {
  'chat:gift_': 'a gift by its id (GIFT_IDS)',
  'chat:icebreaker_': 'the numbered opening lines',
  'safety:reason_': 'a report reason (REPORT_REASONS)',
  'chats:kind_': "a message's kind, in the chat island's translator (t(`kind_${kind}`))",
  'complaints:errors.': "the complaint form's error codes",
  'complete_signup:about.errors.': "the about step's error codes",
  'complete_signup:steps.': 'the step names of the progress bar',
  'credits:choice_': "the simulated checkout's choices",
  'credits:late_paid_': 'how a payment closed before it was paid late',
  'credits:method_': 'a payment method id',
  'credits:refused_': "a refusal's reason from the payment service",
  'credits:status_': "a payment's status (and its _title and _text)",
  'delete_account:reactivate.': "the reactivation link's problem",
  'directdebit:errors.': "the direct-debit form's error codes",
  'directdebit:mandate_required': "the payment service's directdebit_<reason> refusals, shown as directdebit:<reason>",
  'errors:email_not_found': 'kept on purpose for places entitled to know (docs/decisions/018-password-reset-without-enumeration.md)',
  'landers:headline.': "a lander's name",
  'landers:lead.': "a lander's name",
  'landers:niche.': "the site's niche number",
  'landers:title.': "a lander's name",
  'likes:none_': 'the likes tab (received, given, matches)',
  'likes:tab_': 'the likes tab (received, given, matches)',
  'mail:': "a mail's kind (mail:<kind>.subject, .heading, .body, .button, .push_title, .push_body)",
  'mail_change:error_': "the e-mail change link's problem",
  'photos_manage:done.': 'the photo action that was done',
  'photos_manage:errors.': "the photo form's error codes",
  'photos_manage:reasons.': "a rejected photo's reason",
  'photos_manage:status_': "a photo's status",
  'profile:values.': "a profile field's value (gender, hair, eyes, …)",
  'profile_edit:errors.': "the profile form's error codes",
  'push:status_': "the push island's state, in its translator (t(`status_${status}`))",
  'search:similar_': "the widened search criterion, in the search island's translator (t(`similar_${widening}`))",
  'signup:invitation_': "the invitation link's problem",
  'signup:login_required.': 'the action a visitor tried before signing up',
  'staff:complaint_': "a complaint's status, note kind, done action or error",
  'staff:done_': 'the back-office member action that was done',
  'staff:error_': "the back-office member action's error",
  'staff:home_': "the staff member's role",
  'staff:refund_': "the refund's refusal",
  'staff:role_': 'a staff role',
  'staff_dd:done_': 'the blocklist action that was done',
  'staff_dd:error_': "the blocklist action's error",
  'staff_invitations:error_': "the invitation action's error",
  'staff_invitations:state_': "an invitation's state",
  'staff_operator:done_': 'the operator action that was done',
  'staff_safety:done_': "the safety page's or a report's action that was done (save, reset, warn, ban, remove_photos)",
  'staff_safety:error_warn_': 'why a warning could not go (not_found, mail_failed)',
  'staff_operator:error_': "the operator action's error",
  'staff_operator:kind_': "a message's kind",
  'staff_partner:done_': 'the partner action that was done',
  'staff_partner:error_': "the partner form's error",
  'staff_photos:reasons.': "a rejected photo's reason",
  'staff_photos:status.': "a photo's status",
  'staff_sites:done_': 'the site settings action that was done',
  'staff_verification:outcome.': "the verification queue's last decision",
  'verification:poses.': 'a verification pose (VERIFICATION_POSES)',
  'verification:reasons.': "a rejected verification's reason (VERIFICATION_REJECTION_REASONS)",
  'verification:state.': "the member's verification state",
  'staff_sites:error_': "the site settings form's error",
};

type Catalogue = { [key: string]: string | string[] | Catalogue };

const PLURAL = /_(?:zero|one|two|few|many|other)$/;

/** `ns:path.to.key` for every text (or list of texts) of a catalogue, plural variants folded into their key. */
export function catalogueKeys(catalogue: Catalogue): string[] {
  const keys = new Set<string>();
  const walk = (node: Catalogue, prefix: string): void => {
    for (const [name, value] of Object.entries(node)) {
      if (typeof value === 'string' || Array.isArray(value)) keys.add(`${prefix}${name}`.replace(PLURAL, ''));
      else walk(value, prefix === '' ? `${name}:` : `${prefix}${name}.`);
    }
  };
  walk(catalogue, '');
  return [...keys];
}

/** Keys no source names and no listed prefix covers, and listed prefixes that cover no key. */
export function translationKeyProblems(keys: readonly string[], sources: readonly SourceFile[], prefixes: Readonly<Record<string, string>>): string[] {
  const text = sources.map((s) => s.text).join('\n');
  const literals = new Set([...text.matchAll(/['"`]([A-Za-z0-9_.:-]+)['"`]/g)].map((m) => m[1]!));
  const problems: string[] = [];
  for (const key of keys) {
    const bare = key.slice(key.indexOf(':') + 1);
    if (text.includes(key) || literals.has(bare)) continue;
    if (Object.keys(prefixes).some((p) => key.startsWith(p))) continue;
    problems.push(`${key} is used nowhere in src/`);
  }
  for (const prefix of Object.keys(prefixes)) {
    if (!keys.some((k) => k.startsWith(prefix))) problems.push(`the listed prefix ${prefix} covers no key`);
  }
  return problems;
}
