// Coin Duel's round panel (stage 3, issue 17): the round's winning coin, what it is worth and
// where both winning coins are now, the pots' values, a table of the rounds played with running
// totals; and the announcement shown when a round ends. Everything is read from the state the
// server sends (`board.winning_coin`, `board.pot_values`, `rounds`), never worked out again here.
import { h } from '../dom.js';
import { COIN_NAMES, COINS, coinIcon, coinWord } from './coins.js';
import { t, formatList } from '../i18n/index.js';
import { reasonText, roundRows } from '../rounds.js';

const ROUNDS = 4;

// `places`: where the winning coins lie, one line per coin ("Ada's pot", "Bo's cup 4").
export function coinDuelPanel({ state, names, places }) {
  const board = state.board ?? {};
  const rounds = state.rounds ?? [];
  const totals = [0, 0];
  const rows = rounds.map((round) => {
    round.scores?.forEach((score, seat) => { totals[seat] += score; });
    return roundRows([h('th', { scope: 'row' }, round.round),
      h('td', {}, coinIcon(round.winning_coin), ` ${round.winning_value}`),
      ...names.map((_, seat) => h('td', {}, `${round.scores?.[seat] ?? 0}`, h('small', {}, ` (${totals[seat]})`)))],
    reasonText(round.end_reason, whoEnded(round, names)), names.length + 2);
  });
  const over = state.phase === 'over';
  const shown = over ? [] : places;
  const kind = board.winning_coin;
  return h('section', { class: 'coin-panel', 'aria-labelledby': 'coin-panel-title', dataset: { testid: 'coin-panel' } },
    h('h2', { id: 'coin-panel-title' }, over ? t('coin_panel.four_rounds') : t('coin_panel.round_of', { n: board.round ?? state.round, count: ROUNDS })),
    !over && kind ? h('p', { class: 'winning', dataset: { testid: 'winning-coin' } }, t('coin_panel.winning_coin'), ' ', coinIcon(kind),
      h('strong', {}, ` ${COIN_NAMES[kind]}`), t('coin_panel.worth', { value: board.winning_value })) : null,
    shown.length ? h('p', { dataset: { testid: 'winning-places' } }, t(`coin_panel.both_${kind.toLowerCase()}`, { places: formatList(shown) })) : null,
    !over && board.pot_values ? h('p', { dataset: { testid: 'pot-values' } }, t('coin_panel.in_pots'), ' ',
      names.map((name, seat) => `${name} ${board.pot_values[seat]}`).join(' · ')) : null,
    rounds.length ? h('table', { class: 'rounds', dataset: { testid: 'coin-rounds' } },
      h('caption', {}, t('coin_panel.caption')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('coin_panel.round')), h('th', { scope: 'col' }, t('coin_panel.winning_coin_col')),
        names.map((name) => h('th', { scope: 'col' }, name)))),
      rows) : null);
}

// The player a round's end speaks of (who conceded, made an illegal move or was stuck), if any.
const whoEnded = (round, names) => names[[round.offender, round.stuck_player].find(Number.isInteger)] ?? null;

// Said when a round ends: who scored what, and the next round's winning coin.
export function roundEndText(events, names) {
  const end = events?.find((event) => event.event === 'round_end' && event.winning_coin);
  if (!end) return null;
  const scores = names.map((name, seat) => `${name} ${end.scores?.[seat] ?? 0}`).join(', ');
  const next = events.find((event) => event.event === 'round_start');
  const nextKind = next ? COINS[next.round - 1] : null;
  const over = t('coin_panel.round_over', { n: end.round, scores });
  return nextKind ? `${over} ${t('coin_panel.next_round', { n: next.round, coin: coinWord(nextKind) })}` : over;
}
