// The room's chat panel (issue 33), drawn from the room's state: the messages with name and
// time (a spectator's marked as such), a small "mute" and "report" beside someone else's, the
// muted players with a way back, the quick phrases, a text box (Enter sends) and why the last
// message was refused. The room's creator also turns spectators' chat off and on here.
// Messages go in as text only (dom.js): a link is shown as the letters typed, never as a link.
// `act`: {chat(text) -> Promise, mute(player), unmute(id), report(message), spectatorChat(on)}.
import { h } from './dom.js';
import { t, formatTime } from './i18n/index.js';
import { describeChatError } from './errors.js';
import { botLevel } from './computer.js';
import { accountMark } from './players.js';
import { chatLines } from './room_state.js';
import { CHAT_MAX, QUICK_PHRASES, chatText, isHost, mayWrite } from './chat_state.js';

// "14:05": the time a message was sent, in this computer's time zone.
export const chatTime = (at) => formatTime(at);

// A message's time, name, account mark (a guest's has none), spectator mark and words; `tools` follow the words, out of the way.
export function chatLineParts(message, tools = []) {
  return [
    h('time', { class: 'chat-time', datetime: message.at }, chatTime(message.at)),
    h('span', { class: 'chat-name', dataset: { testid: 'chat-name' } }, message.name || t('chat.someone')),
    message.account === true ? accountMark('chat-account') : null,
    message.channel === 'spectators' ? h('span', { class: 'tag spectator', title: t('chat.by_spectator') }, t('chat.spectator')) : null,
    h('span', { class: 'chat-text', dataset: { testid: 'chat-text' } }, message.text),
    tools.length ? h('span', { class: 'chat-tools' }, tools) : null,
  ];
}

export function createChatPanel(act) {
  const items = h('ol', { class: 'chat-items plain', 'aria-live': 'polite', dataset: { testid: 'chat-list' } });
  const mutedBox = h('div', { class: 'chat-muted', dataset: { testid: 'chat-muted' } });
  const note = h('p', { class: 'chat-note', dataset: { testid: 'chat-note' } });
  const problem = h('p', { class: 'chat-error', role: 'alert', dataset: { testid: 'chat-error' } });
  // No maxlength: the browser would cut a pasted line silently at 280 characters; instead the
  // count shows once the line is long, and a line too long is refused with the limit said.
  const input = h('input', { type: 'text', autocomplete: 'off', enterkeyhint: 'send',
    'aria-label': t('chat.message'), 'aria-describedby': 'chat-count', dataset: { testid: 'chat-input' } });
  const count = h('span', { id: 'chat-count', class: 'chat-count', 'aria-live': 'polite', dataset: { testid: 'chat-count' } });
  const sendButton = h('button', { type: 'submit', dataset: { testid: 'chat-send' } }, t('chat.send'));
  // The phrases in the writer's language: each is sent as its words read here.
  const phrases = QUICK_PHRASES.map((_, i) => t(`chat.phrase_${i}`)).map((text) => h('button', { type: 'button', class: 'quiet phrase',
    dataset: { testid: 'chat-phrase', phrase: text }, onclick: () => send(text, false) }, text));
  const hostBox = h('label', { class: 'chat-host', hidden: true });
  const toggle = h('input', { type: 'checkbox', dataset: { testid: 'spectator-chat-toggle' },
    onchange: () => act.spectatorChat(toggle.checked).then((done) => { if (!done) toggle.checked = !toggle.checked; }) });
  hostBox.append(toggle, ` ${t('chat.spectators_may_chat')}`);
  const form = h('form', { class: 'chat-form', onsubmit: (event) => { event.preventDefault(); send(input.value, true); } }, input, sendButton);
  input.addEventListener('input', showCount);
  const element = h('section', { class: 'chat', 'aria-labelledby': 'chat-title', dataset: { testid: 'chat' } },
    h('div', { class: 'chat-head' }, h('h2', { id: 'chat-title' }, t('chat.title')), hostBox),
    items, mutedBox, note, problem, h('div', { class: 'chat-phrases row' }, phrases), form, count);
  let drawnKey = null;

  // A quick phrase leaves what is being typed alone; the box is emptied once its text is sent.
  async function send(raw, typed) {
    const text = chatText(raw);
    if (!text) return;
    const length = [...text].length;
    if (length > CHAT_MAX) { problem.textContent = t('chat.too_long', { max: CHAT_MAX, count: length }); return; }
    problem.textContent = '';
    try {
      await act.chat(text);
      if (typed && input.value === raw) { input.value = ''; showCount(); }
    } catch (error) {
      problem.textContent = describeChatError(error);
    }
  }

  // "250 / 280" from 250 characters on: the limit is seen before it is reached.
  function showCount() {
    const length = [...input.value.trim()].length;
    count.textContent = length >= CHAT_MAX - 30 ? t('chat.count', { count: length, max: CHAT_MAX }) : '';
    count.classList.toggle('over', length > CHAT_MAX);
  }

  function render({ state, room, me }) {
    const seated = me !== null;
    const { lines, hidden } = chatLines(state);
    const key = [lines, hidden, seated, room.status, room.spectator_chat, room.host_id, room.seats].map((part) => JSON.stringify(part)).join('|');
    if (key === drawnKey) return;
    drawnKey = key;
    const atBottom = items.scrollHeight - items.scrollTop - items.clientHeight < 40;
    items.replaceChildren(...(lines.length ? lines.map((line) => lineItem(line, room))
      : [h('li', { class: 'muted chat-empty' }, t('chat.empty'))]));
    if (atBottom) items.scrollTop = items.scrollHeight;
    renderMuted(hidden);
    renderAccess(state, room, seated);
  }

  function lineItem(message, room) {
    const tools = message.mine || bySomeComputer(room, message.player_id) ? [] : [
      h('button', { type: 'button', class: 'chat-tool', title: t('chat.mute_title', { name: message.name }),
        dataset: { testid: 'chat-mute' }, onclick: () => act.mute({ player_id: message.player_id, name: message.name }) }, t('chat.mute')),
      h('button', { type: 'button', class: 'chat-tool', title: t('chat.report_title'),
        dataset: { testid: 'chat-report' }, onclick: () => act.report(message) }, t('chat.report')),
    ];
    return h('li', { class: `chat-line${message.channel === 'spectators' ? ' spectator' : ''}${message.mine ? ' mine' : ''}`,
      dataset: { testid: 'chat-line', player: message.player_id, channel: message.channel } }, chatLineParts(message, tools));
  }

  // "Muted: Bo (2 messages hidden) · Unmute" for each muted player who wrote here.
  function renderMuted(hidden) {
    mutedBox.replaceChildren(...hidden.map((player) => h('p', { class: 'row' },
      t('chat.muted', { name: player.name, count: player.count }),
      h('button', { type: 'button', class: 'chat-tool', dataset: { testid: 'chat-unmute' },
        onclick: () => act.unmute(player.player_id) }, t('chat.show')))));
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
    // Short: a phone's box is narrow and a cut placeholder reads "Message to the specta…".
    input.placeholder = t(seated ? 'chat.placeholder_players' : 'chat.placeholder_spectators');
    note.textContent = !open ? t('chat.spectators_off')
      : seated && room.status === 'playing' && room.spectator_chat !== false ? t('chat.spectators_hidden') : '';
  }

  return { element, render };
}

// Computers never chat: nothing of theirs to mute or report (a guard all the same).
const bySomeComputer = (room, playerId) => room.seats.some((seat) => seat.player_id === playerId && botLevel(seat));
