/**
 * Starts the live stream for a signed-in member (src/client/live.ts) and keeps the counters current from
 * it; starts the match modal and like pop-up (like-modals.ts: a like waiting to be shown, a match arriving
 * live, UX-01). Loaded by LiveStream.astro on members' pages only, once the browser is idle. One entry
 * for both: the modal is on every member page now, and a second script would cost its own file.
 */
import { setNewLikes, setUnreadMessages } from '../stores/counters';
import { startLikeModals } from './like-modals';
import { onLiveEvent, startLiveStream } from '../client/live';

onLiveEvent((event) => {
  if (event.type !== 'counters') return;
  const { unread_messages: unread, new_likes: likes } = event.data as { unread_messages?: number; new_likes?: number };
  if (typeof unread === 'number') setUnreadMessages(unread);
  if (typeof likes === 'number') setNewLikes(likes);
});

const start = () => {
  // The modal listens before the stream can bring a match.
  startLikeModals(window);
  startLiveStream(window as unknown as Parameters<typeof startLiveStream>[0]);
};
if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
else setTimeout(start, 500);
