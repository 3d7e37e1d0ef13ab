// What a player may do in the room besides moving, drawn from its state: leave a waiting room,
// resign, the game's special actions (from /api/game-types, in its module's words), claim a game
// whose player to move has left, play the computer again; the rules and the history viewer; and
// the invite link of a private room. `view`: {state, room, names, me, act, later} (room_view.js).
import { h, clear, morph, toast } from './dom.js';
import { t } from './i18n/index.js';
import { GAMES } from './boards/index.js';
import { specialActions } from './catalog.js';
import { rulesButton } from './rules.js';
import { botLevel } from './computer.js';

export function renderActions(box, view) {
  const { room, me, act } = view;
  const parts = [];
  if (me === null) parts.push(h('p', { class: 'muted' }, t('room.you_watch')));
  if (room.status === 'waiting') parts.push(button(t('room.leave'), 'leave', act.leave));
  if (room.status === 'playing' && me !== null) {
    parts.push(...absence(view));
    parts.push(button(t('room.resign'), 'resign', () => act.ask(t('room.resign_question'), { type: 'resign', room: room.id })));
    parts.push(...offeredActions(view));
  }
  if (room.status === 'finished' && me !== null && room.seats.some(botLevel)) {
    parts.push(h('button', { class: 'primary', dataset: { testid: 'play-computer-again' }, onclick: act.playComputer },
      t('room.play_computer_again')));
  }
  parts.push(rulesButton(room.game));
  if (room.status !== 'waiting') {
    parts.push(h('a', { class: 'button quiet', href: `#/history/${room.id}` }, t('room.open_in_viewer')));
  }
  // Drawn again every second while an opponent is away: morph keeps the focused button.
  morph(box, parts);
}

// The special actions the server lists for this game, where and as its module offers them.
function offeredActions({ room, act }) {
  return specialActions(room.game).flatMap(({ name }) => {
    const words = GAMES[room.game]?.specialActions?.[name];
    return words?.offered(room) ? [button(words.label, name, () => act.ask(words.question, { type: name, room: room.id }))] : [];
  });
}

// The player to move has left: a countdown to the end of the grace time, then the claim.
// `later(ms)` draws the actions again then.
function absence({ room, me, act, later }) {
  const absent = room.seats[room.state?.to_move];
  if (!absent || absent.seat === me || botLevel(absent) || absent.connected !== false || room.state?.phase !== 'play') return [];
  const left = absent.grace_until ? Math.ceil((Date.parse(absent.grace_until) - Date.now()) / 1000) : 0;
  // With two seats the claim wins the game; with more, the absent player is out of it.
  const duel = room.seats.length === 2;
  const note = (text) => h('p', { class: 'absence', dataset: { testid: 'absence' } }, text);
  if (left > 0) {
    later(1000);
    return [note(t(duel ? 'room.away_claim_win_in' : 'room.away_put_out_in', { name: absent.name, count: left }))];
  }
  return [note(t('room.away_gone', { name: absent.name })),
    h('button', { class: 'primary', dataset: { testid: 'claim-abandon' }, onclick: () => act.claimAbandon(absent.seat) },
      duel ? t('room.claim_win') : t('room.put_out', { name: absent.name }))];
}

function button(text, testid, onclick) {
  return h('button', { class: 'quiet', dataset: { testid }, onclick }, text);
}

export function renderInvite(box, { room }) {
  if (!room.private || !room.invite || room.status !== 'waiting') { clear(box); return; }
  const link = `${location.origin}${location.pathname}#/join/${room.invite}`;
  const field = h('input', { readonly: true, value: link, id: 'invite-link', dataset: { testid: 'invite-link' },
    onfocus: (e) => e.target.select() });
  const copy = h('button', { dataset: { testid: 'copy-invite' }, onclick: async () => {
    try { await navigator.clipboard.writeText(link); toast(t('room.invite_copied'), 'notice'); }
    catch { field.select(); document.execCommand?.('copy'); toast(t('room.invite_selected'), 'notice'); }
  } }, t('room.copy'));
  morph(box, [h('label', { for: 'invite-link' }, t('room.invite_label')), h('div', { class: 'row' }, field, copy)]);
}
