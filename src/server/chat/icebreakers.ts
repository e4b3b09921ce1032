/**
 * Icebreakers (CHT-07): friendly opening lines a member can pick to start a conversation, written per
 * language in the catalogues (`chat:icebreaker_1` … `chat:icebreaker_<ICEBREAKER_COUNT>`).
 */
import { createTranslator } from '../../i18n';
import type { Language } from '../../shared/languages';

export const ICEBREAKER_COUNT = 10;

/** The opening lines in `lang`, in catalogue order. */
export function icebreakers(lang: Language): string[] {
  const t = createTranslator(lang);
  return Array.from({ length: ICEBREAKER_COUNT }, (_, i) => String(t(`chat:icebreaker_${i + 1}`)));
}
