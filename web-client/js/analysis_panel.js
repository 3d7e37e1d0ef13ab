// The analysis card above the history viewer's board (issue 32): "Analyse" while there is none,
// the progress while the engine works (asked again about once a second, until the page is left),
// then the evaluation graph, drawn at its box's width and again when that changes. The reducer
// (analysis_state.js) holds what is known; this draws it and asks the server.
import { h } from './dom.js';
import { t, aboutSpan } from './i18n/index.js';
import { analysisReducer, initialAnalysis, isWorking, isDone, canRequest, progressText, progressShare } from './analysis_state.js';
import { evalGraph } from './eval_graph.js';
import { helpLines } from './analysis_words.js';
import { COLORS } from './boards/view.js';

const POLL_MS = 1000;

// source: the game's requests (analysis_api.js); last: its last position; seats; names;
// onSelect(version): a click on the graph; onChange(state): the analysis changed (marks,
// accuracy). `hint`: nodes the viewer puts under the graph (the position's evaluation).
// playing: the game is still being played, so it cannot be analysed yet (no help during play).
export function createAnalysisPanel({ source, last, seats, names, onSelect, onChange, playing = false }) {
  let state = initialAnalysis;
  let current = 0;
  let timer = null;
  let stopped = false;
  let drawnWidth = 0;

  const button = h('button', { type: 'button', class: 'primary', dataset: { testid: 'analyse' }, onclick: () => request() }, t('analysis.analyse'));
  const progress = h('div', { class: 'analysis-progress', hidden: true, dataset: { testid: 'analysis-progress' } });
  const problem = h('p', { class: 'analysis-error', role: 'alert', dataset: { testid: 'analysis-error' } });
  const intro = h('p', { class: 'muted analysis-intro', dataset: { testid: 'analysis-intro' } }, t(playing
    ? 'analysis.intro_playing' : 'analysis.intro'));
  const graphBox = h('div', { class: 'eval-box', hidden: true });
  // Whose share the lines are (two seats: the first's, which tells both).
  const legend = h('p', { class: 'eval-legend', hidden: true }, (seats === 2 ? [0] : names.map((_, seat) => seat)).map((seat) =>
    h('span', { style: `--seat: ${COLORS[seat]}` }, seats === 2 ? t('analysis.share_of', { name: names[seat] }) : names[seat])));
  const hint = h('div', { class: 'analysis-hint', dataset: { testid: 'analysis-hint' } });
  const element = h('section', { class: 'analysis', 'aria-label': t('analysis.title'), dataset: { testid: 'analysis', status: state.status } },
    h('div', { class: 'analysis-head row' }, h('h2', {}, t('analysis.title')), legend, button, progress), intro, problem, graphBox, hint);
  const help = h('details', { class: 'analysis-help', dataset: { testid: 'analysis-help' } },
    h('summary', {}, t('analysis.about')), h('ul', {}, helpLines(state.thresholds, seats).map((line) => h('li', {}, line))));

  const observer = new ResizeObserver(() => drawGraph());
  observer.observe(graphBox);

  function dispatch(action) {
    state = analysisReducer(state, action);
    draw();
    onChange(state);
  }

  // One answer from the server; while the engine works, the next question a second later.
  async function ask(call) {
    clearTimeout(timer);
    try {
      dispatch({ type: 'answer', body: await call() });
    } catch (error) {
      if (stopped) return;
      dispatch(error.status ? { type: 'refused', message: refusal(error) } : { type: 'error', message: error.message });
    }
    if (!stopped && isWorking(state)) timer = setTimeout(() => (element.isConnected ? ask(source.analysis) : stop()), POLL_MS);
  }

  function request() {
    if (isWorking(state) || isDone(state)) return;
    dispatch({ type: 'request' });
    ask(source.analyse);
  }

  function draw() {
    element.dataset.status = state.status;
    button.hidden = playing || !canRequest(state);
    button.textContent = t(state.status === 'none' ? 'analysis.analyse' : 'analysis.try_again');
    intro.hidden = isDone(state);
    problem.textContent = state.error;
    progress.hidden = !isWorking(state);
    progress.replaceChildren(h('span', {}, progressText(state)),
      h('span', { class: 'bar', 'aria-hidden': 'true' }, h('span', { style: `width: ${Math.round(progressShare(state) * 100)}%` })));
    help.querySelector('ul').replaceChildren(...helpLines(state.thresholds, seats).map((line) => h('li', {}, line)));
    graphBox.hidden = !isDone(state);
    legend.hidden = !isDone(state);
    drawnWidth = 0;
    drawGraph();
  }

  function drawGraph() {
    const width = Math.floor(graphBox.clientWidth);
    if (!isDone(state) || !width || width === drawnWidth) return;
    drawnWidth = width;
    graphBox.replaceChildren(evalGraph(state.positions, { last, seats, current, onSelect,
      width, height: width < 500 ? 120 : 150 }));
  }

  // A first look: a game analysed before opens with its analysis; `start` asks for one at once
  // (the result banner's "Analyse" link).
  async function load(start) {
    if (playing) return;
    try {
      dispatch({ type: 'answer', body: await source.analysis() });
    } catch {
      dispatch({ type: 'answer', body: { state: 'none' } });   // a server without analysis: the button says why on a press
    }
    if (stopped) return;
    if (start && canRequest(state)) request();
    else if (isWorking(state)) ask(source.analysis);
  }

  function stop() { stopped = true; clearTimeout(timer); observer.disconnect(); }

  draw();

  return {
    element, help, hint, load, stop,
    state: () => state,
    // The position shown: the graph marks it.
    show(version) {
      current = version;
      graphBox.firstChild?.showCurrent?.(version);
    },
  };
}

function refusal(error) {
  if (error.status === 429) return error.retryAfterS ? t('analysis.too_many_wait', { span: aboutSpan(Math.ceil(error.retryAfterS)) }) : t('analysis.too_many');
  if (error.status === 404) return t('analysis.cannot');
  return error.message;
}
