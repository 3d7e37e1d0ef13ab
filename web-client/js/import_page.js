// #/import (issue 32): a game played elsewhere, as a text record (docs/records.md), pasted or read
// from a file. The server reads it (POST /api/records) and says where it goes wrong, by line and
// column; a record it reads opens in the history viewer, which can analyse it and try moves from
// it. Nothing is stored as a played game.
import { h } from './dom.js';
import { importRecord, importedSource } from './analysis_api.js';
import { showViewer } from './replay_view.js';
import { createPositions } from './positions.js';

// The most a record may be: the server reads no request body over 64 KiB (413).
const MAX_RECORD_BYTES = 64 * 1024;
const tooLong = (bytes) => `This record is ${Math.ceil(bytes / 1024)} KB; a game record may be at most ${MAX_RECORD_BYTES / 1024} KB.`;

// What a record looks like, in the empty box (no game named: the game modules own those words).
const EXAMPLE = '[Game "…"]\n[Seat0 "Ana"]\n[Seat1 "Bo"]\n[Date "2026-11-20"]\n\n1. S0 … 2. S1 … {a comment} 3. S0 … ?!';

export function showImportPage(main) {
  let stop = null;
  const text = h('textarea', { id: 'import-text', rows: 12, spellcheck: 'false', placeholder: EXAMPLE,
    dataset: { testid: 'import-text' }, 'aria-describedby': 'import-help' });
  const file = h('input', { type: 'file', id: 'import-file', accept: '.txt,.pgn,text/plain', dataset: { testid: 'import-file' } });
  const problem = h('p', { class: 'field-problem', role: 'alert', dataset: { testid: 'import-error' } });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { testid: 'import-open' } }, 'Open the game');

  // A file's text goes into the box, where it can still be corrected before opening; a file
  // larger than a record may be is refused before it is read.
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    if (chosen.size > MAX_RECORD_BYTES) {
      problem.textContent = tooLong(chosen.size);
      file.value = '';
      return;
    }
    text.value = await chosen.text();
    problem.textContent = '';
  });

  async function open(event) {
    event.preventDefault();
    problem.textContent = '';
    if (!text.value.trim()) { problem.textContent = 'Paste a game record, or choose a file.'; return; }
    const bytes = new Blob([text.value]).size;
    if (bytes > MAX_RECORD_BYTES) { problem.textContent = tooLong(bytes); return; }
    submit.disabled = true;
    try {
      const answer = await importRecord(text.value);
      const source = importedSource(answer);
      const positions = createPositions(source, await source.positions(0));
      stop = showViewer(main, { record: answer.record, positions, source, people: false,
        links: [h('a', { href: '#/import', dataset: { testid: 'import-another' }, onclick: showForm }, 'Import another game'),
          h('a', { href: '#/history' }, 'All games')] });
    } catch (error) {
      problem.textContent = error.status === 429 ? 'Too many games opened for now: try again in a minute.' : error.message;
      text.focus();
    } finally {
      submit.disabled = false;
    }
  }

  // The form again keeps the text, to correct it or to open it once more.
  function showForm(event) {
    event?.preventDefault();
    stop?.();
    stop = null;
    main.replaceChildren(form);
  }

  const form = h('section', { class: 'import-page', dataset: { testid: 'import-page' } },
    h('h1', {}, 'Import a game'),
    h('p', { id: 'import-help', class: 'muted' }, 'A game as text: a header of tags (Game, Options, Seat0…, Date, Result), then the moves, as "Download as text" in the game history writes them. The game is shown here, not stored.'),
    h('form', { class: 'import-form', onsubmit: open },
      h('div', { class: 'field' }, h('label', { for: 'import-text' }, 'Game record'), text),
      h('div', { class: 'field' }, h('label', { for: 'import-file' }, 'Or read it from a file'), file),
      problem,
      h('div', { class: 'row' }, submit, h('a', { href: '#/history' }, 'Back to the history'))));
  showForm();
  return () => stop?.();
}
