// The service worker (issue 33), served from the site's root so that its scope is the whole
// app. It only shows the server's Web Push notices ("Your move", a rematch offer) and, on a
// click, brings the room forward: an open tab of the site if there is one, else a new one.
// It caches nothing.

// Only links inside this app: a notice's url is a route such as "#/room/<id>".
const routeOf = (notice) => (typeof notice?.url === 'string' && notice.url.startsWith('#/') ? notice.url : '#/');

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let notice = null;
  try { notice = event.data?.json() ?? null; } catch { notice = null; }
  if (!notice?.title) return;
  const route = routeOf(notice);
  // One notice per room on the device: the next move's replaces the last (`tag`).
  event.waitUntil(self.registration.showNotification(String(notice.title), {
    body: String(notice.body ?? ''), tag: route, renotify: true, data: { route },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(`/${routeOf({ url: event.notification.data?.route })}`, self.location.origin).href;
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const tab = tabs.find((client) => new URL(client.url).origin === self.location.origin);
    if (!tab) return self.clients.openWindow(target);
    await tab.focus();
    return tab.navigate(target).catch(() => tab.postMessage({ type: 'open', route: new URL(target).hash }));
  })());
});
