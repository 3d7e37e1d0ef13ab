// #/import (issue 32): a game played elsewhere, as a text record (docs/records.md), pasted or read
// from a file. The server reads it (POST /api/records) and says where it goes wrong, by line and
// column; a record it reads opens in the history viewer, which can analyse it and try moves from
// it. Nothing is stored as a played game.
import { h } from './dom.js';
import { importRecord, importedSource } from './analysis_api.js';
import { showViewer } from './replay_view.js';
import { createPositions } from './positions.js';
import { t } from './i18n/index.js';

// The most a record may be: the server reads no request body over 64 KiB (413).
const MAX_RECORD_BYTES = 64 * 1024;
const tooLong = (bytes) => t('import.too_long', { size: Math.ceil(bytes / 1024), max: MAX_RECORD_BYTES / 1024 });

// What a record looks like, in the empty box (no game named: the game modules own those words).
// The tags and tokens are the record's own syntax, only the comment is in the player's words.
const example = () => `[Game "…"]\n[Seat0 "Ana"]\n[Seat1 "Bo"]\n[Date "2026-11-20"]\n\n1. S0 … 2. S1 … {${t('import.example_comment')}} 3. S0 … ?!`;

export function showImportPage(main) {
  let stop = null;
  const text = h('textarea', { id: 'import-text', rows: 12, spellcheck: 'false', placeholder: example(),
    dataset: { testid: 'import-text' }, 'aria-describedby': 'import-help' });
  const file = h('input', { type: 'file', id: 'import-file', accept: '.txt,.pgn,text/plain', dataset: { testid: 'import-file' } });
  const problem = h('p', { class: 'field-problem', role: 'alert', dataset: { testid: 'import-error' } });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { testid: 'import-open' } }, t('import.open'));

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
    if (!text.value.trim()) { problem.textContent = t('import.empty'); return; }
    const bytes = new Blob([text.value]).size;
    if (bytes > MAX_RECORD_BYTES) { problem.textContent = tooLong(bytes); return; }
    submit.disabled = true;
    try {
      const answer = await importRecord(text.value);
      const source = importedSource(answer);
      const positions = createPositions(source, await source.positions(0));
      stop = showViewer(main, { record: answer.record, positions, source, people: false,
        links: [h('a', { href: '#/import', dataset: { testid: 'import-another' }, onclick: showForm }, t('import.another')),
          h('a', { href: '#/history' }, t('history.all_games'))] });
    } catch (error) {
      problem.textContent = error.status === 429 ? t('import.too_many') : error.message;
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
    h('h1', {}, t('import.title')),
    h('p', { id: 'import-help', class: 'muted' }, t('import.help', { download: t('replay.download') })),
    h('form', { class: 'import-form', onsubmit: open },
      h('div', { class: 'field' }, h('label', { for: 'import-text' }, t('import.record')), text),
      h('div', { class: 'field' }, h('label', { for: 'import-file' }, t('import.file')), file),
      problem,
      h('div', { class: 'row' }, submit, h('a', { href: '#/history' }, t('import.back')))));
  showForm();
  return () => stop?.();
}
