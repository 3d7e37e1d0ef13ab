// The room's chat panel (issue 33), drawn from the room's state: the messages with name and
// time (a spectator's marked as such), a small "mute" and "report" beside someone else's, the
// muted players with a way back, the quick phrases, a text box (Enter sends) and why the last
// message was refused. The room's creator also turns spectators' chat off and on here.
// Messages go in as text only (dom.js): a link is shown as the letters typed, never as a link.
// `act`: {chat(text) -> Promise, mute(player), unmute(id), report(message), spectatorChat(on)}.
import { h } from './dom.js';
import { describeChatError } from './errors.js';
import { botLevel } from './computer.js';
import { accountMark } from './players.js';
import { chatLines } from './room_state.js';
import { CHAT_MAX, QUICK_PHRASES, chatText, isHost, mayWrite } from './chat_state.js';

// "14:05": the time a message was sent, in this computer's time zone.
export const chatTime = (at) => {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
};

// A message's time, name, account mark (a guest's has none), spectator mark and words; `tools` follow the words, out of the way.
export function chatLineParts(message, tools = []) {
  return [
    h('time', { class: 'chat-time', datetime: message.at }, chatTime(message.at)),
    h('span', { class: 'chat-name', dataset: { testid: 'chat-name' } }, message.name || 'Someone'),
    message.account === true ? accountMark('chat-account') : null,
    message.channel === 'spectators' ? h('span', { class: 'tag spectator', title: 'Written by a spectator' }, 'spectator') : null,
    h('span', { class: 'chat-text', dataset: { testid: 'chat-text' } }, message.text),
    tools.length ? h('span', { class: 'chat-tools' }, tools) : null,
  ];
}

export function createChatPanel(act) {
  const items = h('ol', { class: 'chat-items plain', 'aria-live': 'polite', dataset: { testid: 'chat-list' } });
  const mutedBox = h('div', { class: 'chat-muted', dataset: { testid: 'chat-muted' } });
  const note = h('p', { class: 'chat-note', dataset: { testid: 'chat-note' } });
  const problem = h('p', { class: 'chat-error', role: 'alert', dataset: { testid: 'chat-error' } });
  const input = h('input', { type: 'text', maxlength: CHAT_MAX, autocomplete: 'off', enterkeyhint: 'send',
    'aria-label': 'Message', dataset: { testid: 'chat-input' } });
  const sendButton = h('button', { type: 'submit', dataset: { testid: 'chat-send' } }, 'Send');
  const phrases = QUICK_PHRASES.map((text) => h('button', { type: 'button', class: 'quiet phrase',
    dataset: { testid: 'chat-phrase', phrase: text }, onclick: () => send(text, false) }, text));
  const hostBox = h('label', { class: 'chat-host', hidden: true });
  const toggle = h('input', { type: 'checkbox', dataset: { testid: 'spectator-chat-toggle' },
    onchange: () => act.spectatorChat(toggle.checked).then((done) => { if (!done) toggle.checked = !toggle.checked; }) });
  hostBox.append(toggle, ' Spectators may chat');
  const form = h('form', { class: 'chat-form', onsubmit: (event) => { event.preventDefault(); send(input.value, true); } }, input, sendButton);
  const element = h('section', { class: 'chat', 'aria-labelledby': 'chat-title', dataset: { testid: 'chat' } },
    h('div', { class: 'chat-head' }, h('h2', { id: 'chat-title' }, 'Chat'), hostBox),
    items, mutedBox, note, problem, h('div', { class: 'chat-phrases row' }, phrases), form);
  let drawnKey = null;

  // A quick phrase leaves what is being typed alone; the box is emptied once its text is sent.
  async function send(raw, typed) {
    const text = chatText(raw);
    if (!text) return;
    problem.textContent = '';
    try {
      await act.chat(text);
      if (typed && input.value === raw) input.value = '';
    } catch (error) {
      problem.textContent = describeChatError(error);
    }
  }

  function render({ state, room, me }) {
    const seated = me !== null;
    const { lines, hidden } = chatLines(state);
    const key = [lines, hidden, seated, room.status, room.spectator_chat, room.host_id, room.seats].map((part) => JSON.stringify(part)).join('|');
    if (key === drawnKey) return;
    drawnKey = key;
    const atBottom = items.scrollHeight - items.scrollTop - items.clientHeight < 40;
    items.replaceChildren(...(lines.length ? lines.map((line) => lineItem(line, room))
      : [h('li', { class: 'muted chat-empty' }, 'No messages yet.')]));
    if (atBottom) items.scrollTop = items.scrollHeight;
    renderMuted(hidden);
    renderAccess(state, room, seated);
  }

  function lineItem(message, room) {
    const tools = message.mine || bySomeComputer(room, message.player_id) ? [] : [
      h('button', { type: 'button', class: 'chat-tool', title: `Hide ${message.name}'s messages in this browser`,
        dataset: { testid: 'chat-mute' }, onclick: () => act.mute({ player_id: message.player_id, name: message.name }) }, 'mute'),
      h('button', { type: 'button', class: 'chat-tool', title: 'Report this message to the operator',
        dataset: { testid: 'chat-report' }, onclick: () => act.report(message) }, 'report'),
    ];
    return h('li', { class: `chat-line${message.channel === 'spectators' ? ' spectator' : ''}${message.mine ? ' mine' : ''}`,
      dataset: { testid: 'chat-line', player: message.player_id, channel: message.channel } }, chatLineParts(message, tools));
  }

  // "Muted: Bo (2 messages hidden) · Unmute" for each muted player who wrote here.
  function renderMuted(hidden) {
    mutedBox.replaceChildren(...hidden.map((player) => h('p', { class: 'row' },
      `Muted: ${player.name} (${player.count} message${player.count === 1 ? '' : 's'} hidden)`,
      h('button', { type: 'button', class: 'chat-tool', dataset: { testid: 'chat-unmute' },
        onclick: () => act.unmute(player.player_id) }, 'show'))));
  }

  // Who reads what is written here, and whether this member may write.
  function renderAccess(state, room, seated) {
    const host = isHost(room, state.playerId);
    hostBox.hidden = !host;
    toggle.checked = room.spectator_chat !== false;
    const open = mayWrite(room, seated);
    input.disabled = !open;
    sendButton.disabled = !open;
    for (const phrase of phrases) phrase.disabled = !open;
    input.placeholder = seated ? 'Message to everyone here' : 'Message to the spectators';
    note.textContent = !open ? 'The room\'s creator turned spectators\' chat off: you may read the players.'
      : seated && room.status === 'playing' && room.spectator_chat !== false
        ? 'Spectators\' messages show here once the game is over.' : '';
  }

  return { element, render };
}

// Computers never chat: nothing of theirs to mute or report (a guard all the same).
const bySomeComputer = (room, playerId) => room.seats.some((seat) => seat.player_id === playerId && botLevel(seat));
