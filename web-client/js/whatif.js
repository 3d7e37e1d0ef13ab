// What-if play in the history viewer (issue 32): from any position of the game, moves tried on
// the board are sent with the ones tried before to POST /api/whatif, which replays them on the
// server without touching the game and answers with the position and the engine's view of it.
// The tried line is kept as a stack of answers, so "Take back" costs no request and a refused
// move loses nothing; "Back to the game" returns to the position the line left from.
import { h } from './dom.js';
import { moveWords } from './moves.js';
import { plural } from './words.js';

// source: the game's requests (analysis_api.js); onChange(): the line changed (redraw the board).
export function createWhatIf({ source, game, onChange }) {
  let line = null;              // {at, moves: [tokens…], answers: [{state, analysis}…]}
  let busy = false;
  let error = '';

  const summary = h('p', { class: 'whatif-line', dataset: { testid: 'whatif-line' } });
  const problem = h('p', { class: 'whatif-error', role: 'alert', dataset: { testid: 'whatif-error' } });
  const engineMove = h('button', { type: 'button', class: 'primary', dataset: { testid: 'whatif-engine' },
    onclick: () => { const best = latest()?.analysis?.best; if (best) play(line.at, best); } }, 'Play the engine\'s move');
  const takeBack = h('button', { type: 'button', class: 'quiet', dataset: { testid: 'whatif-undo' }, onclick: () => undo() }, 'Take back');
  const back = h('button', { type: 'button', class: 'primary', dataset: { testid: 'whatif-back' }, onclick: () => leave() }, 'Back to the game');
  const element = h('section', { class: 'whatif', hidden: true, 'aria-live': 'polite', dataset: { testid: 'whatif' } },
    summary, problem, h('div', { class: 'row whatif-actions' }, engineMove, takeBack, back));

  const latest = () => line?.answers.at(-1) ?? null;

  // A move (a decision, or the engine's whole turn) tried after the line's, from position `at`
  // when no line is being tried yet.
  async function play(at, move) {
    if (busy) return;
    const from = line?.at === at ? line : { at, moves: [], answers: [] };
    busy = true;
    error = '';
    draw();
    try {
      const answer = await source.whatif(at, [...from.moves, move]);
      line = { at, moves: [...from.moves, move], answers: [...from.answers, answer] };
    } catch (failure) {
      error = failure.status === 429 ? 'Too many moves tried for now: wait a moment and try again.' : failure.message;
    }
    busy = false;
    draw();
    onChange();
  }

  function undo() {
    if (!line) return;
    line = line.moves.length > 1 ? { at: line.at, moves: line.moves.slice(0, -1), answers: line.answers.slice(0, -1) } : null;
    error = '';
    draw();
    onChange();
  }

  function leave() {
    line = null;
    error = '';
    draw();
    onChange();
  }

  function draw() {
    element.hidden = !line && !error;
    element.dataset.busy = String(busy);
    summary.textContent = line
      ? `What if… ${plural(line.moves.length, 'move')} tried ${line.at ? `after move ${line.at}` : 'from the start'}: ${line.moves.map((move) => moveWords(game, move)).join(' · ')}`
      : '';
    problem.textContent = error;
    engineMove.hidden = !line || !latest()?.analysis?.best;
    takeBack.hidden = !line;
    back.hidden = !line;
    for (const button of [engineMove, takeBack, back]) button.disabled = busy;
  }

  return {
    element, play, leave,
    active: () => line !== null,
    busy: () => busy,
    at: () => line?.at ?? null,
    // The position reached and the engine's view of it: {state, analysis: {to_move, eval, best, exact}}.
    latest,
  };
}
