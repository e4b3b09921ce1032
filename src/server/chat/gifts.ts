/**
 * The gift catalogue of the chat (GFT-01): what a member can send, each with a name in every language
 * (`chat:gift_<id>`) and an image the project ships (public/gifts/<id>.svg, drawn by hand as SVG). A gift
 * costs the site's `gift_credits`; the chat charges it through the credits ledger, this module only
 * describes the catalogue (docs/decisions/036-gif-provider-and-shipped-media.md).
 */
import { createTranslator } from '../../i18n';
import type { Language } from '../../shared/languages';

/** The gifts in the order the picker shows them. */
export const GIFT_IDS = ['rose', 'bouquet', 'chocolates', 'teddy', 'champagne', 'heart', 'ring', 'perfume', 'cupcake', 'star'] as const;
export type GiftId = (typeof GIFT_IDS)[number];

export interface Gift {
  id: GiftId;
  /** The gift's name in the requested language. */
  name: string;
  /** Site-relative URL of its image. */
  image: string;
}

export function isGiftId(value: unknown): value is GiftId {
  return typeof value === 'string' && (GIFT_IDS as readonly string[]).includes(value);
}

export function giftImage(id: GiftId): string {
  return `/gifts/${id}.svg`;
}

function gift(id: GiftId, lang: Language): Gift {
  return { id, name: String(createTranslator(lang)(`chat:gift_${id}`)), image: giftImage(id) };
}

/** Every gift with its name in `lang`. */
export function listGifts(lang: Language): Gift[] {
  return GIFT_IDS.map((id) => gift(id, lang));
}

/** One gift by id (a message stores only the id), or null for an id not in the catalogue. */
export function giftById(id: string, lang: Language = 'nl'): Gift | null {
  return isGiftId(id) ? gift(id, lang) : null;
}
