// "Tell me when it is my move" (issue 33): Web Push in games of a day or more per move and for
// rematch offers. The button shows only when the server has a VAPID key (GET /api/push/key) and
// the browser has the Push API; the browser asks for permission only after the click. The
// service worker (/sw.js) shows the notices.
import { pushKey, subscribePush, unsubscribePush } from './account_api.js';

export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

// The server's key as applicationServerKey takes it (bytes), or null when the server sends no push.
export async function serverKey() {
  try {
    const { key } = await pushKey();
    const base64 = key.replaceAll('-', '+').replaceAll('_', '/');
    return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

// This browser's subscription, if it has one.
export async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

// Asks for permission (the caller runs on the person's click), subscribes with the push service,
// and gives the server the subscription for the player of `token` (a guest) or of the session.
export async function subscribe(key, token) {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site; allow them in the browser’s site settings.');
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await subscribePush(subscription.toJSON(), token);
}

export async function unsubscribe(token) {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await unsubscribePush(subscription.endpoint, token).catch((error) => { if (error.status !== 404) throw error; });
  await subscription.unsubscribe();
}

// A click on a notice while a tab is open but not under the worker's control: the worker asks
// the tab to open the room.
export function followWorker(open) {
  if (!pushSupported()) return;
  navigator.serviceWorker.addEventListener('message', (event) => {
    const route = event.data?.type === 'open' ? event.data.route : null;
    if (typeof route === 'string' && route.startsWith('#/')) open(route);
  });
}
