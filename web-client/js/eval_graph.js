// The evaluation graph above the history viewer's board (issue 32): each position's expected
// share for the first seat (two seats: one line over a filled area, 0.50 in the middle), or one
// line per seat with three or four, the marked moves as coloured dots, and the position shown as
// a vertical line. A click anywhere picks the nearest position. Built like the rating graph
// (rating_graph.js: its margins, ticks and axes); `evalGeometry` is the pure part, tested in Node.
import { s } from './dom.js';
import { MARGIN, round, indexTicks, graphAxes } from './rating_graph.js';
import { COLORS } from './boards/view.js';
import { MARKS, markWord } from './analysis_state.js';
import { t, formatNumber } from './i18n/index.js';

// positions: the analysis's [{index, eval, mark, to_move}] (some may be missing while it runs);
// last: the game's last position index; seats: how many. Returns {width, height, plot,
// lines: [{seat, points}], area (two seats), marks: [{version, x, y, mark}], yTicks, xTicks,
// xOf(index), indexAt(x)}.
export function evalGeometry(positions, { last, seats = 2, width = 600, height = 150 }) {
  const plot = { left: MARGIN.left, top: MARGIN.top, right: width - MARGIN.right, bottom: height - MARGIN.bottom };
  const span = plot.right - plot.left;
  const xOf = (index) => round(plot.left + (last ? (index / last) * span : span / 2));
  const yOf = (value) => round(plot.bottom - value * (plot.bottom - plot.top));
  const known = positions.map((p, i) => p && { ...p, index: p.index ?? i }).filter((p) => p && Array.isArray(p.eval));
  // Two seats share one game: the first seat's line tells both.
  const drawn = seats === 2 ? [0] : Array.from({ length: seats }, (_, seat) => seat);
  const lines = drawn.map((seat) => ({ seat, points: known.map((p) => `${xOf(p.index)},${yOf(p.eval[seat])}`).join(' ') }));
  const area = seats === 2 && known.length
    ? `${xOf(known[0].index)},${plot.bottom} ${lines[0].points} ${xOf(known.at(-1).index)},${plot.bottom}` : null;
  // A mark is drawn where its move led: on the position after it, on the mover's line.
  const byIndex = new Map(known.map((p) => [p.index, p]));
  const marks = known.filter((p) => MARKS[p.mark] && p.index < last).map((p) => {
    const after = byIndex.get(p.index + 1) ?? p;
    const seat = seats === 2 ? 0 : p.to_move ?? 0;
    return { version: p.index + 1, x: xOf(p.index + 1), y: yOf(after.eval[seat]), mark: p.mark };
  });
  const yTicks = [1, 0.5, 0].map((value) => ({ y: yOf(value), label: formatNumber(value), kind: value === 0.5 ? 'middle' : null }));
  const xTicks = indexTicks(last, width).map((index) => ({ x: xOf(index), label: index === 0 ? t('analysis.graph_start') : String(index) }));
  const indexAt = (x) => Math.max(0, Math.min(last, Math.round(((x - plot.left) / span) * last)));
  return { width, height, plot, lines, area, marks, yTicks, xTicks, xOf, indexAt };
}

// The graph as an <svg> `width` pixels wide. current: the position shown; onSelect(index).
// `svg.showCurrent(index)` moves the mark of the position shown (the graph keeps its focus).
export function evalGraph(positions, { last, seats, width, height, current, onSelect }) {
  const g = evalGeometry(positions, { last, seats, width, height });
  const { plot } = g;
  const pick = (event) => {
    const box = svg.getBoundingClientRect();
    onSelect(g.indexAt(((event.clientX - box.left) / box.width) * g.width));
  };
  const svg = s('svg', { class: 'eval-graph', width: g.width, height: g.height, viewBox: `0 0 ${g.width} ${g.height}`,
    role: 'slider', tabindex: 0, 'aria-label': t('analysis.graph_label'),
    'aria-valuemin': 0, 'aria-valuemax': last, dataset: { testid: 'eval-graph' },
    onclick: pick,
    onkeydown: (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1, Home: -current, End: last - current }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      onSelect(Math.max(0, Math.min(last, current + step)));
    } },
  g.area ? s('polygon', { class: 'eval-area', points: g.area, style: `fill: ${COLORS[0]}` }) : null,
  graphAxes(g, t('analysis.graph_moves')),
  s('line', { class: 'eval-current', y1: plot.top, y2: plot.bottom }),
  g.lines.map((line) => s('polyline', { class: 'eval-line', points: line.points, style: `stroke: ${COLORS[line.seat]}` })),
  g.marks.map((mark) => s('circle', { class: `eval-mark mark-${mark.mark}`, cx: mark.x, cy: mark.y, r: 4.5,
    dataset: { testid: `graph-mark-${mark.version}` } }, s('title', {}, t('analysis.graph_mark', { n: mark.version, mark: markWord(mark.mark) })))),
  );
  svg.showCurrent = (index) => {
    current = index;
    const line = svg.querySelector('.eval-current');
    line.setAttribute('x1', g.xOf(index));
    line.setAttribute('x2', g.xOf(index));
    svg.setAttribute('aria-valuenow', index);
    svg.dataset.current = index;
  };
  svg.showCurrent(current);
  return svg;
}
