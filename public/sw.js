/*
 * Push service worker (PUSH-01, PUSH-02). Registered for signed-in members by src/client/push.ts.
 * Shows each push message as a notification and, on click, focuses a tab already on that page or
 * opens it. The payload is JSON from src/server/push/service.ts: {title, body, url, icon, tag}.
 * No caching and no fetch handler: pages always come from the network.
 */

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** Reads a push message; a message that is not our JSON still shows something sensible. */
function readPayload(event) {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json();
    } catch {
      data = { body: event.data.text() };
    }
  }
  return {
    title: typeof data.title === 'string' && data.title ? data.title : self.registration.scope ? new URL(self.registration.scope).host : 'Notification',
    body: typeof data.body === 'string' ? data.body : '',
    url: typeof data.url === 'string' && data.url ? data.url : '/',
    icon: typeof data.icon === 'string' && data.icon ? data.icon : '/favicon.svg',
    tag: typeof data.tag === 'string' && data.tag ? data.tag : undefined,
  };
}

self.addEventListener('push', (event) => {
  const message = readPayload(event);
  const options = { body: message.body, icon: message.icon, badge: '/favicon.svg', data: { url: message.url } };
  if (message.tag) {
    options.tag = message.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(message.title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const raw = (event.notification.data && event.notification.data.url) || '/';
  const target = new URL(raw, self.location.origin);
  // Only pages of this site are opened.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((client) => client.url === url);
      if (same) return same.focus();
      const any = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (any) {
        const focused = await any.focus();
        return focused.navigate ? focused.navigate(url) : self.clients.openWindow(url);
      }
      return self.clients.openWindow(url);
    })(),
  );
});
