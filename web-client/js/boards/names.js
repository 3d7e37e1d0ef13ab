// Seat names as the boards label them: the player's name when seated, else the side's name.
import { s } from '../dom.js';
import { t } from '../i18n/index.js';

export const seatNames = (ctx) => ctx.seatLabels.map((label, seat) => ctx.players?.[seat] || label);

// A name cut to `max` characters for a label with little room ("Émilie-Anne…"); the label's
// <title> keeps it whole.
const shortName = (name, max) => (name.length > max ? `${name.slice(0, max - 1).replace(/[\s,.;:-]+$/, '')}…` : name);

// A tray's owner written beside it at layout point `at`, running away from the tray (whose
// middle is at layout x `trayX`), however the board is turned for the viewer. `place` is the
// id of the tray it names.
export function besideLabel(pt, at, trayX, text, shortened, place) {
  const [x, y] = pt(...at);
  const [tx] = pt(trayX, at[1]);
  return s('text', { class: 'side-label', x, y, 'text-anchor': x < tx ? 'end' : 'start', 'dominant-baseline': 'middle',
    dataset: { captionFor: place } }, s('title', {}, text), shortened);
}

// A caption beside a tray has the room from its anchor to the drawing's edge, which some
// languages' words overrun ("Phần ăn của Phía Nam"): such a caption is narrowed to that room
// rather than cut at the edge. Text has a length only once drawn, so this waits for the board
// to be on the page (a frame, or a few).
export function fitBesideLabels(svg, width, frames = 10) {
  if (!globalThis.requestAnimationFrame) return;      // no layout (unit tests in Node)
  requestAnimationFrame(() => {
    if (!svg.isConnected) {
      if (frames > 1) fitBesideLabels(svg, width, frames - 1);
      return;
    }
    for (const label of svg.querySelectorAll('text.side-label')) {
      const x = Number(label.getAttribute('x'));
      const room = (label.getAttribute('text-anchor') === 'end' ? x : width - x) - 4;
      if (label.getComputedTextLength() > room) {
        label.setAttribute('textLength', room);
        label.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    }
  });
}

// A name for a narrow place (a caption, a table header). A lone computer's level is in the seat
// list, so its captions say just "Computer" rather than a cut "Computer, lev…"; computers of
// one level are told apart by their seat, which a cut would lose, so "Computer (Seat 2)" becomes
// "CPU (Seat 2)". In the player's language, as computer.js names them.
export function compactName(name, max) {
  const computer = t('computer.computer');
  const levelNames = [1, 2, 3, 4, 5].map((n) => t('computer.at_level', { n }));
  const plain = levelNames.includes(name) ? computer : name;
  return shortName(plain.startsWith(`${computer} (`) ? `${t('computer.short')}${plain.slice(computer.length)}` : plain, max);
}
