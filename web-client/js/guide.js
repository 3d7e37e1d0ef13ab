// Guides the player to move through a turn, one decision at a time: says what to do, makes the
// legal choices clickable (on the board, or as buttons for reserve counts, coins and
// directions), and sends forced single options by itself. Every choice comes from `state.legal`.
import { h, s, clear } from './dom.js';
import { coin } from './boards/coin_duel.js';

const COIN_TOKENS = new Set(['P', 'N', 'D', 'Q']);

export function createGuide({ board, send }) {
  const prompt = h('p', { class: 'prompt', dataset: { testid: 'prompt' }, 'aria-live': 'polite' });
  const buttons = h('div', { class: 'choices', dataset: { testid: 'choices' } });
  const element = h('div', { class: 'guide' }, prompt, buttons);
  const spec = board.spec;
  let selected = null;          // a first half chosen on the board (O An Quan's square)
  let autoSent = null;
  let current = { state: null, myTurn: false };

  function choose(token) {
    const place = spec.target?.(token, { state: current.state, selected: null });
    if (spec.followUps?.(token, current.state.legal)) {
      selected = selected === place ? null : place;
      render(current.state, true);
      return;
    }
    selected = null;
    send(token);
  }

  function render(state, myTurn, waitingText = '') {
    current = { state, myTurn };
    clear(buttons);
    board.highlight([]);
    if (!myTurn) {
      selected = null;
      board.select(null);
      board.setChoices([], null);
      prompt.textContent = waitingText;
      return;
    }
    const legal = state.legal ?? [];
    if (state.pending && legal.length === 1) {
      // A forced decision in the middle of a turn (the only coin kind in hand, the only way on).
      board.select(null);
      board.setChoices([], null);
      prompt.textContent = `${spec.describe?.(legal[0]) ?? legal[0]}: the only choice, sent for you…`;
      const key = `${state.pending}|${legal[0]}`;
      if (autoSent !== key) { autoSent = key; send(legal[0]); }
      return;
    }
    const first = selected && legal.find((t) => spec.target?.(t, { state, selected: null }) === selected);
    const tokens = first ? spec.followUps(first, legal) : legal;
    board.select(first ? selected : null);
    const rest = board.setChoices(tokens, (token) => choose(token));
    const note = spec.turnNote?.(state);
    prompt.textContent = promptFor(tokens, Boolean(first), rest.length > 0).replace(/\.$/, note ? ` (${note}).` : '.');
    for (const token of rest) buttons.append(choiceButton(token));
    if (first) {
      buttons.append(h('button', { class: 'quiet', dataset: { testid: 'choose-again' },
        onclick: () => { selected = null; render(current.state, true); } }, 'Choose another square'));
    }
  }

  function choiceButton(token) {
    const preview = () => board.highlight(spec.preview?.(token, { state: current.state }) ?? []);
    const button = h('button', {
      class: COIN_TOKENS.has(token) ? 'choice coin-choice' : 'choice',
      dataset: { testid: `choice-${token.replaceAll(' ', '_')}`, token },
      onclick: () => choose(token),
      onmouseenter: preview, onfocus: preview,
      onmouseleave: () => board.highlight([]), onblur: () => board.highlight([]),
    });
    if (COIN_TOKENS.has(token)) {
      button.append(s('svg', { viewBox: '-13 -13 26 26', width: 26, height: 26, 'aria-hidden': 'true' },
        coin(0, 0, token)));
    }
    button.append(spec.describe?.(token) ?? token);
    return button;
  }

  // After a refused move a forced choice may be sent again; a chosen square stays chosen.
  return { element, render, reset() { autoSent = null; } };
}

function promptFor(tokens, directionNext, withButtons) {
  if (directionNext) {
    return `Now the direction: click the highlighted place next to it where the first counter goes${withButtons ? ', or use a button below' : ''}.`;
  }
  if (tokens.length && tokens.every((t) => COIN_TOKENS.has(t))) return 'Choose the next coin to sow.';
  if (tokens.length && tokens.every((t) => t === 'R' || t === 'L')) return 'Choose the direction of this lap.';
  if (tokens.some((t) => /^r\d+$/.test(t))) return 'Your turn: click a highlighted cup, or sow from your reserve.';
  return 'Your turn: click a highlighted place.';
}
