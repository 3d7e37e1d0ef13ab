// The room's move list: one line per version in words (moves.js), newest at the bottom. A click
// on a line shows that position while the game goes on (like lichess); "Back to live" returns
// to the latest one; the arrow keys step from the focused line. The room owns the positions;
// this only draws the list and reports clicks.
// The history viewer's list has no live game to go back to (no `onLive`), and its lines may
// carry the analysis's mark of the move (?!, ?, ??).
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { markSymbol, markWord } from './analysis_state.js';

export function createMoveList({ onSelect, onLive = null }) {
  const items = h('ol', { class: 'move-items', dataset: { testid: 'move-list' } });
  const live = h('button', { class: 'primary back-live', hidden: true, dataset: { testid: 'back-to-live' },
    onclick: () => onLive?.() }, t('moves.back_to_live'));
  const viewingNote = h('p', { class: 'viewing', hidden: true, dataset: { testid: 'viewing' } });
  const element = h('section', { class: 'moves', 'aria-labelledby': 'moves-title' },
    h('div', { class: 'moves-head' }, h('h2', { id: 'moves-title' }, t('moves.title')), live), viewingNote, items);
  const rows = new Map();       // version -> li
  let viewing = null;

  // Scrolled down, the top line is usually cut in half: it fades out instead, which reads as
  // "more above" rather than as a broken line.
  const markScrolled = () => items.classList.toggle('scrolled', items.scrollTop > 0);
  items.addEventListener('scroll', markScrolled, { passive: true });

  // Arrow keys step through the list from the line that has the focus.
  items.addEventListener('keydown', (event) => {
    const step = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 }[event.key];
    const from = Number(event.target.closest('[data-version]')?.dataset.version);
    const versions = [...rows.keys()].sort((a, b) => a - b);
    const to = versions[versions.indexOf(from) + (step ?? 0)];
    if (!step || to === undefined || to === from) return;
    event.preventDefault();
    onSelect(to);
    rows.get(to).querySelector('button').focus();
  });

  // entry: {version, text, partial, mark}
  function put(entry) {
    const old = rows.get(entry.version);
    // Lines are numbered in order (a turn of several decisions is one line); the start is 0.
    const row = h('li', { class: entry.version === 0 ? 'start' : entry.partial ? 'partial' : null,
      value: entry.version === 0 ? 0 : undefined },
      h('button', { type: 'button', class: 'move', dataset: { testid: `move-${entry.version}`, version: entry.version, mark: entry.mark ?? undefined },
        'aria-current': viewing === entry.version ? 'step' : undefined,
        onclick: () => onSelect(entry.version) }, entry.text,
      entry.mark ? h('span', { class: `move-mark mark-${entry.mark}`, title: markWord(entry.mark),
        dataset: { testid: `mark-${entry.version}` } }, markSymbol(entry.mark)) : null));
    rows.set(entry.version, row);
    // A turn of several decisions is one line: the next line replaces those of its half-played
    // steps (the room describes all of the turn's decisions so far in the latest).
    for (const [version, other] of rows) {
      if (version < entry.version && other.classList.contains('partial')) { other.remove(); rows.delete(version); }
    }
    if (old) { old.replaceWith(row); return; }
    const after = [...rows.keys()].filter((v) => v > entry.version).sort((a, b) => a - b)[0];
    if (after !== undefined && rows.get(after).isConnected) items.insertBefore(row, rows.get(after));
    else items.append(row);
    if (viewing === null) items.scrollTop = items.scrollHeight;
    markScrolled();
  }

  function setViewing(version, text = '') {
    viewing = version;
    for (const [v, row] of rows) {
      const button = row.firstChild;
      if (v === version) button.setAttribute('aria-current', 'step'); else button.removeAttribute('aria-current');
    }
    live.hidden = version === null || !onLive;
    viewingNote.hidden = version === null || !onLive;
    viewingNote.textContent = text;
    element.classList.toggle('stepping', version !== null && Boolean(onLive));
    if (version === null) items.scrollTop = items.scrollHeight;
    else rows.get(version)?.scrollIntoView?.({ block: 'nearest' });
  }

  function clear() { rows.clear(); items.replaceChildren(); }

  // Where a version's line is in the list, and how many moves it shows: "move 3 of 12".
  const versions = () => [...rows.keys()].filter((v) => v > 0).sort((a, b) => a - b);
  const lineOf = (version) => versions().indexOf(version) + 1;
  const lines = () => versions().length;

  return { element, put, setViewing, clear, has: (version) => rows.has(version), lineOf, lines };
}
