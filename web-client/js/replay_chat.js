// The chat of a stored game beside the history viewer's board (issue 33): every message the
// viewer could have read live, each said to come after the move it followed (chat_state.js
// `placeChat`); those sent after the step shown are faded, those sent right after it stand out,
// so stepping through the game reads the conversation along with the moves. A click on "after
// move 3" shows that step (`onSelect(version)`).
import { h } from './dom.js';
import { placeChat } from './chat_state.js';
import { chatLineParts } from './chat_panel.js';

export function createReplayChat(record, onSelect) {
  const placed = placeChat(record.chat ?? [], record.turns ?? [], record.finished);
  const items = h('ol', { class: 'chat-items plain', dataset: { testid: 'replay-chat-list' } });
  const element = h('section', { class: 'chat replay-chat', 'aria-labelledby': 'replay-chat-title', dataset: { testid: 'replay-chat' } },
    h('div', { class: 'chat-head' }, h('h2', { id: 'replay-chat-title' }, 'Chat')), items);
  const rows = placed.map((message) => h('li', { class: `chat-line${message.channel === 'spectators' ? ' spectator' : ''}`,
    dataset: { testid: 'replay-chat-line', version: message.version } },
  h('button', { type: 'button', class: 'chat-when', title: 'Show the board at that step', onclick: () => onSelect(message.version) },
    whenText(message)), chatLineParts(message)));
  items.replaceChildren(...(rows.length ? rows : [h('li', { class: 'muted chat-empty' }, 'Nobody wrote in this game\'s chat.')]));

  // `version`: the step the board shows.
  function show(version) {
    let lastShown = null;
    placed.forEach((message, i) => {
      const later = message.version > version;
      rows[i].classList.toggle('later', later);
      rows[i].classList.toggle('current', !later && message.version === version && version > 0);
      rows[i].dataset.shown = String(!later);
      if (!later) lastShown = rows[i];
    });
    // The list scrolls by itself (never the page) to the last message sent by then.
    if (lastShown) items.scrollTop = Math.max(0, lastShown.offsetTop + lastShown.offsetHeight - items.clientHeight);
  }

  return { element, show, empty: placed.length === 0 };
}

function whenText({ version, afterEnd }) {
  if (afterEnd) return 'after the game';
  return version === 0 ? 'before the first move' : `after move ${version}`;
}
