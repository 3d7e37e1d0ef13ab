// The room's board and what goes with it, drawn from the room's state: the board (the version
// looked at, else the position played back so far), the caption under it, the turn guide, the
// move list, and the way back to the live game. Updates are played back by `play`, one at a
// time, as room.js takes them from the state's queue.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { createBoard, GAMES } from './boards/index.js';
import { createGuide } from './guide.js';
import { createMoveList } from './movelist.js';
import { describeUpdate } from './moves.js';
import { boardState, isLatest, moveLines } from './room_state.js';
import { botLevel } from './computer.js';

export function createRoomBoard({ section, act }) {
  const boardWrap = h('div', { class: 'board-wrap' });
  const caption = h('p', { class: 'caption', 'aria-live': 'polite', dataset: { testid: 'caption' } });
  const guideWrap = h('div');
  const moveList = createMoveList({ onSelect: act.view, onLive: act.live });
  let board = null, guide = null, boardKey = '';
  let shown = null;            // the state on the board
  let playing = null;          // the board playing an update back
  let captionKey = null;       // the update the caption tells
  const linesPut = new Map();  // version -> {entry, tokens, who, text}: a line of the move list, and what it tells
  let viewingKey = 'null|';    // the version looked at, and its note, as the move list shows them

  // A new board when the viewer's seat or the names change, or a position replaces the board's.
  function syncBoard({ state, room, me, names }) {
    const key = JSON.stringify([me, names, state.boardEpoch]);
    if (!board || key !== boardKey) newBoard(key, room, me, names);
    const position = boardState(state);
    if (!position) {
      if (!boardWrap.querySelector('.waiting')) boardWrap.replaceChildren(WAITING(room.rated));
      return;
    }
    if (board.element.parentNode !== boardWrap) boardWrap.replaceChildren(board.element);
    if (playing !== board && position !== shown) show(position);
  }

  function newBoard(key, room, me, names) {
    boardKey = key;
    board = createBoard({ game: room.game, options: room.options, viewerSeat: me, players: names });
    board.onCaption = (text) => { caption.textContent = text; };
    guide = createGuide({ board, send: act.move });
    guideWrap.replaceChildren(guide.element);
    shown = null;
  }

  function show(position) {
    shown = position;
    board.show(position);
  }

  function render(view) {
    if (!GAMES[view.room.game]) return;
    syncBoard(view);
    renderCaption(view);
    renderMoveList(view);
    renderGuide(view);
  }

  const describe = ({ room, names }, update) => describeUpdate(room.game, update ?? {}, names);

  // The caption tells the update played or looked at last (while one plays, the board tells
  // its steps there).
  function renderCaption(view) {
    const { state } = view;
    const key = `${state.caption}|${state.viewing}`;
    if (state.caption === null || key === captionKey) return;
    captionKey = key;
    const text = state.viewing === 0 ? t('replay.start_position') : describe(view, state.updates.get(state.caption));
    if (text) caption.textContent = text;
  }

  // Each line is put once, and again only when its words change (a turn's next decision); they
  // are worked out again only when its update or the names change.
  function renderMoveList(view) {
    const { state } = view;
    const who = view.names.join('\n');
    if (state.historyAsked && !moveList.has(0)) moveList.put({ version: 0, text: t('replay.game_starts') });
    for (const { version, entry, tokens, partial } of moveLines(state)) {
      const put = linesPut.get(version);
      if (put?.entry === entry && put.tokens === tokens && put.who === who) continue;
      const text = describe(view, { ...entry, tokens });
      linesPut.set(version, { entry, tokens, who, text });
      if (put?.text !== text) moveList.put({ version, text, partial });
    }
    const note = state.viewing === null ? ''
      : t('moves.showing', { n: moveList.lineOf(state.viewing), last: moveList.lines() });
    if (`${state.viewing}|${note}` === viewingKey) return;
    viewingKey = `${state.viewing}|${note}`;
    moveList.setViewing(state.viewing, note);
  }

  function renderGuide({ state, room, me, names }) {
    if (!guide) return;
    const position = state.shownState;
    const latest = isLatest(state);
    const myTurn = Boolean(position && latest && !state.busy && room.status === 'playing' && position.phase === 'play' &&
      position.to_move === me && me !== null);
    // What the browser tests wait for: the version on screen and whether this player may act.
    Object.assign(section.dataset, { room: room.id, status: room.status, version: room.version,
      settled: String(latest && !state.busy), myTurn: String(myTurn), phase: position?.phase ?? 'waiting' });
    guide.render(position, myTurn, state.viewing === null ? waitingText(state, names, me) : '');
    // Under the board too (on a phone the move list is far below): where we are, and the way back.
    guideWrap.querySelector('.step-back')?.remove();
    if (state.viewing !== null) {
      guideWrap.append(h('p', { class: 'step-back row', dataset: { testid: 'step-back-note' } },
        t('moves.looking_at', { n: moveList.lineOf(state.viewing), last: moveList.lines() }),
        h('button', { class: 'primary', dataset: { testid: 'back-to-live-board' }, onclick: act.live }, t('moves.back_to_live'))));
    }
  }

  // Plays an update back on the board: not while an earlier version is looked at, and at once
  // when more are waiting behind it.
  async function play(state, update) {
    if (!board || state.viewing !== null) return;
    if (state.queue.length > 3) { show(update.state); return; }
    // Which seat's update is being played back (a computer's like anyone's), for the tests.
    section.dataset.animatingSeat = String(update.seat ?? '');
    playing = board;
    await board.play(update.events ?? [], state.shownState, update.state);
    // A position may have replaced the board meanwhile (syncBoard): that one is shown already.
    if (playing === board) shown = update.state;
    playing = null;
    delete section.dataset.animatingSeat;
  }

  return {
    elements: { boardWrap, caption, guideWrap, moveList: moveList.element },
    render, play, resetGuide: () => guide?.reset(),
  };
}

// A rated room seats accounts only, never the computer.
const WAITING = (rated) => h('p', { class: 'waiting' }, t(rated ? 'moves.board_appears_rated' : 'moves.board_appears'));

// Under the board while another player is to move.
function waitingText(state, names, me) {
  const position = state.shownState;
  if (!position || state.room.status !== 'playing' || position.phase !== 'play' || position.to_move === me) return '';
  const mover = names[position.to_move];
  return t(botLevel(state.room.seats[position.to_move]) ? 'moves.thinking' : 'moves.waiting_for', { name: mover });
}
