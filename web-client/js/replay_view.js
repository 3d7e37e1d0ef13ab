// The history viewer: steps through a game version by version, animating each move from its
// stored events, with the move list, the seats and the game's chat beside; and since issue 32
// the engine's analysis above the board (analysis_panel.js), the marks in the move list, the
// best move pointed out on the board, what-if play from any position (whatif.js) and the record
// as text. The same viewer shows a stored game and a record imported as text: `source` says
// where its analysis, what-if and text come from (analysis_api.js).
import { h, toast } from './dom.js';
import { t } from './i18n/index.js';
import { gameName } from './catalog.js';
import { createBoard, seatLabels, movePlaces } from './boards/index.js';
import { COLORS } from './boards/view.js';
import { seatScore } from './scores.js';
import { roundsTable } from './rounds.js';
import { resultBanner } from './result.js';
import { historyUpdate, actionsByVersion, describeAction } from './moves.js';
import { clockText } from './clock.js';
import { nameLink, playerMarks } from './players.js';
import { playerProfile } from './account_api.js';
import { createReplayChat } from './replay_chat.js';
import { createMoveList } from './movelist.js';
import { playerName } from './computer.js';
import { createGuide } from './guide.js';
import { createAnalysisPanel } from './analysis_panel.js';
import { createWhatIf } from './whatif.js';
import { positionAt, markOfMove, isDone } from './analysis_state.js';
import { evalWords, bestWords, markedMoveWords, accuracyWords } from './analysis_words.js';
import { saveText } from './analysis_api.js';

export const playerNames = (players, game, options) => {
  const labels = seatLabels(game, options);
  const byName = (seat) => (Array.isArray(players) ? players.find((p) => p?.seat === seat)?.name ?? players[seat] : players?.[seat]);
  const plain = labels.map((label, seat) => {
    const name = byName(seat);
    return typeof name === 'string' && name ? playerName(name) : label;
  });
  // Computers of the same level share a name: they say their seat too, as in the room.
  return plain.map((name, seat) => (plain.filter((other) => other === name).length > 1 ? `${name} (${labels[seat]})` : name));
};

// The person at each seat as the record lists them, completed from their profile: an account or
// a guest, and their rating in this game now. The profile is asked by player id where the record
// gives one, else by name (which finds accounts only: their names are unique).
async function seatPeople(players, count, game) {
  return Promise.all(Array.from({ length: count }, async (_, seat) => {
    const entry = Array.isArray(players) ? players.find((p) => p?.seat === seat) ?? players[seat] : players?.[seat];
    const player = typeof entry === 'string' ? { name: entry } : entry;
    const key = player?.player_id ?? player?.name;
    if (!key || player.bot || String(player.player_id).startsWith('bot-')) return player ?? null;
    const profile = await playerProfile(key).catch(() => null);
    return profile ? { ...player, player_id: profile.player_id, name: profile.name, account: profile.account, ...profile.ratings?.[game] } : player;
  }));
}

// main: the page's <main>; record: the game; positions: its states (positions.js: state v after
// v actions, fetched a page at a time); source: analysis_api.js; links: nodes for the header
// (the way back); analyse: ask for the analysis at once; people: look the players' profiles up
// (a stored game's players; not an import's names). Returns the function that stops it
// (polling) when the page is left.
export function showViewer(main, { record, positions, source, links = [], analyse = false, people: lookUp = true }) {
  const game = record.game;
  const options = record.options ?? {};
  const names = playerNames(record.players, game, options);
  const turns = actionsByVersion(record.turns);
  const last = positions.total - 1;
  const board = createBoard({ game, options, viewerSeat: null, players: names });
  let version = 0, playing = false;
  let people = [];             // by seat, once their profiles are known (seatPeople)
  let marksShown = false;      // the move list has the analysis's marks
  // The chat its viewer could read live; none from a server before chat, nor in an import.
  const chat = Array.isArray(record.chat) ? createReplayChat(record, (target) => go(target)) : null;

  const slider = h('input', { type: 'range', min: 0, max: last, value: 0, id: 'replay-slider',
    dataset: { testid: 'replay-slider' }, 'aria-label': t('replay.version') });
  const where = h('p', { class: 'replay-where', dataset: { testid: 'replay-where' }, 'aria-live': 'polite' });
  const caption = h('p', { class: 'caption', dataset: { testid: 'replay-caption' } });
  const seatsBox = h('ol', { class: 'seats' });
  const scoreBox = h('div', { class: 'score-box' });
  const control = (text, testid, target) => h('button', { dataset: { testid }, 'aria-label': text,
    onclick: () => go(target()) }, text);
  const moveList = createMoveList({ onSelect: (target) => go(target) });
  const whatIf = createWhatIf({ source, game, onChange: () => showPosition() });
  const analysis = createAnalysisPanel({ source, last, seats: names.length, names, onSelect: (target) => go(target),
    playing: record.status === 'playing',
    onChange: (state) => {
      // The marks once, when the analysis is done (polls would redraw the list under the reader).
      if (isDone(state) && !marksShown) { marksShown = true; renderMarks(); }
      renderInfo();
      renderHint();
    } });
  // Moves are tried on the board as in the room: the guide makes the legal ones clickable.
  const guide = createGuide({ board, whose: (state) => (names[state.to_move] ? t('replay.try_for', { name: names[state.to_move] }) : t('replay.try_for_mover')),
    send: (token) => whatIf.play(whatIf.active() ? whatIf.at() : version, token) });
  board.onCaption = (text) => { caption.textContent = text; };

  const section = h('section', { class: 'replay', dataset: { testid: 'replay' } },
    h('header', { class: 'room-head' }, h('h1', {}, `${gameName(game)}: ${names.join(t('history.vs'))}`), links),
    h('div', { class: 'room-body' },
      h('div', { class: 'play-area' }, analysis.element, h('div', { class: 'board-wrap' }, board.element), caption,
        whatIf.element, guide.element,
        h('div', { class: 'replay-controls row' },
          control(t('replay.first'), 'replay-first', () => 0),
          control(t('replay.previous'), 'replay-prev', () => version - 1),
          control(t('replay.next'), 'replay-next', () => version + 1),
          control(t('replay.last'), 'replay-last', () => last)),
        slider, where),
      h('aside', { class: 'side' }, seatsBox, recordLinks(source), moveList.element, analysis.help, scoreBox, chat?.element)));
  main.replaceChildren(section);
  slider.addEventListener('input', () => go(Number(slider.value)));

  // Shows version `target` of the game line (leaving a what-if line); a step forward is animated.
  // Its states are fetched first when they are not here yet; meanwhile no other step starts.
  async function go(target) {
    target = Math.max(0, Math.min(last, target));
    if (playing) return;
    if (whatIf.active()) whatIf.leave();
    else if (target === version && board.shown) return;
    const step = target === version + 1;
    if (!positions.get(target) || (step && !positions.get(target - 1))) {
      playing = true;
      try {
        await positions.load(target);
      } catch (error) {
        slider.value = String(version);
        toast(error.status === 429 ? t('replay.too_many_positions') : error.message);
        return;
      } finally {
        playing = false;
      }
    }
    version = target;
    slider.value = String(version);
    renderInfo();
    if (step) {
      playing = true;
      guide.render(positions.get(version), false);
      board.highlight([], 'hint');
      await board.play(turns.get(version)?.events ?? [], positions.get(version - 1), positions.get(version));
      playing = false;
    }
    showPosition();
  }

  // The board as it stands: the what-if line's position while one is tried, else the game's; the
  // guide offers its legal moves and the engine's best move is pointed out.
  function showPosition() {
    const tried = whatIf.latest();
    const state = tried?.state ?? positions.get(version);
    board.show(state);
    board.shown = true;
    const open = state.phase === 'play' && (state.legal ?? []).length > 0 && !whatIf.busy();
    guide.render(state, open);
    const hint = currentHint();
    board.highlight(hint?.best ? movePlaces(board, hint.best, state) : [], 'hint');
    section.dataset.whatif = String(Boolean(tried));
    // The caption tells the game's moves; a what-if line is told in its own box.
    caption.textContent = tried ? '' : describeStep(version);
    renderInfo();
    section.dataset.version = String(version);
    moveList.setViewing(version);
    analysis.show(tried ? whatIf.at() : version);
    renderHint();
  }

  // The engine's view of the position shown: the what-if answer, else the game's analysis.
  function currentHint() {
    const tried = whatIf.latest();
    if (tried) return tried.analysis ?? null;
    return isDone(analysis.state()) ? positionAt(analysis.state(), version) : null;
  }

  // Under the graph: how the position stands, the best move, and what the move to it cost.
  function renderHint() {
    const hint = currentHint();
    const tried = whatIf.latest();
    const before = tried ? null : positionAt(analysis.state(), version - 1);
    const marked = markedMoveWords(game, version, before, version > 0 ? names[positions.get(version - 1)?.to_move] : '');
    analysis.hint.replaceChildren(...[
      hint ? h('p', { class: 'hint-eval', dataset: { testid: 'hint-eval' } }, tried ? t('replay.engine') : '',
        evalWords(hint.eval, names, hint.exact)) : null,
      hint?.best ? h('p', { class: 'hint-best', dataset: { testid: 'hint-best' } }, bestWords(game, hint.best, names[(tried?.state ?? positions.get(version))?.to_move])) : null,
      marked ? h('p', { class: `hint-mark mark-${before.mark}`, dataset: { testid: 'hint-mark' } }, marked,
        before.best ? h('button', { type: 'button', class: 'small', dataset: { testid: 'try-better' }, onclick: () => tryBetter() },
          t('replay.try_better')) : null) : null,
    ].filter(Boolean));
  }

  // From the position before a marked move, the engine's better move, as a what-if.
  async function tryBetter() {
    const better = positionAt(analysis.state(), version - 1)?.best;
    if (!better) return;
    await go(version - 1);
    whatIf.play(version, better);
  }

  function describeStep(v) {
    if (v === 0) return t('replay.start_position');
    const turn = turns.get(v);
    return turn ? describeAction(game, turn, names) : '';
  }

  function renderMarks() {
    moveList.put({ version: 0, text: t('replay.game_starts') });
    for (let v = 1; v <= last; v += 1) moveList.put({ version: v, text: describeStep(v) || t('replay.move', { n: v }), mark: markOfMove(analysis.state(), v) });
    moveList.setViewing(version);
  }

  // The seats as the board stands (a what-if position too).
  function renderInfo() {
    const state = whatIf.latest()?.state ?? positions.get(version);
    const accuracy = analysis.state().accuracy;
    where.textContent = t('replay.move_of', { n: version, last });
    chat?.show(version);
    seatsBox.replaceChildren(...names.map((name, seat) => {
      const score = seatScore(game, options, state, seat);
      // Each seat in its colour on the board, as in the room.
      return h('li', { class: `seat${state.to_move === seat ? ' to-move' : ''}`, style: `--seat: ${COLORS[seat]}` },
        h('span', { class: 'seat-name', dataset: { testid: `replay-name-${seat}` } }, people[seat] ? nameLink(people[seat], name) : name),
        people[seat] ? playerMarks(people[seat], { testid: `replay-rating-${seat}` }) : null,
        score ? h('span', { class: 'seat-score' }, h('strong', {}, score.value), ` ${score.unit}`) : null,
        // The clock as it stood right after this version.
        state.clock ? h('span', { class: 'clock', dataset: { testid: `replay-clock-${seat}` } }, clockText(state.clock.remaining_ms[seat])) : null,
        // A seat without moves (resigned before its first) has no accuracy.
        typeof accuracy?.[seat] === 'number' ? h('span', { class: 'accuracy', dataset: { testid: `accuracy-${seat}` } }, accuracyWords(accuracy[seat])) : null);
    }));
    scoreBox.replaceChildren(...[state.result ? resultBanner({ game, options, state, names,
      lastUpdate: turns.get(version) ? historyUpdate(turns.get(version)) : null }) : null,
      roundsTable(state.rounds, names)].filter(Boolean));
  }

  renderMarks();
  renderInfo();
  if (lookUp) seatPeople(record.players, names.length, game).then((found) => { people = found; renderInfo(); });
  showPosition();
  analysis.load(analyse);
  return () => analysis.stop();
}

// The record as text: a download, and the way to bring a game from elsewhere.
function recordLinks(source) {
  const download = h('a', { class: 'button quiet small', href: source.recordHref ?? '#', download: source.fileName,
    dataset: { testid: 'download-record' },
    onclick: async (event) => {
      event.preventDefault();
      try { saveText(source.fileName, await source.recordText()); } catch (error) { toast(error.message); }
    } }, t('replay.download'));
  return h('p', { class: 'record-links row' }, download,
    h('a', { class: 'button quiet small', href: '#/import', dataset: { testid: 'import-link' } }, t('replay.import')));
}
