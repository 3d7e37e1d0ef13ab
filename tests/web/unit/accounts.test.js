// The pure parts of the accounts client: ratings as words, the rating graph's geometry, the
// sentence a visitor with an invite link reads, and where each refusal of the accounts API is
// shown in its form.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ratingLabel, deviationLabel } from '../../../web-client/js/ratings.js';
import { graphGeometry, niceStep } from '../../../web-client/js/rating_graph.js';
import { inviteSentence, roomInviteFacts } from '../../../web-client/js/invite.js';
import { formProblem, accountNameProblem, passwordProblem, repeatProblem } from '../../../web-client/js/account_rules.js';
import { setLanguage } from '../../../web-client/js/i18n/index.js';

describe('rating labels', () => {
  it('round the rating and mark a provisional one', () => {
    assert.equal(ratingLabel({ rating: 1531.6, provisional: false }), '1532');
    assert.equal(ratingLabel({ rating: 1500, provisional: true }), '1500?');
    assert.equal(ratingLabel({ rating: 1662.4999, provisional: true }), '1662?');
  });
  it('say nothing without a rating (a guest, an older server)', () => {
    assert.equal(ratingLabel({ name: 'Ada', account: false }), '');
    assert.equal(ratingLabel(null), '');
    assert.equal(ratingLabel({ rating: Number.NaN }), '');
  });
  it('give the deviation as ±', () => {
    assert.equal(deviationLabel(86.7), '±87');
    assert.equal(deviationLabel(undefined), '');
  });
});

describe('the rating graph', () => {
  const history = [
    { at: '2026-11-27T10:00:00Z', rating: 1662.3, deviation: 290, game_id: 'g1' },
    { at: '2026-11-27T11:00:00Z', rating: 1580, deviation: 250, game_id: 'g2' },
    { at: '2026-11-27T12:00:00Z', rating: 1701.9, deviation: 220, game_id: 'g3' },
  ];

  it('starts at 1500 and puts one point per game, left to right, higher ratings higher', () => {
    const g = graphGeometry(history, { width: 400, height: 200 });
    assert.deepEqual(g.points.map((point) => point.game_id), [null, 'g1', 'g2', 'g3']);
    assert.equal(g.points[0].rating, 1500);
    const xs = g.points.map((point) => point.x);
    assert.deepEqual(xs, [...xs].sort((a, b) => a - b));
    assert.equal(xs[0], g.plot.left);
    assert.equal(xs.at(-1), g.plot.right);
    assert.ok(g.points[3].y < g.points[1].y && g.points[1].y < g.points[2].y && g.points[2].y < g.points[0].y);
    assert.equal(g.line, g.points.map((point) => `${point.x},${point.y}`).join(' '));
  });

  it('keeps every point inside the plot, between gridlines of round numbers', () => {
    const g = graphGeometry(history, { width: 300, height: 180 });
    for (const point of g.points) {
      assert.ok(point.x >= g.plot.left && point.x <= g.plot.right);
      assert.ok(point.y >= g.plot.top && point.y <= g.plot.bottom);
    }
    const labels = g.yTicks.map((tick) => Number(tick.label));
    assert.ok(labels.length >= 3 && labels.length <= 8, labels.join());
    assert.ok(labels[0] <= 1500 && labels.at(-1) >= 1702, labels.join());
    const steps = new Set(labels.slice(1).map((value, i) => value - labels[i]));
    assert.equal(steps.size, 1, 'evenly spaced');
    assert.ok([10, 20, 25, 50, 100].includes([...steps][0]));
    assert.equal(g.yTicks[0].y, g.plot.bottom);
    assert.equal(g.yTicks.at(-1).y, g.plot.top);
  });

  it('names the start and the last game on the x axis, fewer games on a narrow graph', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ rating: 1500 + (i % 7) * 10, deviation: 100, game_id: `g${i}`, at: null }));
    const wide = graphGeometry(many, { width: 1000 });
    const narrow = graphGeometry(many, { width: 340 });
    for (const g of [wide, narrow]) {
      assert.equal(g.xTicks[0].label, 'start');
      assert.equal(g.xTicks.at(-1).label, '40');
      const gaps = g.xTicks.slice(1).map((tick, i) => tick.x - g.xTicks[i].x);
      assert.ok(Math.min(...gaps) >= 28, `labels apart: ${gaps.join()}`);
    }
    assert.ok(narrow.xTicks.length < wide.xTicks.length);
  });

  it('names the start in the player\'s language', () => {
    const games = [{ rating: 1510, deviation: 100, game_id: 'g1', at: null }];
    try {
      setLanguage('vi');
      assert.equal(graphGeometry(games, { width: 340 }).xTicks[0].label, 'đầu');
      setLanguage('de');
      assert.equal(graphGeometry(games, { width: 340 }).xTicks[0].label, 'Start');
    } finally { setLanguage('en'); }
  });

  it('draws a lone start and a flat line with room around them', () => {
    const empty = graphGeometry([], { width: 300, height: 200 });
    assert.equal(empty.points.length, 1);
    assert.equal(empty.points[0].x, (empty.plot.left + empty.plot.right) / 2);
    const flat = graphGeometry([{ rating: 1500, deviation: 300, game_id: 'd', at: null }], { width: 300, height: 200 });
    assert.ok(flat.points.every((point) => point.y > flat.plot.top && point.y < flat.plot.bottom));
    assert.deepEqual(flat.yTicks.map((tick) => tick.label), ['1490', '1500', '1510']);
  });

  it('picks steps of 1, 2 or 5 times a power of ten', () => {
    assert.equal(niceStep(162), 50);
    assert.equal(niceStep(700), 200);
    assert.equal(niceStep(0), 10);
  });
});

describe('the invite sentence', () => {
  it('names the host, the game and its clock', () => {
    assert.equal(inviteSentence({ host: 'Ada', game: 'Cups', clock: '5 min + 3 s', status: 'waiting' }), 'Ada invites you to Cups, 5 min + 3 s');
    assert.equal(inviteSentence({ host: 'Ada', game: 'Cups', clock: '', status: 'waiting' }), 'Ada invites you to Cups');
    assert.equal(inviteSentence({ host: null, game: 'Cups', status: 'waiting' }), 'You are invited to Cups');
  });
  it('says a game is being played, or is over', () => {
    assert.equal(inviteSentence({ game: 'Cups', clock: '1 day per move', status: 'playing', players: ['Ada', 'Bo'] }),
      'Ada and Bo are playing Cups, 1 day per move: you can watch.');
    assert.equal(inviteSentence({ game: 'Cups', status: 'finished', players: ['Ada', 'Bo'] }), 'This Cups game is over.');
  });
  it('takes the host from a room message: whoever else sits there', () => {
    const room = { game: 'cups', status: 'waiting', time_control: { initial_s: 300, increment_s: 3 }, seats: [
      { seat: 0, player_id: 'p-ada', name: 'Ada', bot: false }, { seat: 1, player_id: 'p-me', name: 'Me', bot: false }] };
    const facts = roomInviteFacts(room, 'p-me', { gameName: () => 'Cups', clockText: () => '5 min + 3 s' });
    assert.equal(inviteSentence(facts), 'Ada invites you to Cups, 5 min + 3 s');
    const withBot = { ...room, seats: [room.seats[1], { seat: 1, player_id: 'bot-1', name: 'Computer, level 2', bot: 2 }] };
    assert.equal(inviteSentence(roomInviteFacts(withBot, 'p-me', { gameName: () => 'Cups' })), 'You are invited to Cups');
  });
  it('says what it can when nothing is known yet', () => {
    assert.equal(inviteSentence(null, { invite: true }), 'You are invited to a private game.');
    assert.equal(inviteSentence(null), 'You are invited to a game room.');
  });
});

describe('the account forms', () => {
  it('check names and passwords as the server will', () => {
    assert.equal(accountNameProblem('Ada_Lovelace-2'), '');
    assert.equal(accountNameProblem('Émile'), '', 'letters of any alphabet');
    assert.match(accountNameProblem('Ada Lovelace'), /no spaces/);
    assert.match(accountNameProblem(''), /Type a name/);
    assert.match(accountNameProblem('a'.repeat(25)), /at most 24 .* 25/);
    assert.match(passwordProblem('short'), /at least 10/);
    assert.match(passwordProblem('AdaLovelace', 'adalovelace'), /cannot be your name/);
    assert.equal(passwordProblem('correct horse battery', 'Ada'), '');
    assert.equal(repeatProblem('a', 'a'), '');
    assert.match(repeatProblem('a', 'b'), /differ/);
  });

  it('show each refusal next to the field it is about', () => {
    const refusal = (code, extra = {}) => ({ status: 400, code, message: `server says ${code}`, ...extra });
    // Said in the page's words by code, not in the server's English (issue 49).
    assert.deepEqual(formProblem('signup', refusal('bad_name')), { field: 'name', text: 'That name cannot be used for an account.' });
    assert.deepEqual(formProblem('signup', refusal('weak_password')), { field: 'password', text: 'That password is too common, easy to guess. Pick another.' });
    assert.equal(formProblem('signup', refusal('name_taken', { status: 409 })).field, 'name');
    assert.match(formProblem('signup', refusal('name_taken')).text, /taken/);
    assert.deepEqual(formProblem('signup', refusal('rate_limited', { status: 429, retryAfterS: 42 })),
      { field: 'form', text: 'Too many tries: wait 42 seconds, then try again.' });
    assert.match(formProblem('login', refusal('rate_limited', { retryAfterS: 1 })).text, /wait 1 second,/);
    assert.match(formProblem('login', refusal('rate_limited')).text, /wait a little/);
    assert.deepEqual(formProblem('login', refusal('bad_credentials', { status: 401 })), { field: 'form', text: 'Wrong name or password.' });
    assert.equal(formProblem('password', refusal('bad_credentials')).field, 'current');
    assert.equal(formProblem('password', refusal('weak_password')).field, 'password');
    assert.match(formProblem('reset', refusal('bad_code')).text, /unknown, used already or expired/);
    assert.match(formProblem('login', { status: 0, code: 'offline' }).text, /cannot be reached/);
    assert.deepEqual(formProblem('signup', { status: 403, code: 'forbidden', message: 'cross-origin' }), { field: 'form', text: 'The server answered 403. Please try again.' });
  });
});

// A rated game's change, from a player's rating history (issue 49).
import { changeIn, changeLine } from '../../../web-client/js/rating_change.js';

describe('the rating change of a rated game', () => {
  const history = [{ game_id: 'a', rating: 1662.4, deviation: 290 }, { game_id: 'b', rating: 1610, deviation: 100 }];
  it('is read from the point of that game and the one before', () => {
    assert.equal(changeLine('Cleo', changeIn(history, 'a')), 'Cleo: rating 1500? → 1662? (+162)');
    assert.equal(changeLine('Cleo', changeIn(history, 'b')), 'Cleo: rating 1662? → 1610 (−52)');
  });
  it('is nothing for a game the history lacks', () => {
    assert.equal(changeIn(history, 'c'), null);
    assert.equal(changeIn(undefined, 'a'), null);
  });
});

// A guest reading a rated invite hears at once that they can only watch (issue 49).
describe('a rated invite to a guest', () => {
  it('says watch-only before a name is picked', () => {
    assert.match(inviteSentence({ host: 'Bashir', game: 'Cups', clock: '', status: 'waiting', rated: true, guest: true }),
      /^Bashir invites you to Cups — a rated game: only players with an account sit in it, so as a guest you can watch it\./);
    assert.equal(inviteSentence({ host: 'Bashir', game: 'Cups', clock: '', status: 'waiting', rated: true }), 'Bashir invites you to Cups');
  });
});
