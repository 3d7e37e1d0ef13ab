// How the game stands and ends, drawn from the room's state: the game's own score panel (Coin
// Duel's rounds) or the table of rounds, the announcement of a round that ended, and once the
// last update has been played back the result banner with Rematch, New game and Analyse.
// `view`: {state, room, names, me, act} (room_view.js).
import { h, morph } from './dom.js';
import { t, formatList } from './i18n/index.js';
import { GAMES } from './boards/index.js';
import { roundsTable } from './rounds.js';
import { resultBanner } from './result.js';
import { animating } from './room_state.js';
import { botLevel } from './computer.js';
import { ratingChanges } from './rating_change.js';

export function renderScores(box, { room, names }) {
  const panel = room.state && GAMES[room.game]?.panel?.({ state: room.state, options: room.options, names });
  box.replaceChildren(panel || roundsTable(room.state?.rounds, names) || '');
}

// A round that ends is announced above the board, and the words stay there during the next
// round (the computer may have played its first turn before the player has read them); the
// result banner takes over at the end of the game.
export function renderRoundEnd(box, { state, room, names }) {
  const text = GAMES[room.game]?.roundEndText?.(state.roundEnd, names);
  box.textContent = text ?? '';
  box.hidden = !text || room.state?.phase === 'over';
}

// The banner once the last update has been played back: the result, Rematch and New game.
export function renderResult(slot, view) {
  const { state, room, names, later } = view;
  if (room.status !== 'finished' || !room.state?.result || animating(state)) { slot.replaceChildren(); return; }
  morph(slot, [resultBanner({ game: room.game, options: room.options, state: room.state, names,
    notes: ratingChanges(room, names, () => later(0)),
    lastUpdate: state.updates.get(room.version), actions: [...rematchControls(view),
      h('a', { class: 'button', href: `#/?game=${encodeURIComponent(room.game)}`, dataset: { testid: 'new-game-button' } }, t('result.new_game')),
      // The game's record is the room's id: its viewer, asking the engine at once (issue 32).
      h('a', { class: 'button', href: `#/history/${encodeURIComponent(room.id)}?analyse`, dataset: { testid: 'analyse-game' } }, t('result.analyse'))] })]);
}

function rematchControls({ state, room, names, me, act }) {
  if (room.rematch) {
    return [h('a', { class: 'button primary', href: `#/room/${room.rematch}`, dataset: { testid: 'rematch-link' } }, t('result.go_to_rematch'))];
  }
  const asked = state.rematchSeats.filter((seat) => !botLevel(room.seats[seat]));
  const who = asked.map((seat) => (seat === me ? t('result.you') : names[seat]));
  const note = who.length ? h('span', { class: 'rematch-status', dataset: { testid: 'rematch-status' } },
    t(asked.includes(me) ? 'result.rematch_asked_waiting' : 'result.rematch_asked', { who: formatList(who), count: who.length })) : null;
  if (me === null) return [note].filter(Boolean);
  const mine = state.rematchSeats.includes(me);
  const offered = asked.length && !mine;
  return [h('button', { class: 'primary', disabled: mine || undefined, dataset: { testid: 'rematch' },
    onclick: act.rematch }, t(mine ? 'result.rematch_sent' : offered ? 'result.accept_rematch' : 'result.rematch')), note].filter(Boolean);
}
