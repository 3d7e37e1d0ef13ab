// A game's host options as the server describes them (catalog.js), turned into form fields and
// short notes. Nothing about an option is kept here: its name, default, choices or range and its
// help all come from `/api/game-types`. Only the wording of names, values and help sentences is
// the catalogues'.
import { h } from './dom.js';
import { t, hasKey } from './i18n/index.js';
import { gameType, gameName, seatCount } from './catalog.js';
import { seatLabels } from './boards/index.js';

// Value spellings that read badly as they are.
const WORDS = { ccw: 'option_value.ccw', cw: 'option_value.cw', random: 'option_value.random' };
// Ranges this short are a list to pick from rather than a number to type.
const SHORT_RANGE = 6;

const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

export const gameOptions = (game) => gameType(game)?.options ?? [];

// Options in a player's words (issue 17: "What happens after an illegal move", not "Illegal
// move policy"), from the catalogue: option.<name> and option_value.<name>_<value>. An option the
// catalogue lacks gets a label made from its name.
const WORDED = new Set(['cups_per_side', 'first_player', 'illegal_move_policy', 'stage', 'round_starter',
  'max_turns_per_round', 'match_mode', 'sold_squares_to_end', 'chain_captures', 'stall_limit', 'max_rounds', 'players',
  'advanced', 'direction', 'target', 'plex_mode', 'plex_window_ms']);
const WORDED_VALUES = new Set(['illegal_move_policy_reject', 'illegal_move_policy_forfeit', 'stage_1', 'stage_2', 'stage_3',
  'round_starter_alternate', 'round_starter_same', 'match_mode_match', 'match_mode_single', 'plex_mode_race', 'plex_mode_mover']);

// The options shown at once in the room form; the others wait behind "More options".
export const MAIN_OPTIONS = new Set(['cups_per_side', 'stage', 'players', 'match_mode']);

// "plex_window_ms" -> "Plex window (ms)" when the option has no wording above.
export function optionLabel(option) {
  if (WORDED.has(option.name)) return t(`option.${option.name}`);
  const ms = option.name.endsWith('_ms');
  return capitalize((ms ? option.name.slice(0, -3) : option.name).replaceAll('_', ' ')) + (ms ? ' (ms)' : '');
}

// The sentence under an option's field, from the catalogue: option.<game>.<name>.help (per game,
// as the same option says different things in different games). An option no catalogue knows
// yet (a new game on the server) keeps the server's English sentence, as a label keeps its name.
export function optionHelp(game, option) {
  const key = `option.${game}.${option.name}.help`;
  return hasKey(key) ? t(key) : sentence(capitalize(option.help ?? ''));
}

const isBoolean = (option) => Array.isArray(option.choices) && option.choices.length > 0 &&
  option.choices.every((value) => typeof value === 'boolean');
const isSeat = (option, value) => option.name === 'first_player' && Number.isInteger(value);

// The values offered for an option: its choices (seats only those the room has), or a short range.
function offeredValues(game, option, options) {
  if (option.choices) {
    const seats = seatCount(game, options);
    return option.choices.filter((value) => !isSeat(option, value) || value < seats);
  }
  if (Number.isInteger(option.min) && Number.isInteger(option.max) && option.max - option.min < SHORT_RANGE) {
    return Array.from({ length: option.max - option.min + 1 }, (_, i) => option.min + i);
  }
  return null;
}

export function valueLabel(game, option, value, options) {
  if (typeof value === 'boolean') return t(value ? 'option_value.yes' : 'option_value.no');
  if (isSeat(option, value)) {
    const side = seatLabels(game, options)[value];
    return side && side !== t('lobby.seat', { n: value + 1 }) ? t('lobby.seat_named', { n: value + 1, label: side }) : t('lobby.seat', { n: value + 1 });
  }
  if (WORDED_VALUES.has(`${option.name}_${value}`)) return t(`option_value.${option.name}_${value}`);
  if (typeof value === 'string') return capitalize(WORDS[value] ? t(WORDS[value]) : value.replaceAll('_', ' '));
  return String(value);
}

// Whether an option may leave its default with the other options as they are (`only_with`:
// Njaka's advanced variant is for two players). Options are compared as the form holds them,
// defaults filled in.
function allowed(game, option, options) {
  const current = (name) => options[name] ?? gameOptions(game).find((other) => other.name === name)?.default;
  return Object.entries(option.only_with ?? {}).every(([other, needed]) => current(other) === needed);
}

// One field per option: a checkbox for yes/no, a list for choices and short ranges, else a
// number box with the range. `data-testid="option-<name>"`; list values are JSON. `idPrefix`
// keeps element ids unique when two forms are on the page.
export function optionField(game, option, options = {}, { idPrefix = 'opt' } = {}) {
  const id = `${idPrefix}-${option.name}`;
  const testid = `option-${option.name}`;
  const label = h('label', { for: id }, optionLabel(option));
  const values = isBoolean(option) ? null : offeredValues(game, option, options);
  const range = !values && option.min !== undefined && option.max !== undefined ? ` ${t('option.range', { min: option.min, max: option.max })}` : '';
  const help = h('small', { id: `${id}-help` },
    `${optionHelp(game, option)}${range} ${t('option.default', { value: valueLabel(game, option, option.default, options) })}`);
  const described = { 'aria-describedby': `${id}-help`, disabled: !allowed(game, option, options) || undefined };
  if (isBoolean(option)) {
    const input = h('input', { type: 'checkbox', id, name: option.name, checked: option.default === true, ...described,
      dataset: { testid } });
    return h('div', { class: 'field check' }, input, label, help);
  }
  const input = values
    ? h('select', { id, name: option.name, ...described, dataset: { testid } })
    : h('input', { type: 'number', id, name: option.name, min: option.min, max: option.max, value: option.default,
      required: true, ...described, dataset: { testid } });
  if (values) fillChoices(game, option, input, values, options, option.default);
  return h('div', { class: 'field' }, label, input, help);
}

function fillChoices(game, option, select, values, options, wanted) {
  const keep = values.some((value) => value === wanted) ? wanted
    : values.some((value) => value === option.default) ? option.default : values[0];
  select.replaceChildren(...values.map((value) => h('option', { value: JSON.stringify(value),
    selected: value === keep || undefined }, valueLabel(game, option, value, options))));
  select.value = JSON.stringify(keep);
}

// After a change in the form: lists that depend on other options (the first player's seats on
// the number of players) offer only what fits, keeping the choice where it still does. `fixed`
// holds options chosen outside the box.
export function refreshFields(game, box, fixed = {}) {
  const options = { ...readOptions(game, box, { all: true }), ...fixed };
  for (const option of gameOptions(game)) {
    const input = box.querySelector(`[name="${option.name}"]`);
    if (input && option.only_with) {
      // An option the others rule out goes back to its default and cannot be changed.
      input.disabled = !allowed(game, option, options);
      if (input.disabled) resetToDefault(option, input);
    }
    const select = box.querySelector(`select[name="${option.name}"]`);
    if (!select || !option.choices) continue;
    const values = offeredValues(game, option, options);
    const shown = [...select.options].map((item) => item.value);
    if (shown.join() === values.map((value) => JSON.stringify(value)).join()) continue;
    fillChoices(game, option, select, values, options, JSON.parse(select.value));
  }
}

function resetToDefault(option, input) {
  if (input.type === 'checkbox') input.checked = option.default === true;
  else if (input.tagName === 'SELECT') input.value = JSON.stringify(option.default);
  else input.value = option.default;
}

// The options as chosen in the form; only those that differ from their defaults unless `all`
// (the server fills in the rest).
export function readOptions(game, box, { all = false } = {}) {
  const options = {};
  for (const option of gameOptions(game)) {
    const input = box.querySelector(`[name="${option.name}"]`);
    if (!input) continue;
    let value;
    if (input.type === 'checkbox') value = input.checked;
    else if (input.tagName === 'SELECT') value = JSON.parse(input.value);
    else value = Number(input.value);
    if (all || value !== option.default) options[option.name] = value;
  }
  return options;
}

// Options that differ from their defaults, as "Label: value" notes for room lists.
export function describeOptions(game, options = {}) {
  return gameOptions(game)
    .filter((option) => options[option.name] !== undefined && options[option.name] !== option.default)
    .map((option) => `${optionLabel(option)}: ${valueLabel(game, option, options[option.name], options)}`);
}

// The options fieldset of a form: one field per option of the game except `omit` (options the
// form asks in its own way), kept consistent as the player changes them. `fixed()` returns the
// values of the omitted options, which the fields may depend on (the seats of the first player
// on the number of players). `read()` gives every option that differs from its default, fixed
// ones included; `refresh()` is called again when the fixed values change.
// `fold`: the options other than MAIN_OPTIONS go behind a "More … options" fold.
export function optionsFieldset(game, { omit = [], fixed = () => ({}), idPrefix = 'opt',
  empty = t('option.none'), onChange = null, fold = false } = {}) {
  const box = h('fieldset', { class: 'options' });
  const shown = gameOptions(game).filter((option) => !omit.includes(option.name));
  const field = (option) => optionField(game, option, fixed(), { idPrefix });
  const main = shown.filter((option) => !fold || MAIN_OPTIONS.has(option.name)).map(field);
  const more = shown.filter((option) => fold && !MAIN_OPTIONS.has(option.name)).map(field);
  box.append(h('legend', {}, t('option.legend', { game: gameName(game) })),
    ...(shown.length ? main : [h('p', { class: 'muted' }, empty)]),
    more.length ? h('details', { class: 'more-options', dataset: { testid: 'more-game-options' } },
      h('summary', {}, t('option.more', { game: gameName(game) })), ...more) : null);
  const refresh = () => refreshFields(game, box, fixed());
  box.addEventListener('change', () => { refresh(); onChange?.(); });
  refresh();
  return {
    element: box,
    refresh,
    read({ all = false } = {}) {
      const options = readOptions(game, box, { all });
      for (const [name, value] of Object.entries(fixed())) {
        const option = gameOptions(game).find((item) => item.name === name);
        if (option && (all || value !== option.default)) options[name] = value;
      }
      return options;
    },
  };
}
