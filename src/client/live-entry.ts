/**
 * Starts the live stream for a signed-in member (src/client/live.ts) and keeps the counters current from
 * it. Loaded by LiveStream.astro on members' pages only, once the browser is idle.
 */
import { setNewLikes, setUnreadMessages } from '../stores/counters';
import { onLiveEvent, startLiveStream } from './live';

onLiveEvent((event) => {
  if (event.type !== 'counters') return;
  const { unread_messages: unread, new_likes: likes } = event.data as { unread_messages?: number; new_likes?: number };
  if (typeof unread === 'number') setUnreadMessages(unread);
  if (typeof likes === 'number') setNewLikes(likes);
});

const start = () => startLiveStream(window as unknown as Parameters<typeof startLiveStream>[0]);
if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
else setTimeout(start, 500);
