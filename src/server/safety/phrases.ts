/**
 * SAFE-02: what makes a message ask for money, payment details, gift cards or crypto, or to move to
 * another app. Pure functions, run in our process (nothing is sent to a third party):
 *
 * - `DEFAULT_SAFETY_PHRASES`: the built-in list per language, used until an admin saves that language's
 *   list (lists.ts). Brand names (WhatsApp, PayPal, Bitcoin…) stand in every list, so each language's
 *   list reads complete on its own in the back office.
 * - A message is checked against the phrases of *every* language together: a Dutch member writing in
 *   English is caught by the English ones.
 * - Text and phrases are compared in one normal form (`normaliseForSafety`): any case, diacritics and
 *   invisible characters dropped (ł ø æ ß spelled out), letters and digits mixed in a word read as letters
 *   ("wh4tsapp", "b1tc0in"), punctuation as spaces, and letters spelled one by one read as a word
 *   ("w h a t s a p p", "W.h.a.t.s.A.p.p").
 * - A phrase matches whole words; its last word may carry up to 3 more letters when it has 4 or more
 *   itself ("gift cards", "whatsappen", "bitcoins"), so "text me" never matches "text message". A phrase
 *   of several words also matches written as one ("giftcard").
 */
import type { Language } from '../../shared/languages';

/** The most phrases one language's list may hold, and the longest phrase (characters). */
export const SAFETY_LIMITS = { phrases: 300, phraseLength: 60 } as const;

const BRANDS = ['whatsapp', 'telegram', 'snapchat', 'kik', 'viber', 'wechat', 'skype', 'paypal', 'western union', 'moneygram', 'bitcoin', 'btc', 'usdt', 'ethereum', 'iban'];

export const DEFAULT_SAFETY_PHRASES: Record<Language, readonly string[]> = {
  en: [
    'send money',
    'send me money',
    'lend me money',
    'need money',
    'transfer money',
    'wire transfer',
    'bank account',
    'bank details',
    'account number',
    'sort code',
    'credit card',
    'card number',
    'card details',
    'cvv',
    'pin code',
    'gift card',
    'itunes card',
    'google play card',
    'steam card',
    'amazon card',
    'crypto',
    'wallet address',
    'my number',
    'your number',
    'phone number',
    'text me',
    'email me',
    'off this site',
    ...BRANDS,
  ],
  nl: [
    'geld sturen',
    'stuur me geld',
    'stuur geld',
    'geld overmaken',
    'geld lenen',
    'geld nodig',
    'overmaken',
    'bankrekening',
    'rekeningnummer',
    'bankgegevens',
    'creditcard',
    'kaartnummer',
    'pincode',
    'cadeaukaart',
    'cadeaubon',
    'giftcard',
    'tikkie',
    'crypto',
    'mijn nummer',
    'je nummer',
    'jouw nummer',
    'telefoonnummer',
    'mail me',
    'buiten deze site',
    ...BRANDS,
  ],
  de: [
    'geld schicken',
    'geld senden',
    'schick mir geld',
    'geld überweisen',
    'überweisung',
    'geld leihen',
    'brauche geld',
    'bankkonto',
    'kontonummer',
    'bankdaten',
    'bankverbindung',
    'kreditkarte',
    'kartennummer',
    'pincode',
    'geschenkkarte',
    'guthabenkarte',
    'gutscheincode',
    'paysafecard',
    'krypto',
    'meine nummer',
    'deine nummer',
    'handynummer',
    'telefonnummer',
    'schreib mir eine mail',
    ...BRANDS,
  ],
  fr: [
    "envoyer de l'argent",
    "envoie-moi de l'argent",
    "prêter de l'argent",
    "besoin d'argent",
    'virement',
    'compte bancaire',
    'coordonnées bancaires',
    'carte bancaire',
    'carte de crédit',
    'numéro de carte',
    'code pin',
    'carte cadeau',
    'transcash',
    'crypto',
    'mon numéro',
    'ton numéro',
    'votre numéro',
    'numéro de téléphone',
    ...BRANDS,
  ],
  es: [
    'enviar dinero',
    'envíame dinero',
    'mandar dinero',
    'préstame dinero',
    'necesito dinero',
    'transferencia',
    'cuenta bancaria',
    'datos bancarios',
    'número de cuenta',
    'tarjeta de crédito',
    'número de tarjeta',
    'tarjeta regalo',
    'cripto',
    'mi número',
    'tu número',
    'número de teléfono',
    ...BRANDS,
  ],
  it: [
    'mandami soldi',
    'mandare soldi',
    'inviare soldi',
    'prestami soldi',
    'ho bisogno di soldi',
    'bonifico',
    'conto bancario',
    'coordinate bancarie',
    'carta di credito',
    'numero della carta',
    'carta regalo',
    'ricarica',
    'postepay',
    'cripto',
    'il mio numero',
    'il tuo numero',
    'numero di telefono',
    ...BRANDS,
  ],
  pl: [
    'wyślij pieniądze',
    'przelej pieniądze',
    'pożycz pieniądze',
    'potrzebuję pieniędzy',
    'przelew',
    'konto bankowe',
    'numer konta',
    'dane bankowe',
    'karta kredytowa',
    'numer karty',
    'kod blik',
    'karta podarunkowa',
    'krypto',
    'mój numer',
    'twój numer',
    'numer telefonu',
    ...BRANDS,
  ],
  da: [
    'send penge',
    'send mig penge',
    'overfør penge',
    'låne penge',
    'brug for penge',
    'bankkonto',
    'kontonummer',
    'kreditkort',
    'kortnummer',
    'gavekort',
    'mobilepay',
    'krypto',
    'mit nummer',
    'dit nummer',
    'telefonnummer',
    ...BRANDS,
  ],
  fi: [
    'lähetä rahaa',
    'lainaa rahaa',
    'tarvitsen rahaa',
    'tilisiirto',
    'pankkitili',
    'tilinumero',
    'luottokortti',
    'kortin numero',
    'lahjakortti',
    'mobilepay',
    'krypto',
    'numeroni',
    'puhelinnumero',
    ...BRANDS,
  ],
  nb: [
    'send penger',
    'send meg penger',
    'overføre penger',
    'låne penger',
    'trenger penger',
    'bankkonto',
    'kontonummer',
    'kredittkort',
    'kortnummer',
    'gavekort',
    'vipps',
    'krypto',
    'mitt nummer',
    'ditt nummer',
    'telefonnummer',
    ...BRANDS,
  ],
  sv: [
    'skicka pengar',
    'skicka mig pengar',
    'swisha',
    'swish',
    'låna pengar',
    'behöver pengar',
    'överföring',
    'bankkonto',
    'kontonummer',
    'kreditkort',
    'kortnummer',
    'presentkort',
    'krypto',
    'mitt nummer',
    'ditt nummer',
    'telefonnummer',
    ...BRANDS,
  ],
};

const SPELLED: Record<string, string> = { ł: 'l', ø: 'o', æ: 'ae', ß: 'ss', đ: 'd', œ: 'oe', ı: 'i', þ: 'th', ð: 'd' };
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

/** The normal form text and phrases are compared in (see the module comment). */
export function normaliseForSafety(text: string): string {
  let s = text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase()
    .replace(/[łøæßđœıþð]/g, (c) => SPELLED[c] ?? c);
  // A word of letters with digits, @ or $ among them reads as letters ("wh4tsapp"); numbers stay numbers.
  s = s.replace(/[\p{L}\p{N}@$]+/gu, (w) => (/\p{L}/u.test(w) && /[0-9@$]/.test(w) ? w.replace(/[013457@$]/g, (c) => LEET[c] ?? c) : w));
  s = s.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  // Three or more single letters in a row are one word ("w h a t s a p p").
  return s.replace(/(?<=^| )(?:\p{L} ){2,}\p{L}(?= |$)/gu, (m) => m.replace(/ /g, ''));
}

/** A phrase list as stored: trimmed, one space inside, no empties or repeats, within the limits. */
export function cleanPhraseList(lines: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const phrase = line.replace(/\s+/g, ' ').trim().slice(0, SAFETY_LIMITS.phraseLength);
    const key = normaliseForSafety(phrase);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(phrase);
    if (out.length === SAFETY_LIMITS.phrases) break;
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function phrasePattern(normal: string): string {
  const words = normal.split(' ');
  const last = words[words.length - 1]!;
  const tail = [...last].length >= 4 ? '\\p{L}{0,3}' : '';
  const forms = words.length > 1 ? [normal, words.join('')] : [normal];
  return forms.map((f) => `${escape(f)}${tail}`).join('|');
}

/** A matcher built once from phrase lists (of any number of languages): `test(text)` says whether a text matches one. */
export interface SafetyMatcher {
  test(text: string): boolean;
}

export function safetyMatcher(lists: Iterable<readonly string[]>): SafetyMatcher {
  const patterns = new Set<string>();
  for (const list of lists) {
    for (const phrase of list) {
      const normal = normaliseForSafety(phrase);
      if (normal !== '') patterns.add(phrasePattern(normal));
    }
  }
  if (patterns.size === 0) return { test: () => false };
  // Longest first, so a longer phrase is tried before its own beginning.
  const alternation = [...patterns].sort((a, b) => b.length - a.length).join('|');
  const regex = new RegExp(`(?<=^| )(?:${alternation})(?= |$)`, 'u');
  return { test: (text) => text.trim() !== '' && regex.test(normaliseForSafety(text)) };
}
