// Puts what the tab should say (attention.js) on the page: the title and the favicon. One for
// the whole page: the room page tells it what happened; the tab becoming visible again clears it.
import { attend, titleFor, faviconFor } from './attention.js';

let reason = null;

function draw() {
  document.title = titleFor(reason);
  let icon = document.querySelector('link[rel=icon]');
  if (!icon) icon = document.head.appendChild(Object.assign(document.createElement('link'), { rel: 'icon' }));
  icon.href = faviconFor(reason);
  document.documentElement.dataset.attention = reason ?? '';   // what the browser tests read
}

// `event`: 'move', 'start', 'end' or 'chat'. Nothing changes while the player looks at the tab.
export function notice(event) {
  const next = attend(reason, event, document.hidden);
  if (next === reason) return;
  reason = next;
  draw();
}

document.addEventListener('visibilitychange', () => { if (!document.hidden) notice('seen'); });
