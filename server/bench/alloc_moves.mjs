// Allocations per move of a running mancala-server: plays `moves` moves (two players, random
// legal tokens, a new private room when a game ends) against ws://127.0.0.1:PORT/ws, one move in
// flight, and reads the server's allocation count (server/bench/count_allocs.c, LD_PRELOADed)
// before and after, after a warm-up. A Plex! window (Njaka) is claimed at once by the first
// player; claims are counted apart, their allocations are in the per-move figure.
// Node 20: node --experimental-websocket alloc_moves.mjs …
import { readFileSync } from "node:fs";
const [port, game, options, warm, moves, countFile] = process.argv.slice(2);
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
    const token = state.legal[Math.floor(Math.random() * state.legal.length)];
    const reply = await ask(state.to_move, { type: "move", id: "m", room, expected_version: version, tokens: token });
    if (reply.type !== "update") throw new Error(JSON.stringify(reply));
    version = reply.version; state = reply.state;
  }
}
const count = () => Number(readFileSync(countFile, "utf8"));
const settle = () => new Promise((ok) => setTimeout(ok, 300));
await newGame();
await play(Number(warm));
await settle();
claims = 0;
const before = count();
await play(Number(moves));
await settle();
const after = count();
console.log(`${game}: ${((after - before) / Number(moves)).toFixed(0)} allocations per move (${moves} moves, new games and ${claims} Plex! claims included)`);
process.exit(0);
