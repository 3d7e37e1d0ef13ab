// Guides the player to move through a turn, one decision at a time: says what to do, makes the
// legal choices clickable (on the board, or as buttons for reserve counts, coins and
// directions), and sends forced single options by itself. Every choice comes from `state.legal`.
import { h, clear } from './dom.js';
import { t } from './i18n/index.js';

// `whose(state)`: who the prompt addresses instead of "Your turn" (the history viewer's what-if
// play moves for either side: "Try a move for South"). The prompts of the catalogues begin with
// a {who} that the guide fills in, as the words of each language put it.
export function createGuide({ board, send, whose = null }) {
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
      prompt.textContent = t('guide.only_choice', { move: spec.describe?.(legal[0]) ?? legal[0] });
      const key = `${state.pending}|${legal[0]}`;
      if (autoSent !== key) { autoSent = key; send(legal[0]); }
      return;
    }
    const first = selected && legal.find((t) => spec.target?.(t, { state, selected: null }) === selected);
    const tokens = first ? spec.followUps(first, legal) : legal;
    board.select(first ? selected : null);
    const rest = board.setChoices(tokens, (token) => choose(token));
    const note = spec.turnNote?.(state);
    const text = promptFor(spec, tokens, Boolean(first), rest.length > 0).replace(/\.$/, note ? ` (${note}).` : '.');
    prompt.textContent = text.replace('{who}', whose ? whose(state) : t('guide.you'));
    for (const token of rest) buttons.append(choiceButton(token));
    if (first) {
      buttons.append(h('button', { class: 'quiet', dataset: { testid: 'choose-again' },
        onclick: () => { selected = null; render(current.state, true); } }, t('guide.another_square')));
    }
  }

  function choiceButton(token) {
    const preview = () => board.highlight(spec.preview?.(token, { state: current.state }) ?? []);
    const icon = spec.choiceIcon?.(token);
    const button = h('button', {
      class: icon ? 'choice with-icon' : 'choice',
      dataset: { testid: `choice-${token.replaceAll(' ', '_')}`, token },
      onclick: () => choose(token),
      onmouseenter: preview, onfocus: preview,
      onmouseleave: () => board.highlight([]), onblur: () => board.highlight([]),
    });
    if (icon) button.append(icon);
    button.append(spec.describe?.(token) ?? token);
    return button;
  }

  // After a refused move a forced choice may be sent again; a chosen square stays chosen.
  return { element, render, reset() { autoSent = null; } };
}

// What to do now: the second half of a turn begun on the board (O An Quan's direction), else
// what the game's board says of these choices (coins, directions, reserve plays), else a click.
function promptFor(spec, tokens, directionNext, withButtons) {
  if (directionNext) {
    return t(withButtons ? 'guide.direction_or_buttons' : 'guide.direction');
  }
  return spec.prompt?.(tokens) ?? t('guide.your_turn');
}
