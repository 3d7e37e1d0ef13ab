// "Create a tournament" (issue 48), for a signed-in account: a name, the game and its options
// as the room form offers them (options.js), the clock, the kind, the start in the creator's own
// local time (sent as ISO 8601 UTC), an arena's length and whether it is rated.
import { h, toast } from './dom.js';
import { t } from './i18n/index.js';
import { gameIds, gameName } from './catalog.js';
import { optionsFieldset } from './options.js';
import { CLOCK_PRESETS } from './clock.js';
import { createTournament, describeTournamentError, localToUtc, utcToLocalField } from './tournaments_api.js';

// The room form's presets without its custom kinds: a tournament's games share one clock.
const CLOCKS = CLOCK_PRESETS.filter((preset) => !preset.id.startsWith('custom'));
const MAX_NAME = 60;
// A new tournament starts in a quarter of an hour unless the creator says otherwise.
const DEFAULT_LEAD_MS = 15 * 60 * 1000;

export function tournamentForm(app) {
  const field = (id, label, input, help = null) => h('div', { class: 'field' }, h('label', { for: id }, label), input,
    help ? h('small', {}, help) : null);
  const name = h('input', { id: 'tn-name', required: true, maxlength: MAX_NAME, dataset: { testid: 'tn-name' } });
  const game = h('select', { id: 'tn-game', dataset: { testid: 'tn-game' } },
    gameIds().map((id) => h('option', { value: id }, gameName(id))));
  const optionsSlot = h('div');
  let options = null;
  const showOptions = () => {
    options = optionsFieldset(game.value, { idPrefix: 'tn-opt', fold: true });
    optionsSlot.replaceChildren(options.element);
  };
  game.addEventListener('change', showOptions);
  showOptions();
  const clock = h('select', { id: 'tn-clock', dataset: { testid: 'tn-clock' } },
    CLOCKS.map((preset) => h('option', { value: preset.id, selected: preset.id === '3+2' || undefined }, t(preset.label))));
  const kind = h('select', { id: 'tn-kind', dataset: { testid: 'tn-kind' } },
    h('option', { value: 'arena' }, t('tournaments.kind_arena')),
    h('option', { value: 'round_robin' }, t('tournaments.kind_round_robin')));
  const kindHelp = h('small', { dataset: { testid: 'tn-kind-help' } });
  const starts = h('input', { id: 'tn-starts', type: 'datetime-local', step: 1, required: true,
    value: utcToLocalField(Date.now() + DEFAULT_LEAD_MS), dataset: { testid: 'tn-starts' } });
  const minutes = h('input', { id: 'tn-minutes', type: 'number', min: 1, max: 1440, value: 60, required: true, dataset: { testid: 'tn-minutes' } });
  const minutesField = field('tn-minutes', t('tournaments.form_minutes'), minutes);
  const rated = h('input', { id: 'tn-rated', type: 'checkbox', dataset: { testid: 'tn-rated' } });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { testid: 'tn-create' } }, t('tournaments.create'));

  // A round robin runs until every pair has played: no length to give.
  const showKind = () => {
    const arena = kind.value === 'arena';
    minutesField.hidden = !arena;
    minutes.disabled = !arena;
    kindHelp.textContent = t(arena ? 'tournaments.form_arena_help' : 'tournaments.form_round_robin_help');
  };
  kind.addEventListener('change', showKind);
  showKind();

  async function create(event) {
    event.preventDefault();
    const startsAt = localToUtc(starts.value);
    if (!startsAt) { toast(t('tournaments.form_bad_start')); return; }
    const body = { name: name.value.trim(), game: game.value, options: options.read(), kind: kind.value,
      starts_at: startsAt, rated: rated.checked };
    const chosen = CLOCKS.find((preset) => preset.id === clock.value)?.clock;
    if (chosen) body.clock = chosen;
    if (kind.value === 'arena') body.minutes = Number(minutes.value);
    submit.disabled = true;
    try {
      const created = await createTournament(body);
      app.navigate(`#/tournaments/${encodeURIComponent(created.id)}`);
    } catch (error) {
      toast(describeTournamentError(error));
    } finally { submit.disabled = false; }
  }

  return h('form', { class: 'create tournament-form', onsubmit: create, dataset: { testid: 'tournament-form' } },
    h('h2', {}, t('tournaments.create_title')),
    field('tn-name', t('tournaments.form_name'), name),
    field('tn-game', t('lobby.game'), game),
    optionsSlot,
    field('tn-clock', t('lobby.clock_label'), clock),
    h('div', { class: 'field' }, h('label', { for: 'tn-kind' }, t('tournaments.form_kind')), kind, kindHelp),
    field('tn-starts', t('tournaments.form_starts'), starts, t('tournaments.form_starts_help')),
    minutesField,
    h('div', { class: 'field check' }, rated, h('label', { for: 'tn-rated' }, t('lobby.rated'))),
    submit);
}
