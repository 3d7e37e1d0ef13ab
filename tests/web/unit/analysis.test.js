// The history viewer's analysis (issue 32) without a browser: the reducer over the server's
// answers, the progress and the words, the marks, and the evaluation graph's geometry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analysisReducer, initialAnalysis, isWorking, canRequest, progressText, progressShare, markSymbol,
  markOfMove, markedMoves, positionAt } from '../../../web-client/js/analysis_state.js';
import { evalWords, bestWords, markedMoveWords, accuracyWords, helpLines } from '../../../web-client/js/analysis_words.js';
import { evalGeometry } from '../../../web-client/js/eval_graph.js';
import { moveWords, actionsByVersion, describeAction } from '../../../web-client/js/moves.js';

const position = (index, eval0, extra = {}) => ({ index, to_move: index % 2, eval: [eval0, 1 - eval0], best: 'c1', exact: false,
  played: 'r1', drop: 0, mark: null, ...extra });
const done = (positions, more = {}) => analysisReducer(initialAnalysis, { type: 'answer',
  body: { state: 'done', done: positions.length, total: positions.length, positions, accuracy: [90, 70], ...more } });

test('the reducer follows a request from the button to the result', () => {
  let state = analysisReducer(initialAnalysis, { type: 'answer', body: { state: 'none', done: 0, total: 0, positions: [], accuracy: null } });
  assert.equal(state.status, 'none');
  assert.ok(canRequest(state));
  state = analysisReducer(state, { type: 'request' });
  assert.equal(state.status, 'requesting');
  assert.ok(isWorking(state) && !canRequest(state));
  state = analysisReducer(state, { type: 'answer', body: { state: 'running', done: 22, total: 61, positions: [] } });
  assert.ok(isWorking(state));
  assert.equal(progressText(state), 'Analysing move 23 of 61');
  assert.equal(progressShare(state), 22 / 61);
  // A lost answer while polling keeps what is known; polling goes on.
  state = analysisReducer(state, { type: 'error', message: 'The server cannot be reached.' });
  assert.equal(state.status, 'running');
  assert.equal(state.error, 'The server cannot be reached.');
  state = done([position(0, 0.5), position(1, 0.6)]);
  assert.equal(state.status, 'done');
  assert.ok(!isWorking(state) && !canRequest(state));
  assert.deepEqual(state.accuracy, [90, 70]);
  assert.deepEqual(state.thresholds, { inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 });
});

test('a refusal says why and lets the button be pressed again; a failure too', () => {
  const refused = analysisReducer(analysisReducer(initialAnalysis, { type: 'request' }), { type: 'refused', message: 'the game is being played' });
  assert.equal(refused.status, 'refused');
  assert.equal(refused.error, 'the game is being played');
  assert.ok(canRequest(refused));
  const failed = analysisReducer(initialAnalysis, { type: 'answer', body: { state: 'failed' } });
  assert.ok(canRequest(failed) && failed.error);
  // An answer the client does not understand is a failure, never a progress bar forever.
  assert.equal(analysisReducer(initialAnalysis, { type: 'answer', body: { state: 'thinking' } }).status, 'failed');
});

test('progress text while queued, running without a total, and otherwise none', () => {
  const with_ = (body) => analysisReducer(initialAnalysis, { type: 'answer', body });
  assert.match(progressText(with_({ state: 'queued', done: 0, total: 61 })), /Waiting for the engine/);
  assert.equal(progressText(with_({ state: 'running', done: 0, total: 0 })), 'Analysing…');
  assert.equal(progressText(with_({ state: 'running', done: 61, total: 61 })), 'Analysing move 61 of 61');
  assert.equal(progressText(with_({ state: 'done', done: 61, total: 61 })), '');
  assert.equal(progressText(analysisReducer(initialAnalysis, { type: 'request' })), 'Asking the engine…');
});

test('marks: symbols as chess writes them, on the move played from the position', () => {
  assert.deepEqual(['inaccuracy', 'mistake', 'blunder', null, 'odd'].map(markSymbol), ['?!', '?', '??', '', '']);
  const state = done([position(0, 0.5), position(1, 0.55, { mark: 'mistake', drop: 0.23, best: 'c3 R' }), position(2, 0.3),
    position(3, 0.7, { mark: 'blunder', drop: 0.4 }), position(4, 0.1)]);
  assert.equal(markOfMove(state, 0), null);
  assert.equal(markOfMove(state, 1), null);
  assert.equal(markOfMove(state, 2), 'mistake');      // move 2 was played from position 1
  assert.equal(markOfMove(state, 4), 'blunder');
  assert.deepEqual(markedMoves(state), [{ version: 2, mark: 'mistake' }, { version: 4, mark: 'blunder' }]);
  assert.equal(positionAt(state, 3).drop, 0.4);
  assert.equal(markedMoveWords('cups', 2, positionAt(state, 1)), 'Move 2 was a mistake (it lost 0.23). Better was cup 3, right.');
  assert.equal(markedMoveWords('cups', 4, { mark: 'inaccuracy', drop: 0.1, best: null }), 'Move 4 was an inaccuracy (it lost 0.10).');
  assert.equal(markedMoveWords('cups', 3, positionAt(state, 2)), '');
});

test('the evaluation and the best move in words', () => {
  const names = ['South', 'North'];
  assert.equal(evalWords([0.72, 0.28], names), 'South is better: 0.72');
  assert.equal(evalWords([0.3, 0.7], names, true), 'North is better: 0.70 (exact)');
  assert.equal(evalWords([0.51, 0.49], names), 'Even: 0.51');
  assert.equal(evalWords([1, 0], names, true), 'South wins with best play (exact)');
  assert.equal(evalWords([0.5, 0.5], names, true), 'A draw with best play (exact)');
  assert.equal(evalWords([0.5, 0.3, 0.2], ['Seat 1', 'Seat 2', 'Seat 3']), 'Seat 1 0.50 · Seat 2 0.30 · Seat 3 0.20');
  assert.equal(evalWords(null, names), '');
  assert.equal(bestWords('cups', 'r2'), 'Best move: 2 from the reserve');
  assert.equal(bestWords('oanquan', '9 cw'), 'Best move: square 9, clockwise');
  assert.equal(bestWords('cups', null), '');
  assert.equal(moveWords('coin_duel', 'c3 R Q'), 'cup 3, right, quarter');
  assert.equal(accuracyWords(93.14), '93% accuracy');
  assert.equal(accuracyWords(null), '');
});

test('the help states the thresholds the server used', () => {
  const help = helpLines({ inaccuracy: 0.1, mistake: 0.25, blunder: 0.4 }).join(' ');
  assert.match(help, /0\.10 or more is an inaccuracy \(\?!\).*0\.25 or more a mistake \(\?\).*0\.40 or more a blunder \(\?\?\)/);
  assert.match(help, /Accuracy/);
  assert.match(helpLines(undefined, 3)[0], /each player/);
});

test('graph geometry: seat 0 over an area with two seats, a point per position, marks after their move', () => {
  const positions = [position(0, 0.5), position(1, 0.75, { mark: 'blunder' }), position(2, 0.25), position(3, 1)];
  const g = evalGeometry(positions, { last: 3, seats: 2, width: 344, height: 150 });
  // The rating graph's margins: the plot runs from x 44 to 344 − 14 and from y 12 to 150 − 30.
  assert.deepEqual(g.plot, { left: 44, top: 12, right: 330, bottom: 120 });
  assert.equal(g.lines.length, 1);
  assert.equal(g.lines[0].points, '44,66 139.3,39 234.7,93 330,12');
  assert.equal(g.area, '44,120 44,66 139.3,39 234.7,93 330,12 330,120');
  assert.deepEqual(g.marks, [{ version: 2, x: 234.7, y: 93, mark: 'blunder' }]);
  assert.deepEqual(g.yTicks.map((t) => [t.label, t.y]), [['1', 12], ['0.5', 66], ['0', 120]]);
  assert.equal(g.xTicks[0].label, 'start');
  assert.equal(g.xTicks.at(-1).label, '3');
  // A click picks the nearest position, and never one outside the game.
  assert.equal(g.indexAt(44), 0);
  assert.equal(g.indexAt(180), 1);
  assert.equal(g.indexAt(10), 0);
  assert.equal(g.indexAt(900), 3);
});

test('graph geometry: one line per seat with three, positions not analysed yet left out', () => {
  const three = (index, e) => ({ index, eval: e, to_move: index % 3, mark: index === 1 ? 'mistake' : null });
  const g = evalGeometry([three(0, [0.4, 0.3, 0.3]), three(1, [0.5, 0.3, 0.2]), null, three(3, [0.2, 0.2, 0.6])],
    { last: 3, seats: 3, width: 344, height: 150 });
  assert.equal(g.lines.length, 3);
  assert.equal(g.area, null);
  assert.equal(g.lines[2].points.split(' ').length, 3);
  // The mistake of move 2 (played by seat 1 from position 1) sits on seat 1's line, at position 2,
  // which is not known: then at the position it was played from.
  assert.equal(g.marks.length, 1);
  assert.equal(g.marks[0].version, 2);
});

test('an imported record\'s actions are numbered as the positions are, and told by their tokens', () => {
  const turns = [{ seat: 0, tokens: 'r3' }, { event: 'pass', player: 1 }, { seat: 0, tokens: 'c2' }, { event: 'resign', player: 1 },
    { event: 'game_end' }];
  const actions = actionsByVersion(turns);
  assert.deepEqual([...actions.keys()], [1, 2, 3]);
  assert.equal(describeAction('cups', actions.get(1), ['Ana', 'Bo']), 'Ana played 3 from the reserve.');
  assert.equal(describeAction('cups', actions.get(3), ['Ana', 'Bo']), 'Bo resigned.');
  // A stored game's entries carry their versions.
  assert.deepEqual([...actionsByVersion([{ version: 1, seat: 0, tokens: 'r1' }, { event: 'pass' }]).keys()], [1]);
});

test('the best move is pointed out where it starts, by each game\'s board', async () => {
  const { GAMES, movePlaces } = await import('../../../web-client/js/boards/index.js');
  const on = (game) => ({ spec: GAMES[game].board });
  assert.deepEqual(movePlaces(on('cups'), 'r2', { to_move: 1 }), ['s1res']);
  assert.deepEqual(movePlaces(on('coin_duel'), 'c3 R Q', { to_move: 0 }), ['s0c3']);
  assert.deepEqual(movePlaces(on('njaka'), '7', { to_move: 2 }), ['h7']);
  assert.deepEqual(movePlaces(on('oanquan'), '9 cw', { to_move: 1 }), ['q9']);
  // The rest of a turn begun: where the lap goes.
  assert.deepEqual(movePlaces(on('coin_duel'), 'R D', { to_move: 0, board: { turn: { from: 8, count: 2 } } }), ['s0c9', 's0c10']);
});
