// A count per move of a running mancala-server: plays `moves` moves (two players, random legal
// tokens, a new private room when a game ends) against ws://127.0.0.1:PORT/ws, one move in
// flight, after a warm-up, and runs `counter` (a shell command that prints a running total)
// before and after them. alloc_moves.sh counts allocations this way (server/bench/count_allocs.c,
// LD_PRELOADed), instructions_per_move.sh the instructions that callgrind counts. A Plex! window
// (Njaka) is claimed at once by the first player; claims are counted apart, their cost is in the
// per-move figure.
// Node 20: node --experimental-websocket alloc_moves.mjs PORT GAME OPTIONS WARM MOVES COUNTER [WHAT]
import { execSync } from "node:child_process";
const [port, game, options, warm, moves, counter, what = "allocations"] = process.argv.slice(2);
const open = () => new Promise((ok) => { const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`); ws.onopen = () => ok(ws); });
const players = [await open(), await open()];
const waiting = [[], []];
const plexWindows = [];  // windows announced to player 0, oldest first
let plexWaiter = null;
players.forEach((ws, i) => ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.id && waiting[i].length) waiting[i].shift()(m);
  if (i === 0 && m.type === "plex_open") { plexWindows.push(m.window); if (plexWaiter) plexWaiter(); }
});
const nextPlexWindow = async () => {
  while (!plexWindows.length) await new Promise((ok) => { plexWaiter = ok; });
  plexWaiter = null;
  return plexWindows.shift();
};
const ask = (i, msg) => new Promise((ok) => { waiting[i].push(ok); players[i].send(JSON.stringify(msg)); });
await ask(0, { type: "hello", id: "h", name: "A" });
await ask(1, { type: "hello", id: "h", name: "B" });
let room, version, state;
async function newGame() {
  const created = await ask(0, { type: "create_room", id: "c", game, private: true, options: JSON.parse(options) });
  room = created.room.id;
  const joined = await ask(1, { type: "join_room", id: "j", invite: created.room.invite });
  state = joined.room.state; version = 0;
}
// The same choices every run (mulberry32, seed 1), so that two builds play the same games as
// far as the server's own draws (who begins) allow.
let seed = 1;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
let claims = 0;
async function claimPlex() {
  const reply = await ask(0, { type: "plex", id: "p", room, window: await nextPlexWindow() });
  if (reply.type !== "update") throw new Error(JSON.stringify(reply));
  version = reply.version; state = reply.state; ++claims;
}
async function play(n) {
  for (let k = 0; k < n; ++k) {
    while (state.phase === "plex") await claimPlex();
    if (state.result !== null) await newGame();
    const token = state.legal[Math.floor(random() * state.legal.length)];
    const reply = await ask(state.to_move, { type: "move", id: "m", room, expected_version: version, tokens: token });
    if (reply.type !== "update") throw new Error(JSON.stringify(reply));
    version = reply.version; state = reply.state;
  }
}
const count = () => {
  const total = Number(execSync(counter, { encoding: "utf8" }));
  if (!Number.isFinite(total)) throw new Error(`the counter "${counter}" did not print a number`);
  return total;
};
const settle = () => new Promise((ok) => setTimeout(ok, 300));
await newGame();
await play(Number(warm));
await settle();
claims = 0;
const before = count();
await play(Number(moves));
await settle();
const after = count();
console.log(`${game}: ${((after - before) / Number(moves)).toFixed(0)} ${what} per move (${moves} moves, new games and ${claims} Plex! claims included)`);
process.exit(0);
