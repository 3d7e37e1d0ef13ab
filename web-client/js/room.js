// A room: its seats and clocks, the board, the turn guide, the move list, scores and the result
// banner with Rematch. Keeps in step with the server through `room` and `update` messages,
// animating each update's events in order; a click in the move list shows an earlier position
// while updates keep arriving.
import { h, clear, toast } from './dom.js';
import { createBoard, seatLabels, GAMES } from './boards/index.js';
import { createGuide } from './guide.js';
import { gameName, specialActions, claimWindows, allClaimWindows } from './catalog.js';
import { describeError } from './errors.js';
import { seatScore } from './scores.js';
import { roundsTable } from './rounds.js';
import { resultBanner } from './result.js';
import { describeUpdate, historyUpdate } from './moves.js';
import { createMoveList } from './movelist.js';
import { createClocks, holdClock, timeControlText } from './clock.js';
import { fetchGame } from './api.js';
import { rulesButton } from './rules.js';
import { seats as seatStore, invites, identity } from './storage.js';
import { beep } from './sound.js';
import { COLORS } from './boards/view.js';
import { LEVELS, levelLabel, levelWord, botLevel, occupied, seatName, computerIcon, openPlayComputer } from './computer.js';

export function showRoom(main, app, { roomId, invite }) {
  const conn = app.conn;
  let room = null;            // the latest room message, with state/version kept current
  let shownState = null;      // the state the board shows (behind `room.state` while animating)
  let board = null, guide = null, boardKey = '';
  let queue = [], animating = false, busy = false;
  let plex = null;            // {name, window, deadline} while a claim race (Njaka's Plex!) is open
  const timers = new Set();
  let absenceTimer = null;
  const positions = new Map(); // version -> state, for stepping back
  const updates = new Map();   // version -> {seat, action, tokens, events}
  let viewing = null;          // the version shown instead of the live one, or null
  let held = null;             // the latest clock (clock.js)
  let rematchSeats = [];       // seats that asked for a rematch
  let historyAsked = false;
  const clocks = createClocks(() => held, (seat) => names()[seat]);
  const moveList = createMoveList({ onSelect: (version) => viewVersion(version), onLive: () => goLive() });
  const resultSlot = h('div', { class: 'result-slot' });
  // On phones the seat list is below the board: the clocks are repeated above it.
  const clockBar = h('div', { class: 'clock-bar', hidden: true, dataset: { testid: 'clock-bar' } });

  const title = h('h1', { dataset: { testid: 'room-title' } }, 'Joining…');
  const status = h('p', { class: 'room-status', dataset: { testid: 'room-status' } });
  const inviteBox = h('div', { class: 'invite' });
  const seatList = h('ol', { class: 'seats', dataset: { testid: 'seats' } });
  const boardWrap = h('div', { class: 'board-wrap' });
  const caption = h('p', { class: 'caption', 'aria-live': 'polite', dataset: { testid: 'caption' } });
  const guideWrap = h('div');
  const plexBox = h('div', { class: 'plex', hidden: true, dataset: { testid: 'plex' } });
  const roundBox = h('p', { class: 'round-end', role: 'status', hidden: true, dataset: { testid: 'round-announcement' } });
  const actions = h('div', { class: 'actions' });
  const scoreBox = h('div', { class: 'score-box' });
  const section = h('section', { class: 'room', dataset: { testid: 'room' } },
    h('header', { class: 'room-head' }, title, status, inviteBox),
    resultSlot,
    h('div', { class: 'room-body', dataset: { testid: 'room-body' } },
      h('div', { class: 'play-area' }, clockBar, roundBox, boardWrap, caption, guideWrap, plexBox),
      h('aside', { class: 'side' }, seatList, actions, moveList.element, scoreBox)));
  main.replaceChildren(section);

  const mySeat = () => room?.seats.find((seat) => seat.player_id === app.me()?.player_id)?.seat ?? null;
  // Names by seat. Computers of the same level share the server's name ("Computer, level 3"),
  // so those say their seat instead (the seat list still shows their level).
  const names = () => {
    const labels = seatLabels(room.game, room.options);
    const plain = labels.map((label, i) => seatName(room.seats[i]) || label);
    return plain.map((name, i) => (botLevel(room.seats[i]) && plain.filter((other) => other === name).length > 1
      ? `Computer (${labels[i]})` : name));
  };

  // --- messages from the server --------------------------------------------------------------
  // `ours`: the reply to our own join (an invite names no room id until this reply).
  function onRoom(message, ours = false) {
    const next = message.room;
    if (!ours && next.id !== roomId) return;
    roomId = next.id;
    const newer = !room || next.version > room.version || (next.state && !room.state);
    const rematchNew = Boolean(room && !room.rematch && next.rematch);
    // Same version: keep the state already shown (it is the same position).
    room = { ...room, ...next, state: newer ? next.state : room.state };
    if (next.invite) invites.set(room.id, next.invite);
    seatStore.set(room.id, mySeat());
    if ('clock' in next) held = holdClock(next.clock ?? next.state?.clock ?? null);
    if (room.state) positions.set(room.version, room.state);
    if (newer) { queue = []; shownState = room.state; if (viewing === null) buildBoard(true); }
    render();
    loadHistory();
    // Everyone asked for a rematch: the new room's message came first; go there.
    if (rematchNew) { moveToRematch(room.rematch); return; }
    // A player already away when we arrived: show the claim when their grace time ends.
    for (const seat of room.seats) {
      if (!seat.connected && seat.grace_until) later(Date.parse(seat.grace_until) - Date.now() + 200, render);
    }
  }

  function onUpdate(update) {
    if (!room || update.room !== room.id || update.version <= room.version) return;
    if (update.version > room.version + 1) { resync(); return; }
    room.version = update.version;
    room.state = update.state;
    if (update.state && 'clock' in update.state) held = holdClock(update.state.clock);
    remember(update.version, update, update.state);
    if (update.state?.phase === 'over') room.status = 'finished';
    const claim = claimWindows(room.game).find((name) => update.action === name || update.action === `${name}_timeout`);
    if (claim) showPlexResult(claim, update.events);
    announceRound(update);
    queue.push(update);
    pump();
  }

  function onPresence(message) {
    if (!room || message.room !== room.id) return;
    const seat = room.seats[message.seat];
    if (!seat) return;
    seat.connected = message.connected;
    seat.grace_until = message.connected ? null : message.grace_until;
    render();
    if (!message.connected && message.grace_until) {
      later(Date.parse(message.grace_until) - Date.now() + 200, render);
    }
  }

  function onPlexOpen(name, message) {
    if (!room || message.room !== room.id) return;
    plex = { name, window: message.window, deadline: Date.now() + message.deadline_ms, total: message.deadline_ms, mover: message.mover };
    renderPlex();
    if (mySeat() !== null) beep();
  }

  async function resync() {
    if (!room) return;
    try {
      const reply = await conn.request({ type: 'sync', room: room.id, since: room.version });
      if (reply.type === 'updates') for (const update of reply.updates) onUpdate(update);
    } catch (error) { toast(describeError(error)); }
  }

  // After a dropped connection: seated players get their `room` message by themselves;
  // spectators ask to watch again. Then catch up on what was missed.
  async function onWelcomeAgain() {
    if (!room) return;
    if (mySeat() === null) await join({ spectate: true }).catch(() => {});
    resync();
  }

  // --- the animation queue ------------------------------------------------------------------
  async function pump() {
    if (animating) return;
    animating = true;
    render();
    while (queue.length) {
      const update = queue.shift();
      buildBoard(false);
      if (viewing !== null) { shownState = update.state; continue; }   // stepping back: no playback
      if (queue.length > 2) board.show(update.state);
      else {
        // Which seat's update is being played back (a computer's like anyone's), for the tests.
        section.dataset.animatingSeat = String(update.seat ?? '');
        await board.play(update.events ?? [], shownState, update.state);
        delete section.dataset.animatingSeat;
      }
      shownState = update.state;
      status.textContent = statusText();
      renderGuide();
      if (viewing !== null) board.show(positions.get(viewing));   // a click came during playback
      else caption.textContent = describe(update) || caption.textContent;
    }
    animating = false;
    render();
  }

  // --- the move list and stepping back --------------------------------------------------------
  const describe = (update) => describeUpdate(room.game, update, names());
  const isPartial = (entry) => Boolean(entry && !entry.events.length && entry.tokens && (entry.action ?? 'move') === 'move');

  function remember(version, update, state) {
    if (state) positions.set(version, state);
    if (!update) return;
    const entry = { seat: update.seat, action: update.action, tokens: update.tokens ?? '', events: update.events ?? [] };
    updates.set(version, entry);
    const partial = isPartial(entry);
    // A turn still being played is one line with its decisions so far.
    let tokens = entry.tokens;
    for (let v = version - 1; partial && isPartial(updates.get(v)) && updates.get(v).seat === entry.seat; v -= 1) {
      tokens = `${updates.get(v).tokens} ${tokens}`;
    }
    moveList.put({ version, text: describe({ ...entry, tokens }), partial });
    if (viewing !== null) moveList.setViewing(viewing, viewingText());
  }

  const viewingText = () => `Showing move ${moveList.lineOf(viewing)} of ${moveList.lines()}. The game goes on meanwhile.`;

  // Versions before this page opened come from the history API (positions and turns in words).
  async function loadHistory() {
    if (historyAsked || !room?.state || room.version === 0 && room.status !== 'playing') return;
    historyAsked = true;
    if (!moveList.has(0)) moveList.put({ version: 0, text: 'The game starts.' });
    if (room.version === 0) { positions.set(0, room.state); return; }
    const game = await fetchGame(room.id, identity.get()?.token).catch(() => null);
    if (!game) return;
    game.states.forEach((state, version) => { if (!positions.has(version)) positions.set(version, state); });
    for (const turn of game.record.turns ?? []) {
      if (turn.version !== undefined && !updates.has(turn.version)) remember(turn.version, historyUpdate(turn), null);
    }
    if (!animating && viewing === null && room.version > 0) caption.textContent ||= describe(updates.get(room.version) ?? {});
  }

  function viewVersion(version) {
    if (!positions.has(version)) return;
    if (version === room.version && !animating) { goLive(); return; }
    viewing = version;
    buildBoard(false);
    board.show(positions.get(version));
    caption.textContent = version === 0 ? 'The starting position.' : describe(updates.get(version) ?? {});
    moveList.setViewing(version, viewingText());
    render();
  }

  function goLive() {
    viewing = null;
    moveList.setViewing(null);
    if (!animating) {
      shownState = room.state;
      buildBoard(false);
      board.show(shownState);
      caption.textContent = describe(updates.get(room.version) ?? {});
    }
    render();
  }

  // --- drawing ------------------------------------------------------------------------------
  function buildBoard(force) {
    if (!room || !GAMES[room.game]) return;
    const key = JSON.stringify([mySeat(), names()]);
    if (!board || force || key !== boardKey) {
      boardKey = key;
      board = createBoard({ game: room.game, options: room.options, viewerSeat: mySeat(), players: names() });
      board.onCaption = (text) => { caption.textContent = text; };
      guide = createGuide({ board, send: sendMove });
      guideWrap.replaceChildren(guide.element);
      if (shownState) {
        boardWrap.replaceChildren(board.element);
        board.show(shownState);
      } else {
        boardWrap.replaceChildren(h('p', { class: 'waiting' }, 'The board appears when every seat is taken, by a person or the computer.'));
      }
    }
  }

  function render() {
    if (!room) return;
    title.textContent = gameName(room.game);
    status.textContent = statusText();
    renderInvite();
    renderSeats();
    renderClockBar();
    renderActions();
    renderScores();
    renderResult();
    renderGuide();
    renderPlex();
    clocks.tick();
  }

  // Said of the position on the board: while moves are played back it is behind the server's,
  // and the status must agree with the prompt under the board (issue 17, bug 8).
  function statusText() {
    const watchers = room.spectators ? ` · ${room.spectators} watching` : '';
    const control = room.time_control ? ` · ${timeControlText(room.time_control)}` : '';
    const state = animating && shownState ? shownState : room.state;
    if (room.status === 'waiting') return `Waiting for players${control}${watchers}`;
    if (room.status === 'finished' && (!animating || state?.phase === 'over')) return `Game over${watchers}`;
    const round = state?.round > 1 || GAMES[room.game]?.roundShown?.(room.options) ? `Round ${state.round} · ` : '';
    if (GAMES[room.game]?.claims?.[state?.phase]) return `${round}${GAMES[room.game].claims[state.phase].banner}${watchers}`;
    return `${round}${names()[state?.to_move] ?? ''} to move${control}${watchers}`;
  }

  function renderInvite() {
    clear(inviteBox);
    if (!room.private || !room.invite || room.status !== 'waiting') return;
    const link = `${location.origin}${location.pathname}#/join/${room.invite}`;
    const field = h('input', { readonly: true, value: link, id: 'invite-link', dataset: { testid: 'invite-link' },
      onfocus: (e) => e.target.select() });
    const copy = h('button', { dataset: { testid: 'copy-invite' }, onclick: async () => {
      try { await navigator.clipboard.writeText(link); toast('Invite link copied', 'notice'); }
      catch { field.select(); document.execCommand?.('copy'); toast('Link selected: copy it with Ctrl+C', 'notice'); }
    } }, 'Copy');
    inviteBox.append(h('label', { for: 'invite-link' }, 'Private room: send this link to your opponent'), h('div', { class: 'row' }, field, copy));
  }

  function renderSeats() {
    const me = mySeat();
    const state = room.state;
    seatList.replaceChildren(...seatLabels(room.game, room.options).map((label, i) => {
      const seat = room.seats[i] ?? { seat: i };
      const taken = occupied(seat);
      const level = botLevel(seat);
      const toMove = state?.to_move === i && room.status === 'playing';
      const score = seatScore(room.game, room.options, state, i);
      const item = h('li', { class: `seat${toMove ? ' to-move' : ''}${me === i ? ' mine' : ''}`,
        dataset: { testid: `seat-${i}` }, style: `--seat: ${COLORS[i]}` },
      h('span', { class: 'seat-side' }, label),
      level ? computerIcon() : null,
      h('span', { class: 'seat-name', dataset: { testid: `seat-name-${i}` } }, taken ? seatName(seat) : 'free seat'),
      me === i ? h('span', { class: 'tag' }, 'you') : null,
      level ? h('span', { class: 'tag computer', title: `Computer player: ${LEVELS[level - 1]?.hint}`,
        dataset: { testid: `computer-${i}`, level } }, levelWord(level)) : null,
      taken && !level ? h('span', { class: `presence ${seat.connected === false ? 'away' : 'here'}`,
        title: seat.connected === false ? 'disconnected' : 'connected' }, seat.connected === false ? 'away' : 'online') : null,
      toMove ? h('span', { class: 'turn-mark', dataset: { testid: 'to-move' } }, 'to move') : null,
      held ? clocks.face(i) : null,
      score ? h('span', { class: 'seat-score' }, h('strong', {}, score.value), ` ${score.unit}`) : null);
      if (!taken && me === null && room.status === 'waiting') {
        item.append(h('button', { dataset: { testid: `sit-${i}` }, onclick: () => join({ seat: i }).catch(showError) }, 'Sit here'));
      }
      if (!taken && me !== null && room.status === 'waiting') item.append(addComputer(i, label));
      return item;
    }));
  }

  function renderClockBar() {
    clockBar.hidden = !held || room.status !== 'playing';
    if (clockBar.hidden) { clockBar.replaceChildren(); return; }
    const toMove = room.state?.to_move;
    clockBar.replaceChildren(...names().map((name, seat) => h('span', {
      class: `bar-seat${toMove === seat && room.status === 'playing' ? ' to-move' : ''}`, style: `--seat: ${COLORS[seat]}` },
    h('span', { class: 'bar-name' }, name), clocks.face(seat, `clock-bar-${seat}`))));
  }

  // A seated player of a waiting room may give a free seat to the computer.
  function addComputer(seat, label) {
    const id = `add-bot-level-${seat}`;
    const select = h('select', { id, 'aria-label': `Computer level for ${label}`, dataset: { testid: id } },
      LEVELS.map(({ level }) => h('option', { value: level, selected: level === 2 || undefined }, levelLabel(level))));
    const add = h('button', { type: 'button', 'aria-label': `Add computer to ${label}`, dataset: { testid: `add-bot-${seat}` },
      onclick: async () => {
        add.disabled = true;
        try { await conn.request({ type: 'add_bot', room: room.id, seat, level: Number(select.value) }); }
        catch (error) { showError(error); add.disabled = false; }
      } }, computerIcon(), 'Add computer');
    return h('span', { class: 'add-computer row' }, select, add);
  }

  function renderActions() {
    const me = mySeat();
    clear(actions);
    const playing = room.status === 'playing';
    if (me === null) actions.append(h('p', { class: 'muted' }, 'You are watching.'));
    if (room.status === 'waiting') actions.append(button('Leave room', 'leave', leave));
    if (playing && me !== null) {
      renderAbsence(me);
      actions.append(button('Resign', 'resign', () => confirmThen('Resign this game?', { type: 'resign', room: room.id })));
      for (const { name } of specialActions(room.game)) {
        const words = GAMES[room.game]?.specialActions?.[name];
        if (words?.offered(room)) actions.append(button(words.label, name, () => confirmThen(words.question, { type: name, room: room.id })));
      }
    }
    if (room.status === 'finished' && me !== null && room.seats.some(botLevel)) {
      actions.append(h('button', { class: 'primary', dataset: { testid: 'play-computer-again' },
        onclick: () => openPlayComputer(app, room.game) }, 'Play the computer again'));
    }
    actions.append(rulesButton(room.game));
    if (room.status !== 'waiting') {
      actions.append(h('a', { class: 'button quiet', href: `#/history/${room.id}` }, 'Open in the history viewer'));
    }
  }

  // The player to move has left: a countdown to the end of the grace time, then the claim.
  function renderAbsence(me) {
    clearTimeout(absenceTimer);
    const absent = room.seats[room.state?.to_move];
    if (!absent || absent.seat === me || botLevel(absent) || absent.connected !== false || room.state?.phase !== 'play') return;
    const left = absent.grace_until ? Math.ceil((Date.parse(absent.grace_until) - Date.now()) / 1000) : 0;
    // With two seats the claim wins the game; with more, the absent player is out of it.
    const duel = room.seats.length === 2;
    if (left > 0) {
      actions.append(h('p', { class: 'absence', dataset: { testid: 'absence' } },
        `${absent.name} has left. If they do not come back, you may ${duel ? 'claim the win' : 'put them out of the game'} in ${left} s.`));
      absenceTimer = setTimeout(renderActions, 1000);
      return;
    }
    actions.append(h('p', { class: 'absence', dataset: { testid: 'absence' } },
      `${absent.name} has left and may not come back.`),
    h('button', { class: 'primary', dataset: { testid: 'claim-abandon' }, onclick: () => claimAbandon(absent) },
      duel ? 'Claim the win' : `Put ${absent.name} out`));
  }

  function renderScores() {
    const panel = room.state && GAMES[room.game]?.panel?.({ state: room.state, options: room.options, names: names() });
    scoreBox.replaceChildren(panel || roundsTable(room.state?.rounds, names()) || '');
  }

  // A round that ends is announced above the board, and the words stay there during the next
  // round (the computer may have played its first turn before the player has read them); the
  // result banner takes over at the end of the game.
  function announceRound(update) {
    const text = GAMES[room.game]?.roundEndText?.(update.events, names());
    if (text) roundBox.textContent = text;
    roundBox.hidden = !roundBox.textContent || update.state?.phase === 'over';
  }

  // The banner once the last update has been played back: the result, Rematch and New game.
  function renderResult() {
    const over = room.status === 'finished' && room.state?.result && !animating;
    section.dataset.viewing = viewing === null ? '' : String(viewing);
    if (!over) { resultSlot.replaceChildren(); return; }
    resultSlot.replaceChildren(resultBanner({ game: room.game, options: room.options, state: room.state, names: names(),
      lastUpdate: updates.get(room.version), actions: [...rematchControls(),
        h('a', { class: 'button', href: `#/?game=${encodeURIComponent(room.game)}`, dataset: { testid: 'new-game-button' } }, 'New game')] }));
  }

  function rematchControls() {
    if (room.rematch) {
      return [h('a', { class: 'button primary', href: `#/room/${room.rematch}`, dataset: { testid: 'rematch-link' } }, 'Go to the rematch')];
    }
    const me = mySeat();
    const asked = rematchSeats.filter((seat) => !botLevel(room.seats[seat]));
    const who = asked.map((seat) => (seat === me ? 'You' : names()[seat]));
    const note = who.length ? h('span', { class: 'rematch-status', dataset: { testid: 'rematch-status' } },
      `${who.join(' and ')} asked for a rematch${asked.includes(me) ? '; waiting for the others' : ''}.`) : null;
    if (me === null) return [note].filter(Boolean);
    const mine = rematchSeats.includes(me);
    const offered = asked.length && !mine;
    return [h('button', { class: 'primary', disabled: mine || undefined, dataset: { testid: 'rematch' },
      onclick: askRematch }, mine ? 'Rematch asked' : offered ? 'Accept the rematch' : 'Rematch'), note].filter(Boolean);
  }

  async function askRematch() {
    try { await conn.request({ type: 'rematch', room: room.id }); } catch (error) {
      toast(error.code === 'not_allowed' && error.message ? `No rematch: ${error.message}` : describeError(error));
    }
  }

  function onRematch(message) {
    if (!room || message.room !== room.id) return;
    rematchSeats = message.seats ?? [];
    renderResult();
  }

  // The new room's message came before this one: the seat there is known already.
  function moveToRematch(id) {
    const next = app.roomsSeen.get(id);
    const seat = next?.seats.find((s) => s.player_id === app.me()?.player_id)?.seat;
    if (seat !== undefined) seatStore.set(id, seat);
    toast('The rematch starts', 'notice');
    app.navigate(`#/room/${id}`);
  }

  function renderGuide() {
    if (!guide) return;
    const state = shownState;
    const me = mySeat();
    const latest = !animating && shownState === room.state && viewing === null;
    const myTurn = Boolean(state && latest && !busy && room.status === 'playing' && state.phase === 'play' && state.to_move === me && me !== null);
    // What the browser tests wait for: the version on screen and whether this player may act.
    Object.assign(section.dataset, { room: room.id, status: room.status, version: room.version,
      settled: String(latest && !busy), myTurn: String(myTurn), phase: state?.phase ?? 'waiting' });
    let waiting = '';
    if (state && room.status === 'playing' && state.phase === 'play' && state.to_move !== me) {
      const mover = names()[state.to_move];
      waiting = botLevel(room.seats[state.to_move]) ? `${mover} is thinking…` : `Waiting for ${mover}…`;
    }
    if (viewing !== null) waiting = '';
    guide.render(state, myTurn, waiting);
    // Under the board too (on a phone the move list is far below): where we are, and the way back.
    guideWrap.querySelector('.step-back')?.remove();
    if (viewing !== null) {
      guideWrap.append(h('p', { class: 'step-back row', dataset: { testid: 'step-back-note' } },
        `You are looking at move ${moveList.lineOf(viewing)} of ${moveList.lines()}.`,
        h('button', { class: 'primary', dataset: { testid: 'back-to-live-board' }, onclick: goLive }, 'Back to live')));
    }
  }

  // The Plex! race lasts a few seconds: its banner and big button float in the middle of the
  // screen for every seat, whatever is scrolled into view (issue 17, bug 3); a beep says it
  // started when the player turned sound on.
  function renderPlex() {
    if (!plex) { plexBox.hidden = plexBox.dataset.result !== 'shown'; return; }
    const words = GAMES[room.game]?.claims?.[plex.name];
    if (!words) return;
    const me = mySeat();
    const left = Math.max(0, plex.deadline - Date.now());
    const width = `width: ${(100 * left) / plex.total}%`;
    if (left > 0) later(200, renderPlex);
    // Drawn once per race (the banner is an alert, read out once); later ticks move the timer.
    if (plexBox.dataset.window === plex.window && !plexBox.hidden) {
      plexBox.querySelector('.plex-timer div')?.setAttribute('style', width);
      return;
    }
    plexBox.hidden = false;
    plexBox.dataset.result = '';
    plexBox.dataset.window = plex.window;
    plexBox.replaceChildren(
      h('p', { class: 'plex-banner', role: 'alert', dataset: { testid: 'plex-banner' } }, words.banner),
      h('p', { class: 'plex-title' }, words.title),
      me !== null
        ? h('button', { class: 'plex-button', dataset: { testid: 'plex-button', window: plex.window }, onclick: claimPlex }, words.button)
        : h('p', {}, words.watching),
      h('div', { class: 'plex-timer' }, h('div', { style: width })));
  }

  function showPlexResult(name, events) {
    plex = null;
    const text = GAMES[room.game]?.claims?.[name]?.resultText(events, names());
    if (!text) return;
    plexBox.hidden = false;
    plexBox.dataset.result = 'shown';
    plexBox.dataset.window = '';
    plexBox.replaceChildren(h('p', { class: 'plex-result', role: 'status', dataset: { testid: 'plex-result' } }, text));
    later(6000, () => { plexBox.dataset.result = ''; renderPlex(); });
  }

  // --- actions ------------------------------------------------------------------------------
  async function sendMove(tokens) {
    if (busy || !room?.state) return;
    busy = true;
    renderGuide();
    try {
      await conn.request({ type: 'move', room: room.id, expected_version: room.version, tokens });
    } catch (error) {
      // Nothing is lost: the board still shows the last confirmed position and the same
      // choices are offered again (a forced choice will be re-sent).
      showError(error);
      guide?.reset();
      if (error.code === 'stale_version') await resync();
    } finally {
      busy = false;
      renderGuide();
    }
  }

  async function claimPlex() {
    if (!plex) return;
    const window = plex.window;
    try { await conn.request({ type: plex.name, room: room.id, window }); }
    catch (error) { showError(error); }
  }

  // Too early (this computer's clock runs ahead of the server's): the server's answer says until
  // when the player may come back, which restarts the countdown.
  async function claimAbandon(absent) {
    try { await conn.request({ type: 'claim_abandon', room: room.id }); } catch (error) {
      const until = error.code === 'not_abandoned' && /until (\S+Z)/.exec(error.message ?? '')?.[1];
      if (until && !Number.isNaN(Date.parse(until))) { absent.grace_until = until; renderActions(); }
      showError(error);
    }
  }

  async function act(message) {
    try { await conn.request(message); } catch (error) { showError(error); }
  }

  function confirmThen(question, message) {
    if (window.confirm(question)) act(message);
  }

  async function leave() {
    try {
      await conn.request({ type: 'leave_room', room: room.id });
      seatStore.set(room.id, null);
      app.navigate('#/');
    } catch (error) { showError(error); }
  }

  function join(extra = {}) {
    const code = invite ?? invites.get(roomId);
    const target = code ? { invite: code } : { room: roomId };
    return conn.request({ type: 'join_room', ...target, ...extra }).then((reply) => onRoom(reply, true));
  }

  function showError(error) { toast(describeError(error)); }

  function button(text, testid, onclick) {
    return h('button', { class: 'quiet', dataset: { testid }, onclick }, text);
  }

  function later(ms, fn) {
    const id = setTimeout(() => { timers.delete(id); fn(); }, Math.max(0, ms));
    timers.add(id);
  }

  // --- start ----------------------------------------------------------------------------------
  const unsubscribe = [
    conn.on('room', onRoom), conn.on('update', onUpdate), conn.on('presence', onPresence),
    conn.on('welcome', onWelcomeAgain), conn.on('rematch', onRematch),
    ...allClaimWindows().map((name) => conn.on(`${name}_open`, (message) => onPlexOpen(name, message))),
  ];

  const known = app.roomsSeen.get(roomId);
  if (known) onRoom({ room: known });
  const seated = (seatStore.get(roomId) !== undefined && seatStore.get(roomId) !== null) ||
    Boolean(known?.seats.some((seat) => seat.player_id && seat.player_id === app.me()?.player_id));
  join(invite || seated ? {} : { spectate: true }).then(() => {
    if (invite) app.navigate(`#/room/${room.id}`, { replace: true, keep: true });
  }).catch((error) => {
    // Nothing to show but why: no empty board or seat cards (issue 17, bug 2).
    section.querySelector('.room-body').hidden = true;
    section.dataset.error = error.code ?? 'error';
    const badInvite = invite && ['not_found', 'forbidden', 'bad_request'].includes(error.code);
    title.textContent = badInvite ? 'This invite link does not work' : 'Room not available';
    status.textContent = badInvite
      ? 'The link is not valid, or the game it was for is over. Ask for a new link, or find a game in the lobby.'
      : describeError(error);
    status.after(h('a', { class: 'button', href: '#/', dataset: { testid: 'to-lobby' } }, 'Go to the lobby'));
  });

  return () => {
    for (const off of unsubscribe) off();
    for (const id of timers) clearTimeout(id);
    clearTimeout(absenceTimer);
    clocks.stop();
  };
}
