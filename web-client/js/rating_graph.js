// A player's rating in one game over time, drawn as inline SVG: the rating after each rated game
// (the contract's rating_history, oldest first), from the start at 1500, as one line over a few
// labelled gridlines; each game's point links to its replay. `graphGeometry` is the pure part
// (numbers in, coordinates and labels out, tested in Node); `ratingGraph` draws it at the width
// its box has, so the labels keep their size on a phone and on a laptop.
import { s } from './dom.js';
import { ratingLabel, deviationLabel } from './ratings.js';
import { t, formatDateTime } from './i18n/index.js';

export const START_RATING = 1500;
export const MARGIN = { left: 44, right: 14, top: 12, bottom: 30 };

// A step of 1, 2 or 5 times a power of ten that cuts `span` into about `parts` pieces.
// A flat line still gets a scale of some tens of points around it.
export function niceStep(span, parts = 4) {
  const raw = Math.max(span, 40) / parts;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * power).find((candidate) => candidate >= raw);
  return step;
}

// history: [{at, rating, deviation, game_id}], oldest first. Returns {width, height, plot,
// points: [{x, y, rating, deviation, at, game_id, index}] (the start first, game_id null),
// line: the polyline's "x,y x,y …", yTicks: [{y, label}], xTicks: [{x, label}]}.
export function graphGeometry(history, { width = 360, height = 220 } = {}) {
  const entries = [{ rating: START_RATING, deviation: null, at: null, game_id: null },
    ...history.filter((entry) => typeof entry.rating === 'number')];
  const plot = { left: MARGIN.left, top: MARGIN.top, right: width - MARGIN.right, bottom: height - MARGIN.bottom };
  const ratings = entries.map((entry) => entry.rating);
  const step = niceStep(Math.max(...ratings) - Math.min(...ratings));
  // Whole steps around the ratings, with room above and below even for a flat line.
  const low = Math.floor((Math.min(...ratings) - step / 4) / step) * step;
  const high = Math.ceil((Math.max(...ratings) + step / 4) / step) * step;
  const last = entries.length - 1;
  const xOf = (index) => plot.left + (last ? (index / last) * (plot.right - plot.left) : (plot.right - plot.left) / 2);
  const yOf = (rating) => plot.bottom - ((rating - low) / (high - low)) * (plot.bottom - plot.top);
  const points = entries.map((entry, index) => ({ ...entry, index, x: round(xOf(index)), y: round(yOf(entry.rating)) }));
  const yTicks = [];
  for (let value = low; value <= high + step / 1000; value += step) yTicks.push({ y: round(yOf(value)), label: String(Math.round(value)) });
  return { width, height, plot, points, line: points.map((point) => `${point.x},${point.y}`).join(' '), yTicks,
    xTicks: indexTicks(last, width).map((index) => ({ x: round(xOf(index)), label: index === 0 ? t('profile.graph_start') : String(index) })) };
}

// Coordinates to a tenth of a pixel: short attributes, and equal in tests.
export const round = (value) => Math.round(value * 10) / 10;

// Which numbers (games, moves) the x axis names: the start, the last and a few evenly between,
// fewer on a narrow graph so that labels never touch.
export function indexTicks(last, width) {
  if (last === 0) return [0];
  const room = Math.max(1, Math.floor((width - MARGIN.left - MARGIN.right) / 56));
  const every = Math.max(1, Math.ceil(last / room));
  const ticks = [];
  for (let index = 0; index < last; index += every) ticks.push(index);
  if (ticks.at(-1) !== last && last - ticks.at(-1) < every * 0.75 && ticks.length > 1) ticks.pop();
  return [...ticks, last];
}

// The graph as an <svg>, `width` pixels wide. `label`: what it is of ("Cups rating").
export function ratingGraph(history, { width, height = 220, label, testid }) {
  const g = graphGeometry(history, { width, height });
  return s('svg', { class: 'rating-graph', width: g.width, height: g.height, viewBox: `0 0 ${g.width} ${g.height}`,
    role: 'img', 'aria-label': `${label}: ${g.points.map((point) => Math.round(point.rating)).join(', ')}`, dataset: { testid } },
  graphAxes(g, 'rated games'),
  s('polyline', { class: 'graph-line', points: g.line }),
  g.points.map((point) => (point.game_id ? pointLink(point) : s('circle', { class: 'graph-start', cx: point.x, cy: point.y, r: 3.5 }))));
}

// The gridlines with their labels and the x axis's numbers and name, from a geometry's
// {plot, height, yTicks, xTicks} (the rating graph's and the evaluation graph's).
export function graphAxes({ plot, height, yTicks, xTicks }, axisName) {
  // One flat list: h() and s() flatten their children one level only.
  return [
    ...yTicks.map((tick) => s('g', { class: `graph-tick${tick.kind ? ` ${tick.kind}` : ''}` },
      s('line', { x1: plot.left, x2: plot.right, y1: tick.y, y2: tick.y }),
      s('text', { x: plot.left - 6, y: tick.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, tick.label))),
    ...xTicks.map((tick) => s('text', { class: 'graph-x', x: tick.x, y: plot.bottom + 16, 'text-anchor': 'middle' }, tick.label)),
    s('text', { class: 'graph-axis', x: plot.right, y: height - 2, 'text-anchor': 'end' }, axisName),
  ];
}

// A game's point: a link to its replay, with a wider invisible ring that a finger can hit.
function pointLink(point) {
  const when = point.at ? formatDateTime(point.at) : '';
  return s('a', { href: `#/history/${encodeURIComponent(point.game_id)}`, class: 'graph-point',
    dataset: { testid: `graph-point-${point.game_id}` } },
  s('title', {}, t(when ? 'profile.graph_point_when' : 'profile.graph_point',
    { n: point.index, rating: `${ratingLabel(point)} ${deviationLabel(point.deviation)}`, when })),
  s('circle', { class: 'graph-hit', cx: point.x, cy: point.y, r: 11 }),
  s('circle', { cx: point.x, cy: point.y, r: 4.5 }));
}
