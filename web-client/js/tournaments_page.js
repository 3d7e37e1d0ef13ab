// One tournament's page (#/tournaments/<id>, issue 48): its rules in words, the countdown to the
// start and then to the end, Join / Withdraw before the start (Pause / Rejoin during an arena),
// the standings and the games being played, kept live by `watch_tournament` (pushed by the
// server at most once a second, never polled), subscribed again after every reconnect.
import { h, s, toast } from './dom.js';
import { t, formatDateTime } from './i18n/index.js';
import { gameName, gameType } from './catalog.js';
import { describeOptions } from './options.js';
import { rulesButton } from './rules.js';
import { identity } from './storage.js';
import { getTournament, joinTournament, leaveTournament, describeTournamentError, kindName, clockWords,
  scoreText, countdownText } from './tournaments_api.js';
import { showingTournament, leftTournament, myGame, rememberRoom } from './tournaments_games.js';

export function showTournamentPage(main, app, id) {
  let view = null;
  let stopped = false;
  let busy = false;
  const head = h('div', { class: 'tournament-head' });
  const timing = h('p', { class: 'tournament-timing', 'aria-live': 'off', dataset: { testid: 'tournament-timing' } });
  const actions = h('div', { class: 'row tournament-actions', dataset: { testid: 'tournament-actions' } });
  const rules = h('section', { class: 'tournament-rules', dataset: { testid: 'tournament-rules' } });
  const standings = h('section', { class: 'tournament-standings', dataset: { testid: 'tournament-standings' } });
  const games = h('section', { class: 'tournament-games', dataset: { testid: 'tournament-games' } });
  const page = h('section', { class: 'tournament-page', dataset: { testid: 'tournament-page', tournament: id } },
    h('p', {}, h('a', { href: '#/tournaments', dataset: { testid: 'tournaments-all' } }, t('tournaments.all'))),
    head, timing, actions,
    h('div', { class: 'tournament-columns' }, h('div', {}, standings, games), rules));
  main.replaceChildren(h('p', { class: 'waiting' }, t('tournaments.loading')));

  function show(next) {
    if (stopped) return;
    view = next;
    if (!page.isConnected) main.replaceChildren(page);
    page.dataset.status = view.status;
    drawHead();
    drawTiming();
    drawActions();
    drawRules();
    drawStandings();
    drawGames();
    showingTournament(id, view);
  }

  const me = () => view?.players?.find((player) => player.player_id === app.me()?.player_id) ?? null;

  function drawHead() {
    const notes = describeOptions(view.game, view.options);
    head.replaceChildren(...[
      h('h1', { dataset: { testid: 'tournament-name' } }, view.name),
      h('p', { class: 'tournament-facts', dataset: { testid: 'tournament-facts' } },
        [gameName(view.game), kindName(view.kind), clockWords(view.clock), view.rated ? t('players.rated') : t('tournaments.casual')].join(' · '),
        ' ', rulesButton(view.game, t('lobby.how_to_play'))),
      notes.length ? h('p', { class: 'muted' }, notes.join(' · ')) : null].filter(Boolean));
  }

  // The start (or the end) in the viewer's own time zone and language, and how long until then.
  function drawTiming() {
    const status = view.status;
    const parts = [h('span', { class: `tag status-${status}`, dataset: { testid: 'tournament-status' } }, t(`tournaments.status_${status}`))];
    if (status === 'upcoming') {
      parts.push(' ', t('tournaments.starts_at', { when: formatDateTime(view.starts_at, { dateStyle: 'full', timeStyle: 'short' }) }),
        ' · ', h('strong', { dataset: { testid: 'tournament-countdown' } }, t('tournaments.starts_in', { time: countdownText(view.starts_at) })));
    } else if (status === 'running' && view.ends_at) {
      parts.push(' ', t('tournaments.ends_at', { when: formatDateTime(view.ends_at, { timeStyle: 'short' }) }),
        ' · ', h('strong', { dataset: { testid: 'tournament-countdown' } }, t('tournaments.ends_in', { time: countdownText(view.ends_at) })));
    } else if (status === 'running') {
      parts.push(' ', t('tournaments.started_at', { when: formatDateTime(view.starts_at) }));
    } else {
      parts.push(' ', t('tournaments.ended_at', { when: formatDateTime(view.ends_at || view.starts_at) }));
    }
    timing.replaceChildren(...parts);
  }

  function drawActions() {
    const mine = me();
    // A guest kept in this browser has a name even before the server's welcome.
    const named = Boolean(app.me()) || app.isAccount() || Boolean(identity.get()?.name);
    const button = (key, testid, run, primary = false) => h('button', { type: 'button', class: primary ? 'primary' : '',
      disabled: busy || undefined, dataset: { testid }, onclick: () => act(run) }, t(key));
    const arena = view.kind === 'arena';
    const children = [];
    if (view.status === 'finished') children.push(h('span', { class: 'muted' }, t('tournaments.over')));
    else if (!named) children.push(h('button', { type: 'button', class: 'primary', dataset: { testid: 'tournament-pick-name' },
      onclick: () => app.askName() }, t('tournaments.pick_name')));
    else if (!mine && (view.status === 'upcoming' || arena)) children.push(button('tournaments.join', 'tournament-join', joinTournament, true));
    else if (mine && view.status === 'upcoming') children.push(button('tournaments.withdraw', 'tournament-withdraw', leaveTournament));
    else if (mine && arena && mine.paused) children.push(button('tournaments.rejoin', 'tournament-rejoin', joinTournament, true));
    else if (mine && arena) children.push(button('tournaments.pause', 'tournament-pause', leaveTournament));
    else if (!mine) children.push(h('span', { class: 'muted' }, t('tournaments.closed_round_robin')));
    const game = mine ? myGame(view) : null;
    if (game) {
      children.unshift(h('a', { class: 'button primary', href: `#/room/${encodeURIComponent(game)}`, dataset: { testid: 'tournament-my-game' } },
        t('tournaments.to_my_game')));
    }
    if (mine) {
      const words = view.status === 'upcoming' ? 'tournaments.you_joined' : mine.paused ? 'tournaments.you_paused'
        : mine.playing ? 'tournaments.you_playing' : view.status === 'running' ? 'tournaments.you_waiting' : 'tournaments.you_played';
      children.push(h('span', { class: 'muted', dataset: { testid: 'tournament-you' } }, t(words)));
    }
    actions.replaceChildren(...children);
  }

  async function act(run) {
    busy = true;
    drawActions();
    try { show(await run(id)); } catch (error) { toast(describeTournamentError(error)); } finally {
      busy = false;
      if (view && !stopped) drawActions();
    }
  }

  function drawRules() {
    const minutes = view.minutes;
    const lines = view.kind === 'round_robin'
      ? [t('tournaments.rules_round_robin'), t('tournaments.rules_round_robin_points'), t('tournaments.rules_round_robin_end')]
      : [t('tournaments.rules_arena', { count: minutes }),
        placesScored(view.game) ? t('tournaments.rules_arena_points_places') : t('tournaments.rules_arena_points'),
        t('tournaments.rules_streak'), t('tournaments.rules_pause')];
    rules.replaceChildren(h('h2', {}, t('tournaments.rules_title')), h('ul', {}, lines.map((line) => h('li', {}, line))));
  }

  // A game for more than two scores by place, 2 × (seats − place) (Njaka's tables of three and four).
  const placesScored = (game) => (gameType(game)?.max_players ?? 2) > 2;

  function drawStandings() {
    const players = view.players ?? [];
    const table = players.length ? h('table', { class: 'standings' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('tournaments.col_rank')), h('th', { scope: 'col' }, t('tournaments.col_player')),
        h('th', { scope: 'col', class: 'num' }, t('tournaments.col_score')), h('th', { scope: 'col', class: 'num' }, t('tournaments.col_games')))),
      h('tbody', {}, players.map((player) => h('tr', {
        class: player.player_id === app.me()?.player_id ? 'me' : '',
        dataset: { testid: `standing-${player.name}`, score: player.score, games: player.games, streak: player.streak ?? 0,
          playing: String(Boolean(player.playing)), paused: String(Boolean(player.paused)) } },
      h('td', {}, String(player.rank)),
      h('td', {}, h('a', { class: 'player-link', href: `#/player/${encodeURIComponent(player.player_id)}` }, player.name),
        onFire(player) ? h('span', { class: 'flames', role: 'img', title: t('tournaments.on_fire', { count: player.streak }),
          'aria-label': t('tournaments.on_fire', { count: player.streak }), dataset: { testid: `streak-${player.name}` } }, flame()) : null,
        player.playing ? h('span', { class: 'tag playing', dataset: { testid: `playing-${player.name}` } }, t('tournaments.playing')) : null,
        player.paused ? h('span', { class: 'tag', dataset: { testid: `paused-${player.name}` } }, t('tournaments.paused')) : null),
      h('td', { class: 'num', dataset: { testid: `score-${player.name}` } }, scoreText(player.score)),
      h('td', { class: 'num' }, String(player.games)))))) : h('p', { class: 'muted' }, t('tournaments.no_players'));
    standings.replaceChildren(h('h2', {}, t('tournaments.standings', { count: players.length })), table);
  }

  // Drawn, not an emoji: not every device has a font with one.
  const flame = () => s('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true' },
    s('path', { d: 'M8 1c1.2 3 4.5 4.6 4.5 8.6A4.5 4.5 0 0 1 3.5 9.8c0-2.1 1.1-3.4 2.2-4.4 0 1.6.6 2.7 1.7 3.2C7.2 6.2 6.4 3.6 8 1z',
      class: 'flame-outer' }),
    s('path', { d: 'M8 8.2c.9 1.2 2 1.9 2 3.3a2 2 0 0 1-4 0c0-1 .6-1.6 1.1-2.1.1.6.4 1 .9 1.1-.3-.8-.4-1.5 0-2.3z', class: 'flame-inner' }));

  // Two wins in a row double an arena's next points: the flames say so.
  const onFire = (player) => view.kind === 'arena' && (player.streak ?? 0) >= 2;

  function drawGames() {
    const rooms = view.rooms ?? [];
    games.hidden = view.status !== 'running' && !rooms.length;
    games.replaceChildren(h('h2', {}, t('tournaments.games_now')), rooms.length
      ? h('ul', { class: 'plain' }, rooms.map((roomId, i) => h('li', {},
        // Watched from here, the room has the bar back to the tournament too.
        h('a', { href: `#/room/${encodeURIComponent(roomId)}`, dataset: { testid: `tournament-room-${roomId}` },
          onclick: () => rememberRoom(roomId, id) },
          t('tournaments.watch_game', { n: i + 1 })))))
      : h('p', { class: 'muted' }, t('tournaments.no_games')));
  }

  // The countdown, once a second (only its words: the rest waits for the server's pushes).
  const ticker = setInterval(() => {
    if (view && view.status !== 'finished') drawTiming();
  }, 1000);

  // The live view: `ok`, then the whole view, then every change; asked again after a reconnect
  // (the server forgets a closed connection's watches). A tournament this process does not run
  // (finished) answers not_found: the page read over HTTP stands.
  const offPush = app.conn.on('tournament', (message) => { if (message.id === id) show(message); });
  const watch = () => { app.conn.request({ type: 'watch_tournament', tournament: id }).catch(() => {}); };
  const offWelcome = app.conn.on('welcome', () => { watch(); if (view) show(view); });
  if (app.conn.online) watch();

  getTournament(id).then((shown) => { if (!view) show(shown); }).catch((error) => {
    if (stopped) return;
    main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'tournament-error' } },
      h('p', { role: 'alert' }, describeTournamentError(error)),
      h('a', { class: 'button', href: '#/tournaments' }, t('tournaments.all'))));
  });

  return () => { stopped = true; clearInterval(ticker); offPush(); offWelcome(); leftTournament(); };
}
