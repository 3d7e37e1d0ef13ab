// A claim race (a claim window of /api/game-types: Njaka's Plex!) lasts a few seconds: its banner
// and big button float in the middle of the screen for every seat, whatever is scrolled into
// view (issue 17, bug 3), in the words of the game's module; then who won it, for a few seconds.
import { h } from './dom.js';
import { GAMES } from './boards/index.js';

const RESULT_MS = 6000;
const TICK_MS = 200;

export function createClaimPanel() {
  const element = h('div', { class: 'plex', hidden: true, dataset: { testid: 'plex' } });
  let drawn = null;          // what the panel shows: a race's window, or the result of one

  // `view`: {state, room, names, me, act, later} (room_view.js); `later(ms)` draws it again then.
  function render({ state, room, names, me, act, later }) {
    const words = (name) => GAMES[room.game]?.claims?.[name];
    const { claim, claimResult: result } = state;
    if (claim && words(claim.name)) {
      const left = Math.max(0, claim.deadline - Date.now());
      if (left > 0) later(TICK_MS);
      drawRace(words(claim.name), claim, me !== null, act);
      element.querySelector('.plex-timer div').style.width = `${(100 * left) / claim.total}%`;
      return;
    }
    const until = result ? result.at + RESULT_MS - Date.now() : 0;
    const text = until > 0 && words(result.name)?.resultText(result.events, names);
    if (!text) { hide(); return; }
    later(until);
    show(`result ${result.at}`, () => h('p', { class: 'plex-result', role: 'status', dataset: { testid: 'plex-result' } }, text));
  }

  // Drawn once per race (the banner is an alert, read out once); later ticks move the timer.
  function drawRace(words, claim, seated, act) {
    show(claim.window, () => [
      h('p', { class: 'plex-banner', role: 'alert', dataset: { testid: 'plex-banner' } }, words.banner),
      h('p', { class: 'plex-title' }, words.title),
      seated ? h('button', { class: 'plex-button', dataset: { testid: 'plex-button', window: claim.window }, onclick: act.claim }, words.button)
        : h('p', {}, words.watching),
      h('div', { class: 'plex-timer' }, h('div'))], claim.window);
  }

  // `window`: the race's id while one is shown; a result is marked `data-result="shown"`.
  function show(key, draw, window = '') {
    element.hidden = false;
    element.dataset.result = window ? '' : 'shown';
    element.dataset.window = window;
    if (drawn === key) return;
    drawn = key;
    element.replaceChildren(...[draw()].flat());
  }

  function hide() {
    element.hidden = true;
    element.dataset.result = '';
    drawn = null;
  }

  return { element, render };
}
