/**
 * Operators answering as fictional profiles must not promise or arrange meetings (OPS-02): the console
 * flags these phrases before an answer goes and asks the operator to confirm. Configurable with
 * OPERATOR_FLAGGED_PHRASES (a comma list); this is the default, in Dutch, English and German.
 */
export const DEFAULT_FLAGGED_PHRASES = [
  'meet',
  'meet up',
  'meeting',
  'my address',
  'your address',
  'phone number',
  'whatsapp',
  'tonight',
  'see you',
  'afspreken',
  'afspraak',
  'ontmoeten',
  'adres',
  'telefoonnummer',
  'vanavond',
  'langskomen',
  'treffen',
  'adresse',
  'telefonnummer',
  'heute abend',
  'vorbeikommen',
];

/** OPERATOR_FLAGGED_PHRASES as a list (trimmed, lower case, no empties or repeats); unset: the default. */
export function parseFlaggedPhrases(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_FLAGGED_PHRASES];
  return [
    ...new Set(
      value
        .split(',')
        .map((p) => p.trim().toLocaleLowerCase())
        .filter((p) => p !== ''),
    ),
  ];
}

/** The phrases of `phrases` that occur in `text` as words (any case, any letters around them are not part of it). */
export function flaggedPhrases(text: string, phrases: readonly string[]): string[] {
  const lower = text.toLocaleLowerCase();
  return phrases.filter((phrase) => {
    const p = phrase.trim().toLocaleLowerCase();
    if (p === '') return false;
    const escaped = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(lower);
  });
}
