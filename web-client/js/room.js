// A room: its seats and clocks, the board, the turn guide, the move list, scores and the result
// banner with Rematch. Every message from the server goes through the room's reducer
// (room_state.js) and the state it returns is drawn (room_view.js); this module only wires them:
// the connection's messages, the player's requests, and the playback of updates one at a time.
// While the tab is hidden, the tab's title and icon tell what happened (tab_notice.js).
import { toast } from './dom.js';
import { t } from './i18n/index.js';
import { describeError } from './errors.js';
import { fetchGame } from './api.js';
import { allClaimWindows } from './catalog.js';
import { openPlayComputer } from './computer.js';
import { seats as seatStore, invites } from './storage.js';
import { createMutes } from './mutes.js';
import { beep } from './sound.js';
import { initialState, reduce, mySeat, wantsHistory, rematchStarted } from './room_state.js';
import { roomEvents } from './attention.js';
import { notice } from './tab_notice.js';
import { createRoomView } from './room_view.js';
import { gameName } from './catalog.js';
import { timeControlText } from './clock.js';
import { inviteSentence, roomInviteFacts } from './invite.js';
import { openAccountDialog } from './account_forms.js';

export function showRoom(main, app, { roomId, invite }) {
  const conn = app.conn;
  const mutes = createMutes(app, (players) => dispatch({ type: 'muted', players }));
  let state = initialState({ roomId, playerId: app.me()?.player_id ?? null, muted: mutes.list() });
  let pumping = false;
  const view = createRoomView(main, {
    move: sendMove, sit: (seat) => join({ seat }).catch(showError), leave, claimAbandon,
    ask: (question, message) => window.confirm(question) && act(message),
    addBot: (seat, level) => act({ type: 'add_bot', room: state.room.id, seat, level }),
    claim: () => state.claim && act({ type: state.claim.name, room: state.room.id, window: state.claim.window }),
    rematch: () => act({ type: 'rematch', room: state.room.id }, noRematch),
    playComputer: () => openPlayComputer(app, state.room.game),
    view: viewVersion, live: goLive,
    mayPlayRated: app.isAccount,
    signUp: () => openAccountDialog(app, 'signup'),
    chat: (text) => conn.request({ type: 'chat', room: state.room.id, text }, { resend: false }),
    mute: mutes.mute, unmute: mutes.unmute,
    report: (message) => act({ type: 'report_chat', room: state.room.id, player_id: message.player_id, at: message.at }, noReport)
      .then((done) => done && toast(t('chat.reported', { name: message.name }), 'notice')),
    spectatorChat: (on) => act({ type: 'spectator_chat', room: state.room.id, on }),
  });

  function dispatch(message) {
    const next = reduce(state, message);
    if (next === state) return;
    const before = state;
    state = next;
    view.render(state);
    for (const event of roomEvents(before, state)) notice(event);
  }

  // --- messages from the server --------------------------------------------------------------
  // `ours`: the reply to our own join (an invite names no room id until this reply).
  function onRoom(message, ours = false) {
    const before = state;
    dispatch({ ...message, ours });
    if (state.room === before.room) return;
    if (message.room.invite) invites.set(state.room.id, message.room.invite);
    seatStore.set(state.room.id, mySeat(state));
    if (wantsHistory(state)) loadHistory();
    // Everyone asked for a rematch: the new room's message came first; go there.
    if (rematchStarted(before, state)) moveToRematch(state.room.rematch);
  }

  // Someone's message (the sender gets their own too): the tab tells of it while hidden, unless
  // it is ours or its writer is muted here.
  function onChat(message) {
    const before = state.chat;
    dispatch(message);
    const quiet = message.player_id === state.playerId || state.muted.some((player) => player.player_id === message.player_id);
    if (state.chat !== before && !quiet) notice('chat');
  }

  function onUpdates(message) {
    dispatch(message);
    if (state.outOfStep) resync(); else pump();
  }

  function onClaimOpen(message) {
    dispatch(message);
    if (state.claim?.window === message.window && mySeat(state) !== null) beep();
  }

  async function resync() {
    try {
      const reply = await conn.request({ type: 'sync', room: state.room.id, since: state.room.version });
      if (reply.type === 'updates') onUpdates(reply);
    } catch (error) { showError(error); }
  }

  // After a dropped connection: seated players get their `room` message by themselves;
  // spectators ask to watch again. Then catch up on what was missed.
  async function onWelcomeAgain(welcome) {
    dispatch(welcome);
    if (!state.room) return;
    if (mySeat(state) === null) await join({ spectate: true }).catch(() => {});
    resync();
  }

  // Versions before this page opened come from the history API: the turns in words at once,
  // their positions a page at a time, as they are looked at (positions.js).
  let history = null;
  async function loadHistory() {
    dispatch({ type: 'history_asked' });
    if (state.room.version === 0) return;
    const game = await fetchGame(state.room.id).catch(() => null);
    if (!game) return;
    history = game.positions;
    dispatch({ type: 'history', record: game.record, states: history.entries() });
  }

  // An earlier version looked at: its position is fetched first if this page has not got it;
  // only the latest request is shown, and none once the player went back to live.
  let wanted = null;
  async function viewVersion(version) {
    wanted = version;
    if (!state.positions.has(version) && history && version < history.total) {
      try { await history.load(version); } catch (error) { showError(error); return; }
      dispatch({ type: 'positions', states: history.entries() });
    }
    if (wanted === version) dispatch({ type: 'view', version });
  }

  function goLive() {
    wanted = null;
    dispatch({ type: 'live' });
  }

  // Updates are played back in order, one at a time.
  async function pump() {
    if (pumping) return;
    pumping = true;
    while (state.queue.length) {
      const update = state.queue[0];
      await view.play(state, update);
      dispatch({ type: 'played', version: update.version });
    }
    pumping = false;
  }

  // --- requests -------------------------------------------------------------------------------
  async function sendMove(tokens) {
    if (state.busy || !state.room?.state) return;
    dispatch({ type: 'sending' });
    try {
      await conn.request({ type: 'move', room: state.room.id, expected_version: state.room.version, tokens });
    } catch (error) {
      // Nothing is lost: the board still shows the last confirmed position and the same
      // choices are offered again (a forced choice will be re-sent).
      showError(error);
      view.resetGuide();
      if (error.code === 'stale_version') await resync();
    } finally {
      dispatch({ type: 'sent' });
    }
  }

  // Too early (this computer's clock runs ahead of the server's): the server's answer says until
  // when the player may come back (its grace_until field), which restarts the countdown.
  async function claimAbandon(seat) {
    try { await conn.request({ type: 'claim_abandon', room: state.room.id }); } catch (error) {
      const until = error.code === 'not_abandoned' && error.reply?.grace_until;
      if (until && !Number.isNaN(Date.parse(until))) dispatch({ type: 'presence', room: state.room.id, seat, connected: false, grace_until: until });
      showError(error);
    }
  }

  // Resolves true once done; false after saying why not (in the words of `why`).
  const act = (message, why = describeError) => conn.request(message).then(() => true, (error) => { toast(why(error)); return false; });

  // The new room's message came before this one: the seat there is known already.
  function moveToRematch(id) {
    const next = app.roomsSeen.get(id);
    const seat = next?.seats.find((s) => s.player_id === app.me()?.player_id)?.seat;
    if (seat !== undefined) seatStore.set(id, seat);
    toast(t('room.rematch_starts'), 'notice');
    app.navigate(`#/room/${id}`);
  }

  async function leave() {
    if (!await act({ type: 'leave_room', room: state.room.id })) return;
    seatStore.set(state.room.id, null);
    app.navigate('#/');
  }

  function join(extra = {}) {
    const code = invite ?? invites.get(state.roomId);
    const target = code ? { invite: code } : { room: state.roomId };
    return conn.request({ type: 'join_room', ...target, ...extra }).then((reply) => onRoom(reply, true));
  }

  function showError(error) { toast(describeError(error)); }

  // --- start ----------------------------------------------------------------------------------
  const unsubscribe = [
    conn.on('room', onRoom), conn.on('update', onUpdates), conn.on('presence', dispatch),
    conn.on('welcome', onWelcomeAgain), conn.on('rematch', dispatch), conn.on('chat', onChat),
    ...allClaimWindows().map((name) => conn.on(`${name}_open`, onClaimOpen)),
  ];

  const known = app.roomsSeen.get(roomId);
  if (known) onRoom({ type: 'room', room: known });
  const seated = (seatStore.get(roomId) !== undefined && seatStore.get(roomId) !== null) ||
    Boolean(known?.seats.some((seat) => seat.player_id && seat.player_id === app.me()?.player_id));
  // A guest's seat in a rated room is refused (not_allowed): watching it is fine.
  // Said once: the invite's sentence is not repeated after it (the name page said it already).
  let watchingRated = false;
  const watchRated = (error) => {
    if (error.code !== 'not_allowed' || !(invite || seated) || app.isAccount()) throw error;
    watchingRated = true;
    toast(t('room.rated_watching'), 'notice');
    return join({ spectate: true });
  };
  join(invite || seated ? {} : { spectate: true }).catch(watchRated).then(() => {
    if (!invite) return;
    app.navigate(`#/room/${state.room.id}`, { replace: true, keep: true });
    // What the invite was for: before the hello nothing of the room could be known.
    if (!watchingRated) toast(inviteSentence(roomInviteFacts(state.room, app.me()?.player_id, { gameName, clockText: timeControlText })), 'notice');
  }).catch((error) => dispatch({ type: 'join_failed', error, invite: Boolean(invite) }));

  return () => {
    for (const off of unsubscribe) off();
    view.stop();
  };
}

// The server keeps only recent messages to report (not_found for an older one).
const noReport = (error) => (error.code === 'not_found' ? t('chat.too_old_to_report') : describeError(error));

// Why the server refused a rematch (a player left, …), in its own words where it gives them.
const noRematch = (error) => (error.code === 'not_allowed' && error.message ? t('room.no_rematch', { why: error.message }) : describeError(error));
