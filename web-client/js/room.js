// A room: its seats, the board, the turn guide, scores and the result. Keeps in step with the
// server through `room` and `update` messages, animating each update's events in order.
import { h, clear, toast } from './dom.js';
import { createBoard } from './boards/index.js';
import { createGuide } from './guide.js';
import { gameName, seatLabels, GAMES } from './games.js';
import { describeError } from './errors.js';
import { seatScore, roundsTable, resultPanel } from './scores.js';
import { rulesButton } from './rules.js';
import { seats as seatStore, invites } from './storage.js';
import { COLORS } from './boards/view.js';

export function showRoom(main, app, { roomId, invite }) {
  const conn = app.conn;
  let room = null;            // the latest room message, with state/version kept current
  let shownState = null;      // the state the board shows (behind `room.state` while animating)
  let board = null, guide = null, boardKey = '';
  let queue = [], animating = false, busy = false;
  let plex = null;            // {window, deadline} while a Plex! race is open
  const timers = new Set();
  let absenceTimer = null;

  const title = h('h1', { dataset: { testid: 'room-title' } }, 'Joining…');
  const status = h('p', { class: 'room-status', dataset: { testid: 'room-status' } });
  const inviteBox = h('div', { class: 'invite' });
  const seatList = h('ol', { class: 'seats', dataset: { testid: 'seats' } });
  const boardWrap = h('div', { class: 'board-wrap' });
  const caption = h('p', { class: 'caption', 'aria-live': 'polite', dataset: { testid: 'caption' } });
  const guideWrap = h('div');
  const plexBox = h('div', { class: 'plex', hidden: true, dataset: { testid: 'plex' } });
  const actions = h('div', { class: 'actions' });
  const scoreBox = h('div', { class: 'score-box' });
  const section = h('section', { class: 'room', dataset: { testid: 'room' } },
    h('header', { class: 'room-head' }, title, status, inviteBox),
    h('div', { class: 'room-body' },
      h('div', { class: 'play-area' }, boardWrap, caption, guideWrap, plexBox),
      h('aside', { class: 'side' }, seatList, actions, scoreBox)));
  main.replaceChildren(section);

  const mySeat = () => room?.seats.find((seat) => seat.player_id === app.me()?.player_id)?.seat ?? null;
  const names = () => seatLabels(room.game, room.options).map((label, i) => room.seats[i]?.name || label);

  // --- messages from the server --------------------------------------------------------------
  // `ours`: the reply to our own join (an invite names no room id until this reply).
  function onRoom(message, ours = false) {
    const next = message.room;
    if (!ours && next.id !== roomId) return;
    roomId = next.id;
    const newer = !room || next.version > room.version || (next.state && !room.state);
    // Same version: keep the state already shown (it is the same position).
    room = { ...room, ...next, state: newer ? next.state : room.state };
    if (next.invite) invites.set(room.id, next.invite);
    seatStore.set(room.id, mySeat());
    if (newer) { queue = []; shownState = room.state; buildBoard(true); }
    render();
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
    if (update.state?.phase === 'over') room.status = 'finished';
    if (update.events?.some((e) => e.event === 'plex_result')) showPlexResult(update.events);
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

  function onPlexOpen(message) {
    if (!room || message.room !== room.id) return;
    plex = { window: message.window, deadline: Date.now() + message.deadline_ms, total: message.deadline_ms, mover: message.mover };
    renderPlex();
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
      if (queue.length > 2) board.show(update.state);
      else await board.play(update.events ?? [], shownState, update.state);
      shownState = update.state;
      caption.textContent = lastMoveText(update);
    }
    animating = false;
    render();
  }

  function lastMoveText(update) {
    if (update.seat === undefined || update.seat === null || !update.tokens) return caption.textContent;
    return `${names()[update.seat]} played ${update.tokens}`;
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
        boardWrap.replaceChildren(h('p', { class: 'waiting' }, 'The board appears when every seat is taken.'));
      }
    }
  }

  function render() {
    if (!room) return;
    title.textContent = gameName(room.game);
    status.textContent = statusText();
    renderInvite();
    renderSeats();
    renderActions();
    renderScores();
    renderGuide();
    renderPlex();
  }

  function statusText() {
    const watchers = room.spectators ? ` · ${room.spectators} watching` : '';
    if (room.status === 'waiting') return `Waiting for players${watchers}`;
    if (room.status === 'finished') return `Game over${watchers}`;
    const state = room.state;
    const round = state?.round > 1 || room.game === 'coin_duel' && Number(room.options?.stage ?? 3) === 3 ? `Round ${state.round} · ` : '';
    if (state?.phase === 'plex') return `${round}Plex! race${watchers}`;
    return `${round}${names()[state?.to_move] ?? ''} to move${watchers}`;
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
      const taken = Boolean(seat.player_id);
      const toMove = state?.to_move === i && room.status === 'playing';
      const score = seatScore(room.game, room.options, state, i);
      const item = h('li', { class: `seat${toMove ? ' to-move' : ''}${me === i ? ' mine' : ''}`,
        dataset: { testid: `seat-${i}` }, style: `--seat: ${COLORS[i]}` },
      h('span', { class: 'seat-side' }, label),
      h('span', { class: 'seat-name', dataset: { testid: `seat-name-${i}` } }, taken ? seat.name : 'free seat'),
      me === i ? h('span', { class: 'tag' }, 'you') : null,
      seat.bot ? h('span', { class: 'tag' }, 'bot') : null,
      taken ? h('span', { class: `presence ${seat.connected === false ? 'away' : 'here'}`,
        title: seat.connected === false ? 'disconnected' : 'connected' }, seat.connected === false ? 'away' : 'online') : null,
      toMove ? h('span', { class: 'turn-mark', dataset: { testid: 'to-move' } }, 'to move') : null,
      score ? h('span', { class: 'seat-score' }, h('strong', {}, score.value), ` ${score.unit}`) : null);
      if (!taken && me === null && room.status === 'waiting') {
        item.append(h('button', { dataset: { testid: `sit-${i}` }, onclick: () => join({ seat: i }).catch(showError) }, 'Sit here'));
      }
      return item;
    }));
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
      if (room.game === 'coin_duel' && Number(room.options?.stage ?? 3) === 3) {
        actions.append(button('Concede round', 'concede', () => confirmThen('Concede this round?', { type: 'concede', room: room.id })));
      }
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
    if (!absent || absent.seat === me || absent.connected !== false || room.state?.phase !== 'play') return;
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
    const state = room.state;
    scoreBox.replaceChildren(...[state?.result ? resultPanel(state.result, names()) : null,
      roundsTable(state?.rounds, names())].filter(Boolean));
  }

  function renderGuide() {
    if (!guide) return;
    const state = shownState;
    const me = mySeat();
    const latest = !animating && shownState === room.state;
    const myTurn = Boolean(state && latest && !busy && room.status === 'playing' && state.phase === 'play' && state.to_move === me && me !== null);
    // What the browser tests wait for: the version on screen and whether this player may act.
    Object.assign(section.dataset, { room: room.id, status: room.status, version: room.version,
      settled: String(latest && !busy), myTurn: String(myTurn), phase: state?.phase ?? 'waiting' });
    let waiting = '';
    if (state && room.status === 'playing' && state.phase === 'play' && state.to_move !== me) {
      waiting = `Waiting for ${names()[state.to_move]}…`;
    }
    guide.render(state, myTurn, waiting);
  }

  function renderPlex() {
    if (!plex) { plexBox.hidden = plexBox.dataset.result !== 'shown'; return; }
    const me = mySeat();
    const left = Math.max(0, plex.deadline - Date.now());
    plexBox.hidden = false;
    plexBox.dataset.result = '';
    plexBox.replaceChildren(
      h('p', { class: 'plex-title' }, 'Eleven sets are taken. The last one goes to whoever calls first!'),
      me !== null
        ? h('button', { class: 'plex-button', dataset: { testid: 'plex-button' }, onclick: claimPlex }, 'Plex!')
        : h('p', {}, 'The players are racing for the last set…'),
      h('div', { class: 'plex-timer' }, h('div', { style: `width: ${(100 * left) / plex.total}%` })));
    if (left > 0) later(200, renderPlex);
  }

  function showPlexResult(events) {
    const result = events.find((e) => e.event === 'plex_result');
    plex = null;
    const who = names()[result.winner] ?? `Seat ${result.winner + 1}`;
    const text = result.fallback ? `Nobody called in time: the last set goes to ${who}.`
      : `${who} called Plex! first${result.latency_ms !== undefined ? ` (${result.latency_ms} ms)` : ''} and takes the last set.`;
    plexBox.hidden = false;
    plexBox.dataset.result = 'shown';
    plexBox.replaceChildren(h('p', { class: 'plex-result', dataset: { testid: 'plex-result' } }, text));
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
    try { await conn.request({ type: 'plex', room: room.id, window }); }
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
    conn.on('plex_open', onPlexOpen), conn.on('welcome', onWelcomeAgain),
  ];

  const known = app.roomsSeen.get(roomId);
  if (known) onRoom({ room: known });
  const seated = seatStore.get(roomId) !== undefined && seatStore.get(roomId) !== null;
  join(invite || seated ? {} : { spectate: true }).then(() => {
    if (invite) app.navigate(`#/room/${room.id}`, { replace: true, keep: true });
  }).catch((error) => {
    title.textContent = 'Room not available';
    status.textContent = describeError(error);
  });

  return () => {
    for (const off of unsubscribe) off();
    for (const id of timers) clearTimeout(id);
    clearTimeout(absenceTimer);
  };
}
