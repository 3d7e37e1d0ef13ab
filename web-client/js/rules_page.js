// A rules page per game (#/rules/<game>): the rules in our own words, shortened from the rule
// books in docs/rules/, each section with a small board drawn by the game's own board module
// (the same pictures as in play), with the places a sentence speaks of highlighted.
import { h } from './dom.js';
import { createBoard } from './boards/index.js';
import { GAMES, gameName } from './games.js';

const side = (cups, pot, reserve) => [...cups, pot, reserve];
const ownedBy = (blocks) => blocks.flatMap((seat, k) => Array(12 / blocks.length).fill(seat ?? k));
const coins = (p, n, d, q) => [p, n, d, q];
const none = () => coins(0, 0, 0, 0);

// Positions follow the vectors of the protocol's notation (see the board modules).
const DUOVALLIS_START = (() => {
  const white = Array(24).fill(0), black = Array(24).fill(0);
  for (const hole of [0, 1, 2, 3, 4, 5, 13, 14, 15, 16]) white[hole] = 4;
  for (const hole of [7, 8, 9, 10, 18, 19, 20, 21, 22, 23]) black[hole] = 4;
  return [...white, ...black, 0, 0];
})();

// Each game: what the board looks like, a turn, captures, the end; `picture` draws a position
// and highlights the places the section speaks of.
const PAGES = {
  cups: {
    intro: 'Two players, one row of cups each, a pot each and a private reserve of beans. Feed beans from your reserve into your row, and empty a cup into your pot only when it holds exactly the beans needed to reach it. Whoever ends with more beans in the pot wins.',
    sections: [
      { title: 'The board', text: 'You own the bottom row and the pot at its right end; your cups are numbered 1 to 4 from your left, so cup 4 is next to your pot. The board starts empty: every bean waits in the reserves (ten per cup).',
        picture: { options: { cups_per_side: 4 }, position: [...side([0, 0, 0, 0], 0, 40), ...side([0, 0, 0, 0], 0, 40)], mark: ['s0pot', 's0res'] } },
      { title: 'Sowing from the reserve', text: 'Take k beans from your reserve and put one in each of your cups 1 to k. Here South sowed 3: cups 1, 2 and 3 get a bean each. If the last bean falls into an empty cup, you take the beans of the cup across from it into your pot.',
        picture: { options: { cups_per_side: 4 }, position: [...side([1, 1, 1, 0], 0, 37), ...side([0, 0, 0, 0], 0, 40)], mark: ['s0c1', 's0c2', 's0c3'] } },
      { title: 'Playing a cup', text: 'A cup may be played only when its beans reach exactly your pot: cup 3 needs 2 beans, cup 4 needs 1. Its beans are sown toward the pot and the last one drops in. A cup with more beans is stuck until your opponent captures it.',
        picture: { options: { cups_per_side: 4 }, position: [...side([1, 0, 2, 0], 1, 36), ...side([0, 2, 0, 1], 0, 37)], mark: ['s0c3', 's0c4', 's0pot'] } },
      { title: 'The end', text: 'A player with no move passes. When neither can move, the game ends: the bigger pot wins.' },
    ],
  },
  coin_duel: {
    intro: 'Cups on a board of ten cups a side, in three stages: beans with relay sowing, then coins worth 1, 5, 10 and 25, then four rounds with a winning coin and laps that may run either way.',
    sections: [
      { title: 'The board and the coins', text: 'Ten cups a side, your pot at the right end of your row. Coins: Penny 1, Nickel 5, Dime 10, Quarter 25. In stage 3 each round gives both players the same reserve, with one winning coin each: a penny in round 1, then a nickel, a dime and a quarter.',
        picture: { options: { stage: 3 }, position: [...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10), ...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10)], mark: ['s0res', 's1res'] } },
      { title: 'A turn', text: 'Sow from your reserve (up to four coins, or one cup beyond your furthest coin) or lift a whole cup, choosing which coin goes next. If the last coin lands in a cup that already held something, lift that cup and keep sowing: a relay. An empty cup ends the turn and captures the cup across; the pot ends it too. Going past the pot is never allowed.',
        picture: { options: { stage: 3 }, position: [...coins(0, 0, 0, 1), ...coins(0, 0, 1, 0), ...coins(1, 0, 0, 0), ...Array(7).fill(0).flatMap(none), ...none(), ...coins(0, 10, 9, 9), ...Array(10).fill(0).flatMap(none), ...none(), ...coins(1, 10, 10, 10)], mark: ['s0c1', 's0c2', 's0c3'] } },
      { title: 'Rounds and scores (stage 3)', text: 'From the second lap of a turn on, each lap may go right (toward your pot) or left. A round ends when both winning coins are in pots. A winning coin in a pot counts ten times its value, and only a player whose pot holds a winning coin scores. The four round scores are added up.' },
    ],
  },
  oanquan: {
    intro: 'Vietnamese "mandarin squares": a ring of ten squares between two half-moon end spaces, each with a big stone worth 10. Sow one of your squares in the direction you choose; sowing relays from the next square; captures take the place after an empty square.',
    sections: [
      { title: 'The board', text: 'Each player owns the five squares on his side, with 5 counters each. The two end spaces belong to nobody and hold a big stone each. Your captures go to your store behind your row.',
        picture: { position: [0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1], mark: ['q1', 'q2', 'q3', 'q4', 'q5'] } },
      { title: 'A turn', text: 'Pick one of your squares and a direction. Its counters are sown one by one around the ring. If the next place holds counters, lift them and go on. Here square 3 was sown counterclockwise: squares 4 and 5, the east end space, then squares 7 and 8.',
        picture: { position: [0, 5, 5, 0, 6, 6, 1, 6, 6, 5, 5, 5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1], mark: ['q4', 'q5', 'q6', 'q7', 'q8'] } },
      { title: 'Captures and the end', text: 'If the next place is an empty square and the one after holds something, you capture it; more captures follow across alternating empty squares. An end space right after your last counter, or two empty places, ends the turn. When both big stones are taken the round ends; in a match, a player short of counters sells squares to the other, and selling three squares loses.' },
    ],
  },
  njaka: {
    intro: 'Two to four players around twelve holes of four counters each. Whenever a drop makes a hole hold exactly four, those four are a set. After eleven sets, the last four go to whoever calls "Plex!" first.',
    sections: [
      { title: 'The board', text: 'Twelve holes in a circle, numbered counterclockwise, four counters in each. Every player owns an unbroken block of holes, ringed in his colour (with two players, holes 0–5 and 6–11). The sets you take go to your store in the middle.',
        picture: { options: { players: 2 }, position: [...Array(12).fill(4), ...ownedBy([0, 1]), 0, 0], mark: ['h0', 'h1', 'h2', 'h3', 'h4', 'h5'] } },
      { title: 'A turn', text: 'Lift one of your holes and sow counterclockwise. If the last counter lands in a hole that holds others, lift them all and go on. When a drop makes a hole hold exactly four, the set goes to the owner of that hole during the lap, or to you with your last counter, which ends your turn. Here hole 0 was sown into holes 1 to 4; the last counter fell among others, so the sowing goes on from hole 4.',
        picture: { options: { players: 2 }, position: [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, ...ownedBy([0, 1]), 0, 0], mark: ['h1', 'h2', 'h3', 'h4'] } },
      { title: 'Plex! and the next round', text: 'When the eleventh set is taken, everyone races to click the big "Plex!" button for the last one. Each set buys one hole in the next round; a player with a clear majority of the twelve sets wins, and a player with none is out.' },
    ],
  },
  duovallis: {
    intro: 'White and Black on four rows of six holes. Each owns a back row and a front row; the four grey holes at the ends of the middle rows are shared, so the colours mix.',
    sections: [
      { title: 'The board', text: 'White owns the bottom row and the third row, Black the top row and the second. The grey holes at the ends of the middle rows are neutral; both players\' circuits run through them.',
        picture: { position: DUOVALLIS_START, mark: ['d6', 'd11', 'd12', 'd17'] } },
      { title: 'A turn', text: 'Play a hole of your back row holding at least two stones, at least half of them yours (your front row only when the back row has none). Foreign stones are sown first, always along your own circuit. If the last stone lands in an occupied hole that is at least half yours, sow on from there.',
        picture: { position: DUOVALLIS_START, mark: ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'] } },
      { title: 'Capture and the end', text: 'A last stone in an empty hole of yours captures the opponent\'s hole next to it: your stones there come home, and every three of theirs become one new stone of yours (the rest wait in your carry tray). A player who cannot move on his turn loses.' },
    ],
  },
};

function picture(game, { options = {}, position, mark = [] }) {
  const board = createBoard({ game, options, viewerSeat: 0, players: null });
  board.show({ position, to_move: 0, phase: 'play', round: 1, legal: [], pending: '', board: {} });
  board.highlight(mark);
  board.element.setAttribute('aria-hidden', 'true');     // the text says what the picture shows
  board.element.classList.add('rules-board');
  for (const node of board.element.querySelectorAll('[tabindex]')) node.removeAttribute('tabindex');
  return h('figure', { class: 'rules-figure' }, board.element);
}

export function showRulesPage(main, game) {
  const page = PAGES[game];
  if (!page) {
    main.replaceChildren(h('section', { class: 'welcome', dataset: { testid: 'rules-page' } },
      h('h1', {}, 'No such game'), h('p', {}, 'These are the games we have rules for:'), gameLinks()));
    return;
  }
  main.replaceChildren(h('article', { class: 'rules-page', dataset: { testid: 'rules-page' } },
    h('p', { class: 'muted' }, h('a', { href: '#/' }, 'Lobby'), ' › Rules'),
    h('h1', {}, `How to play ${gameName(game)}`),
    h('p', { class: 'lead' }, page.intro),
    page.sections.map((section) => h('section', { class: 'rules-section' },
      h('div', {}, h('h2', {}, section.title), h('p', {}, section.text)),
      section.picture ? picture(game, section.picture) : null)),
    h('h2', {}, 'The rules in four lines'),
    h('ol', {}, GAMES[game].rules.map((line) => h('li', {}, line))),
    h('nav', { class: 'rules-others', 'aria-label': 'Other games' }, h('span', {}, 'Other games: '), gameLinks(game))));
}

function gameLinks(except = null) {
  return h('span', { class: 'row' }, Object.keys(PAGES).filter((id) => id !== except)
    .map((id) => h('a', { href: `#/rules/${id}`, dataset: { testid: `rules-link-${id}` } }, gameName(id))));
}
