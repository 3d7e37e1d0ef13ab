// The machinery every board shares: places laid out in SVG, their contents drawn as piles with
// a number beside them, legal choices made clickable, and sowing played back step by step.
//
// A board module describes its game as a `spec`:
//   size: [width, height] of the drawing
//   places(ctx)            -> [{id, x, y, shape, w, h, r, tone, label, lx, ly, name}]
//   decorate(ctx, pt)      -> SVG nodes drawn under the places (pt maps layout to screen)
//   contents(state, ctx)   -> {placeId: content}; a content is {kind: count} (kinds: n, P, N, D,
//                             Q, w, b, big)
//   drawContent(place, content, ctx) -> SVG node (optional; default: plain counters)
//   target(token, ctx)     -> the place a legal token is played by clicking, or null
//   steps(events, ctx)     -> animation steps (see `applyStep`)
//   origin(move, ctx)      -> the places a whole move ("r3", "c3 R Q") starts from, for the
//                             engine's hint (optional; default: where its first token is clicked)
//   rotation(ctx)          -> degrees the layout turns so the viewer's side is at the bottom
//   round                  -> true when the drawing is a disc, so turning it needs no bigger frame
// and for the turn guide (guide.js), all optional: followUps, describe(token), preview, turnNote,
// prompt(tokens) (what to ask for these choices) and choiceIcon(token) (a picture for a button).
import { t } from '../i18n/index.js';
import { s } from '../dom.js';
import { animation } from '../storage.js';
import { fitBesideLabels } from './names.js';

export const COLORS = ['#2f7f7a', '#c07a22', '#7b4fa3', '#b5485d'];   // seat colours
const MAX_DOTS = 40;
const HAND_RADIUS = 13;
const NUMBER_BAND = 14;       // the strip at the top of a numbered place kept for its number

export function total(content) {
  return Object.values(content ?? {}).reduce((sum, n) => sum + n, 0);
}

export function createBoardView(spec, ctx) {
  const [baseWidth, baseHeight] = spec.size(ctx);
  const degrees = spec.rotation?.(ctx) ?? 0;
  const turn = (degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
  // A quarter turn (phones in portrait) swaps the drawing's width and height; a turned
  // rectangle needs a bigger frame. A round board (`spec.round`) fits its frame at any angle.
  const width = spec.round ? baseWidth : Math.round(Math.abs(baseWidth * cos) + Math.abs(baseHeight * sin));
  const height = spec.round ? baseHeight : Math.round(Math.abs(baseWidth * sin) + Math.abs(baseHeight * cos));
  const sideways = Math.abs(sin) > 0.99;
  const pt = (x, y) => {
    const dx = x - baseWidth / 2, dy = y - baseHeight / 2;
    return [width / 2 + dx * cos - dy * sin, height / 2 + dx * sin + dy * cos];
  };
  const places = new Map(spec.places(ctx).map((p) => {
    const [x, y] = pt(p.x, p.y);
    const [lx, ly] = p.labelBelow !== undefined ? [x, y + p.labelBelow]
      : p.lx !== undefined ? pt(p.lx, p.ly) : [x, y + (p.r ?? p.h / 2) + 16];
    const [w, h] = sideways ? [p.h, p.w] : [p.w, p.h];
    // A place may put its number elsewhere than at its top (`nx`, `ny`: Duovallis, whose holes
    // are full of stones, writes it in the corner of the cell).
    const [nx, ny] = p.nx !== undefined ? pt(p.nx, p.ny) : [undefined, undefined];
    return [p.id, { ...p, x, y, lx, ly, nx, ny, w, h, boardWidth: width }];
  }));

  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: `board board-${ctx.game}`,
    role: 'group', 'aria-label': t('place_words.board', { game: ctx.gameName ?? ctx.game }), dataset: { testid: 'board' } });
  const placeLayer = s('g', { class: 'places' });
  const overlay = s('g', { class: 'overlay' });
  svg.append(s('g', { class: 'decor' }, spec.decorate?.(ctx, pt) ?? []), placeLayer, overlay);
  fitBesideLabels(svg, width);

  const nodes = new Map();
  for (const place of places.values()) {
    const node = s('g', { class: `place place-${place.shape} tone-${place.tone ?? 'none'}`,
      dataset: { place: place.id, testid: `place-${place.id}`, ...(place.kind ? { kind: place.kind } : {}) } });
    nodes.set(place.id, node);
    placeLayer.append(node);
  }

  let contents = {};
  let choices = new Map();       // place id -> token
  let selected = null;
  let onChoose = null;

  function drawPlace(id) {
    const place = places.get(id);
    const node = nodes.get(id);
    const content = contents[id] ?? {};
    const token = choices.get(id);
    node.classList.toggle('choice', Boolean(token));
    node.style.display = place.hideWhenEmpty && total(content) === 0 ? 'none' : '';
    node.classList.toggle('selected', selected === id);
    node.replaceChildren(...[
      // The place's name on hover ("square 3", "hole 7"), as the move list calls it.
      place.name ? s('title', {}, place.name) : null,
      shapeOf(place),
      numberOf(place),
      (spec.drawContent ?? drawCounters)(place, content, ctx),
      place.hideCount ? null : s('text', { ...labelAnchor(place), y: place.ly, class: 'count',
        'dominant-baseline': 'middle', dataset: { testid: `count-${id}` } },
      (spec.countText ?? countText)(content, place, ctx)),
    ].filter(Boolean));
    // Every place is a button a keyboard reaches, named with its owner and what it holds, so a
    // screen reader can read the whole board; the playable ones are played with Enter or Space.
    node.setAttribute('role', 'button');
    node.setAttribute('tabindex', '0');
    node.setAttribute('aria-label', `${spokenName(place)}: ${spokenContent(place, content)}${token ? ', playable' : ''}`);
    if (token) {
      node.removeAttribute('aria-disabled');
      node.dataset.token = token;
    } else {
      node.setAttribute('aria-disabled', 'true');
      node.removeAttribute('data-token');
    }
  }

  // "Ada's cup 3", "Bo's pot", "square 7": a place with an owner is named after the player.
  function spokenName(place) {
    return place.seat !== undefined && ctx.players?.[place.seat] ? t('place_words.owned', { name: ctx.players[place.seat], kind: place.kind }) : place.name ?? place.id;
  }

  function spokenContent(place, content) {
    if (spec.spokenContent) return spec.spokenContent(content, place, ctx);
    const text = (spec.countText ?? countText)(content, place, ctx);
    if (!text) return 'empty';
    return /^\d+$/.test(text) ? `${text} ${text === '1' ? 'counter' : 'counters'}` : text;
  }

  // Nothing is drawn before the first state arrives.
  function redraw() { if (ctx.state) for (const id of places.keys()) drawPlace(id); }

  function activate(event) {
    const node = event.target.closest('[data-token]');
    if (!node || !onChoose) return;
    if (event.type === 'keydown' && event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onChoose(node.dataset.token, node.dataset.place);
  }
  svg.addEventListener('click', activate);
  svg.addEventListener('keydown', activate);
  svg.addEventListener('keydown', moveFocus);

  // Arrow keys move the focus to the next playable place that way on screen, whichever way the
  // board is turned for the viewer: along a row, down a phone's upright column, round Njaka's
  // ring. Tab still reaches every place.
  function moveFocus(event) {
    const way = ARROWS[event.key];
    const from = event.target.closest?.('[data-place]');
    if (!way || !from || event.altKey || event.ctrlKey || event.metaKey) return;
    const next = nearestPlayableToward(places.get(from.dataset.place), way);
    event.preventDefault();  // the page does not scroll under a player who steers with arrows
    if (next) nodes.get(next).focus();
  }

  // The playable place closest to `origin` in direction `way` ([dx, dy] on screen): what lies
  // straight that way first, a place off to the side only when nothing does. Null when none.
  function nearestPlayableToward(origin, [dx, dy]) {
    let best = null;
    let bestScore = Infinity;
    for (const id of choices.keys()) {
      const place = places.get(id);
      const along = (place.x - origin.x) * dx + (place.y - origin.y) * dy;
      if (along < 1) continue;  // not that way
      const aside = Math.abs((place.x - origin.x) * dy - (place.y - origin.y) * dx);
      const score = along + 2 * aside;
      if (score < bestScore) [best, bestScore] = [id, score];
    }
    return best;
  }

  // --- playback --------------------------------------------------------------------------
  let hand = [];
  let handAt = null;

  // The hand floats just above the place it is over; a place at the top edge of the drawing (a
  // reserve tray) gets it below instead, so it is never cut off (issue 17, bug 8).
  function drawHand() {
    overlay.replaceChildren();
    if (!hand.length || !handAt) return;
    const place = places.get(handAt);
    const reach = (place.r ?? place.h / 2) + 8;
    const y = place.y - reach - HAND_RADIUS < 0 ? place.y + reach : place.y - reach;
    overlay.append(s('g', { class: 'hand', transform: `translate(${place.x} ${y})` },
      s('circle', { r: HAND_RADIUS }),
      s('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central' }, hand.length)));
  }

  function pulse(id, kind = 'pulse') {
    const node = nodes.get(id);
    if (!node) return;
    node.classList.remove(kind);
    void node.getBoundingClientRect();
    node.classList.add(kind);
    setTimeout(() => node.classList.remove(kind), 800);
  }

  // Steps: {lift: id, items?} takes a place's contents (or the listed items) into the hand;
  // {drop: id} puts the hand's next item there; {take: id, to?, content?, as?} moves a capture;
  // {add: id, content} and {set: id, content} change a place; {say: text} shows a caption.
  function applyStep(step) {
    if (step.lift !== undefined) {
      const content = contents[step.lift] ?? {};
      hand = step.items ? [...step.items] : itemsOf(content);
      contents[step.lift] = subtract(content, hand);
      handAt = step.lift;
      drawPlace(step.lift);
      pulse(step.lift, 'lifted');
    } else if (step.drop !== undefined) {
      const item = hand.shift() ?? step.item ?? 'n';
      contents[step.drop] = add(contents[step.drop], { [item]: 1 });
      handAt = step.drop;
      drawPlace(step.drop);
      pulse(step.drop);
    } else if (step.take !== undefined) {
      const taken = step.content ?? contents[step.take] ?? {};
      contents[step.take] = subtract(contents[step.take] ?? {}, itemsOf(taken));
      if (step.to !== undefined && places.has(step.to)) contents[step.to] = add(contents[step.to], step.as ?? taken);
      drawPlace(step.take);
      pulse(step.take, 'captured');
      if (step.to !== undefined && places.has(step.to)) { drawPlace(step.to); pulse(step.to); }
    } else if (step.set !== undefined) {
      contents[step.set] = { ...step.content };
      drawPlace(step.set);
      pulse(step.set);
    } else if (step.add !== undefined) {
      contents[step.add] = add(contents[step.add], step.content);
      drawPlace(step.add);
      pulse(step.add);
    }
    if (step.say) view.onCaption?.(step.say);
    drawHand();
  }

  let playing = null;
  let skip = false;

  const view = {
    element: svg,
    places,
    onCaption: null,

    show(state) {
      ctx.state = state;
      contents = spec.contents(state, ctx);
      hand = [];
      redraw();
      const marked = spec.marks?.(state, ctx) ?? [];
      for (const [id, node] of nodes) node.classList.toggle('next', marked.includes(id));
      drawHand();
    },

    // Shows `before`, plays the sowing the events describe, and ends on `after`.
    async play(events, before, after) {
      const speed = animation.get();
      let steps = [];
      if (speed !== 'off' && before) {
        ctx.state = before;
        try { steps = spec.steps?.(events, ctx) ?? []; } catch (error) { console.warn('no animation', error); }
      }
      if (!steps.length) { this.show(after); pulseChanges(before, after); return; }
      this.show(before);
      const delay = Math.max(35, Math.min(260, 2600 / steps.length)) * (speed === 'fast' ? 0.4 : 1);
      skip = false;
      playing = (async () => {
        for (const step of steps) {
          if (skip) break;
          applyStep(step);
          await wait(step.say ? delay * 3 : delay);
        }
      })();
      await playing;
      playing = null;
      this.show(after);
    },

    finishAnimation() { skip = true; },

    // Legal tokens the player can click on the board; returns the tokens left for buttons.
    setChoices(tokens, handler) {
      choices = new Map();
      const rest = [];
      for (const token of tokens) {
        const id = spec.target?.(token, ctx);
        if (id !== null && id !== undefined && places.has(id) && !choices.has(id)) choices.set(id, token);
        else rest.push(token);
      }
      onChoose = handler;
      redraw();
      return rest;
    },

    select(id) { selected = id; ctx.selected = id; redraw(); },
    // `kind`: the class the places get: 'preview' (the guide's choices), 'hint' (the engine's
    // best move in the history viewer); each kind is set and cleared on its own.
    highlight(ids, kind = 'preview') {
      for (const [id, node] of nodes) node.classList.toggle(kind, ids.includes(id));
    },
  };

  function pulseChanges(before, after) {
    if (!before) return;
    const old = spec.contents(before, ctx);
    const now = spec.contents(after, ctx);
    for (const id of places.keys()) {
      if (JSON.stringify(old[id] ?? {}) !== JSON.stringify(now[id] ?? {})) pulse(id);
    }
  }

  return view;
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Screen directions of the arrow keys (SVG y grows downward).
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

export function add(content = {}, more = {}) {
  const out = { ...content };
  for (const [kind, n] of Object.entries(more)) out[kind] = (out[kind] ?? 0) + n;
  return out;
}

function subtract(content, items) {
  const out = { ...content };
  for (const kind of items) out[kind] = Math.max(0, (out[kind] ?? 0) - 1);
  return out;
}

export function itemsOf(content = {}) {
  return Object.entries(content).flatMap(([kind, n]) => Array(Math.max(0, n)).fill(kind));
}

function countText(content) {
  const n = total(content);
  return n === 0 ? '' : String(n);
}

// A count near the left or right edge of the drawing is written away from the edge, so a long
// one ("1 in hand" beside a tray on a phone) is not cut off.
function labelAnchor(place) {
  const EDGE = 44;
  if (place.lx < EDGE) return { x: Math.max(2, place.lx - 20), 'text-anchor': 'start' };
  if (place.lx > place.boardWidth - EDGE) return { x: Math.min(place.boardWidth - 2, place.lx + 20), 'text-anchor': 'end' };
  return { x: place.lx, 'text-anchor': 'middle' };
}

// The number a move's words use for a place ("cup 4", "square 3", "hole 7"), written small
// at the top of the place so a description can be followed on the board.
// A board module may give the number itself (`number`: the rows' cups, whose names are translated).
export const placeNumber = (place) => (place.number !== undefined ? String(place.number) : /(?:cup|square|hole) (\d+)$/.exec(place.name ?? '')?.[1]);

function numberOf(place) {
  const number = placeNumber(place);
  if (number === undefined) return null;
  const top = place.y - (place.r ?? place.h / 2);
  const [x, y] = place.nx !== undefined ? [place.nx, place.ny] : [place.x, top + 10];
  return s('text', { class: 'place-number', x, y, 'text-anchor': 'middle', 'dominant-baseline': 'middle',
    'aria-hidden': 'true' }, number);
}

// The room a pile has inside a place: below the number strip when the number is written at the
// top of the place, so counters never cover it.
export function pileArea(place) {
  if (placeNumber(place) === undefined || place.nx !== undefined) return place;
  const half = NUMBER_BAND / 2;
  return { ...place, y: place.y + half, r: place.r && place.r - half, h: place.h - NUMBER_BAND };
}

function shapeOf(place) {
  if (place.shape === 'rect' || place.shape === 'pot') {
    return s('rect', { class: 'well', x: place.x - place.w / 2, y: place.y - place.h / 2,
      width: place.w, height: place.h, rx: Math.min(place.w, place.h) / 2.4 });
  }
  if (place.shape === 'half') {
    // An end space: a half disc whose flat side faces the squares.
    const r = place.h / 2;
    const left = place.x < place.boardWidth / 2;
    const flat = left ? place.x + place.w / 2 : place.x - place.w / 2;
    const sweep = left ? 0 : 1;
    return s('path', { class: 'well', d: `M ${flat} ${place.y - r} A ${place.w} ${r} 0 0 ${sweep} ${flat} ${place.y + r} Z` });
  }
  if (place.shape === 'tray') {
    return s('rect', { class: 'well tray', x: place.x - place.w / 2, y: place.y - place.h / 2,
      width: place.w, height: place.h, rx: 10 });
  }
  return s('circle', { class: 'well', cx: place.x, cy: place.y, r: place.r });
}

// Counters laid out in a sunflower pattern inside the place: any number stays tidy, and the
// number label says exactly how many there are.
export function drawCounters(whole, content, _ctx, kinds = { n: 'seed' }) {
  const g = s('g', { class: 'pile' });
  const items = itemsOf(content).filter((k) => kinds[k]);
  if (whole.shape === 'tray') return drawRowsOfCounters(g, whole, items, kinds);
  const place = pileArea(whole);
  const shown = items.slice(0, MAX_DOTS);
  const radius = (place.r ?? Math.min(place.w, place.h) / 2) * 0.78;
  const size = Math.max(2.6, Math.min(7, radius / (1.1 * Math.sqrt(shown.length + 1))));
  shown.forEach((kind, i) => {
    const [dx, dy] = sunflower(i, shown.length, radius - size);
    g.append(s('circle', { class: kinds[kind], cx: place.x + dx, cy: place.y + dy, r: size }));
  });
  return g;
}

// A tray holds up to a hundred counters: rows of small dots, filled left to right.
function drawRowsOfCounters(g, place, items, kinds) {
  const shown = items.slice(0, 100);
  const upright = place.h > place.w;
  const [long, short] = upright ? [place.h, place.w] : [place.w, place.h];
  const perRow = Math.max(10, Math.ceil(shown.length / 4));
  const rows = Math.ceil(shown.length / perRow);
  const step = Math.min(14, (long - 16) / perRow, (short - 8) / Math.max(rows, 1));
  shown.forEach((kind, i) => {
    const along = -((Math.min(perRow, shown.length) - 1) * step) / 2 + (i % perRow) * step;
    const across = -((rows - 1) * step) / 2 + Math.floor(i / perRow) * step;
    g.append(s('circle', { class: kinds[kind], r: step * 0.4,
      cx: place.x + (upright ? across : along), cy: place.y + (upright ? along : across) }));
  });
  return g;
}

export function sunflower(i, count, radius) {
  if (count === 1) return [0, 0];
  const r = radius * Math.sqrt((i + 0.5) / count);
  const angle = i * 2.39996;
  return [r * Math.cos(angle), r * Math.sin(angle)];
}
