/**
 * The member's conversations as the client knows them (CHT-01): `loadChats` reads `GET /api/chats.php`
 * and sets the unread total that the navigation badge (NAV-01), the title (NAV-06) and the app badge
 * (CLI-09) show. The periodic loading (CLI-08) and the live stream's counters keep it current.
 */
import { atom } from 'nanostores';
import { api, isAuthenticationRequired } from '../client/api';
import type { components } from '../shared/api-types';
import { setUnreadMessages } from './counters';

export type Chats = components['schemas']['Chats'];
export type ChatSummary = Chats['chats'][number];

export const $chats = atom<ChatSummary[] | null>(null);

/** Reloads the conversations; the unread total follows. Returns them, or null when the call failed. */
export async function loadChats(): Promise<Chats | null> {
  try {
    const { data } = await api.GET('/api/chats.php');
    if (!data) return null;
    $chats.set(data.chats);
    setUnreadMessages(data.unread_total);
    return data;
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    return null;
  }
}
