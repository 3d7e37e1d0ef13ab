// What the client knows about each game: its name, seats, host options (with defaults and a
// one-line explanation for the room form) and a short rules card. Legality is never decided
// here; the server's `state.legal` is the only authority.

const policy = {
  name: 'illegal_move_policy', label: 'Illegal moves', default: 'reject',
  choices: [['reject', 'Refused (try again)'], ['forfeit', 'Lose the game (or round)']],
  help: 'What happens when a player sends a move the rules do not allow.',
};

const stall = (fallback, unit = 'turns') => ({
  name: 'stall_limit', label: 'Stall limit', default: fallback, min: 50, max: 2000,
  help: `The round ends after this many ${unit} in a row without a capture.`,
});

const twoSeatFirst = (south = 'South', north = 'North') => ({
  name: 'first_player', label: 'First player', default: 0,
  choices: [[0, `Seat 1 (${south})`], [1, `Seat 2 (${north})`], ['random', 'Random draw']],
  help: 'Who moves first; a random draw is made once by the server.',
});

const roundStarter = {
  name: 'round_starter', label: 'Later rounds start with', default: 'alternate',
  choices: [['alternate', 'The other player each round'], ['same', 'The same player']],
  help: 'Who starts each round after the first.',
};

const maxRounds = {
  name: 'max_rounds', label: 'Maximum rounds', default: 0, min: 0, max: 100,
  help: '0 plays until someone wins; otherwise the leader after this many rounds wins.',
};

export const GAMES = {
  cups: {
    name: 'Cups',
    blurb: 'Two rows of cups, a reserve of beans, and exact landings in your pot.',
    seats: () => ['South', 'North'],
    options: [
      { name: 'cups_per_side', label: 'Cups per side', default: 4, min: 3, max: 10,
        help: 'Each player has this many cups and starts with ten beans per cup in reserve.' },
      twoSeatFirst(), policy,
    ],
    rules: [
      'You own the bottom row of cups and the pot at its right end. The board starts empty; your beans wait in your reserve.',
      'On your turn, either sow 1 bean into each of your first k cups from the reserve (k up to the number of cups), or play a cup that holds exactly as many beans as steps to your pot, so the last bean drops into the pot.',
      'If a reserve play ends in an empty cup, you take every bean from the opposite cup into your pot.',
      'A cup holding too many beans is blocked until the opponent captures it. With no move you pass; when neither can move, the bigger pot wins.',
    ],
  },
  coin_duel: {
    name: 'Coin Duel',
    blurb: 'Cups with ten cups a side, relay sowing, and in later stages real coins.',
    seats: () => ['South', 'North'],
    options: [
      { name: 'stage', label: 'Stage', default: 3,
        choices: [[1, '1: beans, forward only'], [2, '2: coins, forward only'], [3, '3: coins, both ways, four rounds']],
        help: 'Stage 1 plays with beans, stage 2 with coins, stage 3 adds two-way sowing and rounds.' },
      twoSeatFirst(),
      { ...roundStarter, help: 'Stage 3: who starts rounds 2 to 4.' },
      policy,
      { name: 'max_turns_per_round', label: 'Turn limit per round', default: 1000, min: 100, max: 10000,
        help: 'Stage 3: a round ends after this many turns.' },
    ],
    rules: [
      'Ten cups a side, your pot at your right. Sow from your reserve (up to 4 items, or one cup beyond your furthest item) or lift a whole cup.',
      'If the last item lands in a cup that already held something, lift that cup and keep sowing (a relay). Landing in an empty cup ends the turn and captures the opposite cup; landing exactly in the pot ends it too. Going past the pot is never allowed.',
      'In stages 2 and 3 you choose which coin to sow next: Penny 1, Nickel 5, Dime 10, Quarter 25. Stage 3 lets every lap go Right (to your pot) or Left.',
      'Stage 3 has four rounds, each with one "winning coin" per player (P, N, D, then Q). You score a round only if your pot holds a winning coin; the round ends when both are in pots.',
    ],
  },
  oanquan: {
    name: 'O An Quan',
    blurb: 'Vietnamese mandarin squares: ten squares, two big stones, chains of captures.',
    seats: () => ['South', 'North'],
    options: [
      { name: 'match_mode', label: 'Length', default: 'match',
        choices: [['match', 'A match of rounds with squares sold'], ['single', 'One round']],
        help: 'A match goes on, round after round, until a player has sold enough squares.' },
      { name: 'sold_squares_to_end', label: 'Squares sold to lose', default: 3,
        choices: [[3, '3'], [4, '4']],
        help: 'The match ends when a player must sell this many squares.' },
      { name: 'chain_captures', label: 'Chain captures', default: true, boolean: true,
        help: 'After a capture, keep capturing across each further empty square.' },
      twoSeatFirst(), roundStarter, maxRounds, stall(200), policy,
    ],
    rules: [
      'Each player owns five squares; the two half-moon ends hold a big stone (worth 10) and belong to nobody.',
      'Pick one of your squares and a direction. Its counters are sown one by one around the ring. If the next place holds counters, lift them and go on.',
      'If the next place is an empty square and the one after holds something, capture it; more captures follow across alternating empty squares. An end space right after your last counter, or two empty places, ends the turn.',
      'When both big stones are taken, the round ends. Next round each square needs 5 counters; a player short of counters sells squares to the other. Selling 3 squares loses the match.',
    ],
  },
  njaka: {
    name: "Njaka's Mancala Game",
    blurb: 'Twelve holes in a circle, two to four players, and a race to shout "Plex!".',
    seats: (options) => Array.from({ length: Number(options?.players ?? 2) }, (_, i) => `Seat ${i + 1}`),
    options: [
      { name: 'players', label: 'Players', default: 2, choices: [[2, '2'], [3, '3'], [4, '4']],
        help: 'Two to four players share the circle of twelve holes.' },
      { name: 'advanced', label: 'Advanced variant', default: false, boolean: true,
        help: 'Two players only: alternating holes, and a last counter making four conquers the hole.' },
      { name: 'direction', label: 'Sowing direction', default: 'ccw',
        choices: [['ccw', 'Counterclockwise'], ['cw', 'Clockwise']],
        help: 'The way counters travel, and so the order of turns.' },
      { name: 'target', label: 'Winning margin', default: 2, choices: [[2, '2'], [3, '3'], [4, '4'], [5, '5']],
        help: 'Win the match with this many sets more than all the others together.' },
      { name: 'first_player', label: 'First player', default: 'random',
        choices: [['random', 'Random draw'], [0, 'Seat 1'], [1, 'Seat 2'], [2, 'Seat 3'], [3, 'Seat 4']],
        help: 'Who starts round 1 (seat 3 and 4 only with that many players).' },
      { name: 'plex_mode', label: 'Last set', default: 'race',
        choices: [['race', 'Plex! race: the first to click wins it'], ['mover', 'Goes to the mover']],
        help: 'Who gets the last set of four once eleven sets are taken.' },
      { name: 'plex_window_ms', label: 'Plex! window (ms)', default: 5000, min: 1000, max: 30000,
        help: 'How long the Plex! race stays open before the mover gets the set.' },
      maxRounds, stall(300), policy,
    ],
    rules: [
      'Twelve holes with four counters each; every player owns a block of holes. Lift one of your holes and sow around the circle; if the last counter lands in an occupied hole, lift it and go on.',
      'Whenever a drop makes a hole hold exactly four, that set of four is taken: by the hole\'s owner during the lap, by you if it was your last counter (which ends your turn).',
      'When the eleventh set is taken, everyone races to click "Plex!" for the last one.',
      'Each set buys one hole next round. Win by holding a clear majority of the twelve sets; a player with none is out.',
    ],
  },
  duovallis: {
    name: 'Duovallis',
    blurb: 'Four rows, two colours that mix, and captures that exchange stones.',
    seats: () => ['White', 'Black'],
    options: [stall(200, 'moves'), policy],
    rules: [
      'White owns the bottom row and the third row; Black owns the top and second rows. The grey holes at the ends of the middle rows are neutral and shared.',
      'Play a hole of your back row with at least two stones, at least half of them yours (your front row only if the back row has none). Foreign stones are sown first, always along your own circuit.',
      'If the last stone lands in an occupied hole that is at least half yours, sow on from there. If it lands in your empty hole, you capture the opponent hole next to it: your stones come home, and every three of theirs become one new stone of yours.',
      'A player who cannot move on his turn loses.',
    ],
  },
};

export const GAME_IDS = Object.keys(GAMES);

export function gameName(id) { return GAMES[id]?.name ?? id; }

export function seatLabels(game, options) { return GAMES[game]?.seats(options) ?? []; }

export function seatCount(game, options) {
  return game === 'njaka' ? Number(options?.players ?? 2) : 2;
}

// Options that differ from their defaults, as "Label: value" strings for room lists.
export function describeOptions(game, options = {}) {
  return (GAMES[game]?.options ?? [])
    .filter((o) => options[o.name] !== undefined && options[o.name] !== o.default)
    .map((o) => {
      const choice = o.choices?.find(([value]) => value === options[o.name]);
      const shown = choice ? choice[1] : o.boolean ? (options[o.name] ? 'yes' : 'no') : options[o.name];
      return `${o.label}: ${shown}`;
    });
}
