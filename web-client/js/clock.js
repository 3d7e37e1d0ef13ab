// Game clocks. The server sends a clock as {remaining_ms: [per seat], running: seat|null,
// as_of: ISO time}; the time shown is always computed afresh from that (never accumulated), so
// a reload, a late update or a sleeping tab shows the right time. The running seat's time is
// remaining - (now - as_of). A computer whose clock differs from the server's would show the
// wrong time, so when `as_of` is not close to the moment the clock arrived, the arrival is used.
import { h } from './dom.js';
import { t } from './i18n/index.js';

const LOW_MS = 10000;          // under this a clock turns red
const TICK_MS = 100;
const SKEW_MS = 2000;

// The presets of the room form, then the two custom kinds (protocol README "Clocks").
export const CLOCK_PRESETS = [
// `label`: the catalogue's key.
  { id: 'none', label: 'clock.none', clock: null },
  { id: '3+2', label: 'clock.preset_3_2', clock: { initial_s: 180, increment_s: 2 } },
  { id: '5+3', label: 'clock.preset_5_3', clock: { initial_s: 300, increment_s: 3 } },
  { id: '10+5', label: 'clock.preset_10_5', clock: { initial_s: 600, increment_s: 5 } },
  { id: '1d', label: 'clock.preset_1d', clock: { per_move_s: 86400 } },
  { id: '3d', label: 'clock.preset_3d', clock: { per_move_s: 259200 } },
  { id: 'custom', label: 'clock.custom', clock: null },
  { id: 'custom-move', label: 'clock.custom_move', clock: null },
];

// A room's time control in words: "5 min + 3 s", "1 day per move".
export function timeControlText(control) {
  if (!control) return '';
  if (control.per_move_s) return t('clock.per_move', { span: duration(control.per_move_s) });
  return t('clock.fischer', { span: duration(control.initial_s), increment: control.increment_s ?? 0 });
}

function duration(seconds) {
  if (seconds % 86400 === 0) return t('clock.days', { count: seconds / 86400 });
  if (seconds % 3600 === 0) return t('clock.hours', { count: seconds / 3600 });
  if (seconds % 60 === 0) return t('clock.minutes', { count: seconds / 60 });
  return t('clock.seconds', { count: seconds });
}

// Remaining time of a seat at `now` (ms since the epoch).
export function remainingMs(held, seat, now = Date.now()) {
  const clock = held?.clock;
  if (!clock) return null;
  const base = clock.remaining_ms?.[seat] ?? 0;
  if (clock.running !== seat) return base;
  return Math.max(0, base - (now - held.anchor));
}

// Holds the latest clock with the local moment its `as_of` corresponds to.
export function holdClock(clock, receivedAt = Date.now()) {
  if (!clock) return null;
  const asOf = Date.parse(clock.as_of);
  const anchor = Number.isNaN(asOf) || Math.abs(receivedAt - asOf) > SKEW_MS ? receivedAt : asOf;
  return { clock, anchor };
}

// "4:59", "0:09.3", "1:02:03", "23 h 59 min", "2 d 4 h"
export function clockText(ms) {
  const total = Math.max(0, ms);
  if (total < LOW_MS) return `0:0${Math.floor(total / 1000)}.${Math.floor((total % 1000) / 100)}`;
  const seconds = Math.floor(total / 1000);
  const days = Math.floor(seconds / 86400), hours = Math.floor(seconds / 3600) % 24, minutes = Math.floor(seconds / 60) % 60;
  if (days) return t('clock.face_days', { days, hours });
  if (seconds >= 36000) return t('clock.face_hours', { hours, minutes });
  const pad = (n) => String(n).padStart(2, '0');
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}` : `${minutes}:${pad(seconds % 60)}`;
}

// Clock faces; `tick()` refreshes every face from the held clock. Faces are handed out by
// `face(seat)` so the page can place them (the seat list, the bar over the board on phones);
// a timer ticks while a clock runs and a face is on the page.
export function createClocks(getHeld, labelOf) {
  const faces = new Set();          // {seat, node}
  let timer = null;

  function paint(seat, node) {
    const held = getHeld();
    const ms = remainingMs(held, seat);
    if (ms === null) { node.hidden = true; return; }
    node.hidden = false;
    const running = held.clock.running === seat;
    const text = clockText(ms);
    if (node.textContent !== text) node.textContent = text;
    node.classList.toggle('running', running);
    node.classList.toggle('low', ms < LOW_MS);
    node.dataset.ms = String(Math.round(ms));
    node.dataset.running = String(running);
    node.setAttribute('aria-label', t(running ? 'clock.aria_running' : 'clock.aria', { name: labelOf(seat), time: text }));
  }

  function tick() {
    for (const face of faces) {
      if (!face.node.isConnected) faces.delete(face); else paint(face.seat, face.node);
    }
    const running = getHeld()?.clock?.running;
    if (Number.isInteger(running) && faces.size) {
      if (!timer) timer = setInterval(tick, TICK_MS);
    } else if (timer) { clearInterval(timer); timer = null; }
  }

  return {
    face(seat, testid = `clock-${seat}`) {
      const node = h('span', { class: 'clock', role: 'timer', dataset: { testid } });
      faces.add({ seat, node });
      paint(seat, node);
      return node;
    },
    tick,
    stop() { clearInterval(timer); timer = null; },
  };
}
