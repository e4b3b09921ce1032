/**
 * The conversation list's JavaScript (CHT-06, CHT-08): 'remove' takes the row away at once, then sends
 * `DELETE /api/chat.php`; when that fails the member gets an alert with the error and the page reloads,
 * bringing the conversation back. A message arriving on the live stream reloads the list.
 */
import { api, failureReason, isAuthenticationRequired } from './api';
import { onLiveEvent } from './live';

const failed = document.querySelector<HTMLElement>('[data-chat-remove-failed]');

document.querySelectorAll<HTMLFormElement>('form[data-chat-remove]').forEach((form) => {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const row = form.closest<HTMLElement>('[data-chat-id]');
    const id = Number(form.querySelector<HTMLInputElement>('input[name="conversation"]')?.value);
    if (!row || !Number.isSafeInteger(id)) return;
    row.classList.add('d-none');
    const fail = (reason: string) => {
      if (failed) {
        failed.textContent = (failed.dataset.text ?? '{error}').replace('{error}', reason);
        failed.hidden = false;
      }
      window.setTimeout(() => window.location.reload(), 2500);
    };
    api.DELETE('/api/chat.php', { body: { conversation: id } }).then(
      ({ error }) => {
        if (error) fail(failureReason(error));
        else row.remove();
      },
      (err: unknown) => {
        if (!isAuthenticationRequired(err)) fail(err instanceof Error ? err.message : 'network');
      },
    );
  });
});

// A new message or a removal in another tab changes the list: show it as it is now.
onLiveEvent((event) => {
  if (event.type === 'message' || event.type === 'removed') window.location.reload();
});
