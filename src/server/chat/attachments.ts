/**
 * What a message of each kind may carry (CHT-07, GFT-01): a gift one of the catalogue's ids; a gif the
 * URL of an image its provider knows (looked up by id, so a member cannot make others load any URL);
 * text nothing. Photos have their own upload (photos.ts) and cannot be sent by name.
 */
import type { Config } from '../config';
import type { MessageKind } from '../../db/schema';
import { gifProvider, GifProviderError } from './gifs';
import { isGiftId } from './gifts';

export type ResolvedAttachment = { type: 'ok'; value: string | null } | { type: 'invalid' };

export async function resolveAttachment(config: Pick<Config, 'GIPHY_API_KEY' | 'GIPHY_BASE_URL' | 'GIPHY_RATING'>, kind: MessageKind, attachment: string | null): Promise<ResolvedAttachment> {
  switch (kind) {
    case 'text':
      return attachment === null ? { type: 'ok', value: null } : { type: 'invalid' };
    case 'gift':
      return isGiftId(attachment) ? { type: 'ok', value: attachment } : { type: 'invalid' };
    case 'gif': {
      if (!attachment || attachment.length > 100) return { type: 'invalid' };
      try {
        const gif = await gifProvider(config).byId(attachment);
        return gif && gif.url.length <= 200 ? { type: 'ok', value: gif.url } : { type: 'invalid' };
      } catch (err) {
        if (err instanceof GifProviderError) return { type: 'invalid' };
        throw err;
      }
    }
    default:
      return { type: 'invalid' };
  }
}
