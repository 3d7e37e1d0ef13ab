// Issue 46's "Done when" as a benchmark: 40 parallel correct log-ins, 8 parallel wrong-key record
// analyses and 8 parallel imports of a long Njaka record, all running for a fixed time, while two
// probes time `GET /healthz` and `GET /api/games` (a page of 20 games) one request after another.
// Prints each probe's p50/p99/max against the goal (p99 < 100 ms), what the load classes were
// answered, and the largest answer against its allowance (ten times its request plus 64 KiB).
//
//   node --experimental-websocket server/bench/abuse_mix.mjs [--server build/server/mancala-server]
//        [--seconds 20] [--record tests/web/fixtures/njaka-4-seats-long.txt] [--bytes 22000]
//
// It starts the server on a fresh database in a temporary folder, with --trusted-proxy 127.0.0.1:
// every load request says it comes from an address of its own (X-Forwarded-For), as a crowd
// would, so that the per-address limits do not turn the load into cheap 429s; the probes come
// from 127.0.0.1 itself. Each log-in worker takes turns with accounts of its own, so that no name
// reaches its limit of successful log-ins. `--bytes`: the record is cut at the line end past
// that many bytes (the record was 22.7 KB); 0 sends the whole file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const options = parseOptions(process.argv.slice(2), {
  server: path.join(root, 'build/server/mancala-server'),
  seconds: '20',
  record: path.join(root, 'tests/web/fixtures/njaka-4-seats-long.txt'),
  bytes: '22000',
});
const seconds = Number(options.seconds);
const LOGINS = 40, ANALYSES = 8, IMPORTS = 8, GAMES = 20;
const GOAL_MS = 100;

function parseOptions(args, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i].replace(/^--/, '');
    if (!(name in defaults) || args[i + 1] === undefined) throw new Error(`unknown or incomplete option ${args[i]}; see the comment at the top`);
    out[name] = args[i + 1];
  }
  return out;
}

// The record as sent: the file cut at the end of the line past `bytes`, without its Result tag
// (a cut record has not ended).
function recordText(file, bytes) {
  const text = fs.readFileSync(file, 'utf8');
  if (!bytes || text.length <= bytes) return text;
  const end = text.indexOf('\n', bytes);
  return text.slice(0, end < 0 ? text.length : end + 1).replace(/^\[Result [^\n]*\n/m, '');
}

// --- the server -------------------------------------------------------------------------------
async function startServer(binary) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'abuse-mix-'));
  const child = spawn(binary, ['--port', '0', '--db', path.join(dir, 'bench.db'), '--static', path.join(root, 'web-client'),
    '--trusted-proxy', '127.0.0.1', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => { errors = (errors + chunk).slice(-4000); });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const listening = /listening on \S+:(\d+)/.exec(out);
      if (listening) resolve(Number(listening[1]));
    });
    child.on('exit', (code) => reject(new Error(`${binary} exited with ${code} before it listened:\n${errors}`)));
  });
  return { port, stop: () => { child.kill('SIGTERM'); fs.rmSync(dir, { recursive: true, force: true }); } };
}

// --- HTTP -------------------------------------------------------------------------------------
// One request on `agent` (keep-alive, one socket per worker): {status, ms, bytes, sent}.
function call(port, agent, method, target, { headers = {}, body = '' } = {}) {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: target, agent,
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => { bytes += chunk.length; });
      response.on('end', () => resolve({ status: response.statusCode, bytes, sent: Buffer.byteLength(body),
        ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

let nextAddress = 0;
// A new client address for each request: 10.x.y.z, never the same twice in a run.
const someoneNew = () => {
  const n = ++nextAddress;
  return { 'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};
const json = { 'Content-Type': 'application/json' };
const text = { 'Content-Type': 'text/plain; charset=utf-8' };

// --- the set-up: accounts to log in to, and games for /api/games to list ------------------------
async function makeAccounts(port, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const accounts = Array.from({ length: count }, (_, k) => ({ name: `bench${k}`, password: `a long bench password ${k}` }));
  for (let k = 0; k < count; k += 4) {
    await Promise.all(accounts.slice(k, k + 4).map(async (account) => {
      const made = await call(port, agent, 'POST', '/api/accounts', { headers: { ...json, ...someoneNew() }, body: JSON.stringify(account) });
      if (made.status !== 201) throw new Error(`sign-up of ${account.name} answered ${made.status}`);
    }));
  }
  agent.destroy();
  return accounts;
}

// Rooms with a computer player start at once, so they are games that /api/games lists.
async function makeGames(port, count) {
  if (typeof WebSocket === 'undefined') throw new Error('no WebSocket in this Node: run it with node --experimental-websocket');
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = () => reject(new Error('no WebSocket connection')); });
  const waiting = new Map();
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id && waiting.has(message.id)) { waiting.get(message.id)(message); waiting.delete(message.id); }
  };
  const ask = (message) => new Promise((resolve) => { waiting.set(message.id, resolve); ws.send(JSON.stringify(message)); });
  await ask({ type: 'hello', id: 'hello', name: 'Bench' });
  for (let k = 0; k < count; ++k) {
    const reply = await ask({ type: 'create_room', id: `room-${k}`, game: 'cups', bots: [{ seat: 1, level: 1 }] });
    if (reply.type !== 'room') throw new Error(`create_room answered ${JSON.stringify(reply)}`);
  }
  ws.close();
}

// --- the load -----------------------------------------------------------------------------------
// Runs `step` over and over on a socket of its own until `deadline`, each result kept in `into`.
async function loop(port, deadline, into, step) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let k = 0; Date.now() < deadline; ++k) {
    try { into.push(await step(agent, k)); } catch (error) { into.push({ status: `error ${error.code ?? error.message}`, ms: 0, bytes: 0, sent: 0 }); }
  }
  agent.destroy();
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

function summary(name, results) {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const counts = Object.entries(statuses).map(([status, n]) => `${n}×${status}`).join(', ');
  return { name, n: results.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1), counts };
}

const format = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');

async function main() {
  const record = recordText(options.record, Number(options.bytes));
  const server = await startServer(options.server);
  try {
    const { port } = server;
    const rounds = Math.max(1, Math.ceil(seconds / 15));  // each name: fewer than 20 log-ins in 10 minutes
    const accounts = await makeAccounts(port, LOGINS * rounds);
    await makeGames(port, GAMES);
    const probe = await call(port, undefined, 'POST', '/api/records', { headers: { ...text, ...someoneNew() }, body: record });
    if (probe.status !== 200) throw new Error(`the record does not import (${probe.status}); try --bytes 0`);
    console.log(`mancala-server ${options.server} on port ${port}; ${accounts.length} accounts, ${GAMES} games, a record of ${Buffer.byteLength(record)} bytes`);
    console.log(`load for ${seconds} s: ${LOGINS} log-ins, ${ANALYSES} wrong-key record analyses, ${IMPORTS} imports in parallel; machine load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);

    const deadline = Date.now() + seconds * 1000;
    const results = { logins: [], analyses: [], imports: [], healthz: [], games: [] };
    const wrongKey = '/api/records/' + 'b'.repeat(64) + '/analysis';
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([
      ...Array.from({ length: LOGINS }, (_, w) => loop(port, deadline, results.logins, (agent, k) =>
        call(port, agent, 'POST', '/api/session', { headers: { ...json, ...someoneNew() },
          body: JSON.stringify(accounts[w + LOGINS * (k % rounds)]) }))),
      ...Array.from({ length: ANALYSES }, () => loop(port, deadline, results.analyses, (agent) =>
        call(port, agent, 'POST', wrongKey, { headers: { ...text, ...someoneNew() }, body: record }))),
      ...Array.from({ length: IMPORTS }, () => loop(port, deadline, results.imports, (agent) =>
        call(port, agent, 'POST', '/api/records', { headers: { ...text, ...someoneNew() }, body: record }))),
      loop(port, deadline, results.healthz, async (agent) => { await pause(); return call(port, agent, 'GET', '/healthz'); }),
      loop(port, deadline, results.games, async (agent) => { await pause(); return call(port, agent, 'GET', '/api/games'); }),
    ]);

    console.log('\nclass                      requests   p50 ms   p99 ms   max ms   answers');
    for (const [name, list] of [['POST /api/session', results.logins], ['POST wrong-key analysis', results.analyses],
      ['POST /api/records', results.imports], ['GET /healthz (probe)', results.healthz], ['GET /api/games (probe)', results.games]]) {
      const s = summary(name, list);
      console.log(`${s.name.padEnd(26)} ${String(s.n).padStart(8)} ${format(s.p50).padStart(8)} ${format(s.p99).padStart(8)} ${format(s.max).padStart(8)}   ${s.counts}`);
    }
    const all = [...results.logins, ...results.analyses, ...results.imports, ...results.healthz, ...results.games];
    const worst = all.reduce((a, b) => (b.bytes / (10 * b.sent + 65536) > a.bytes / (10 * a.sent + 65536) ? b : a));
    console.log(`\nlargest answer against its allowance: ${worst.bytes} bytes for a request of ${worst.sent} (allowed ${10 * worst.sent + 65536})`);
    const health = summary('', results.healthz), games = summary('', results.games);
    const met = health.p99 < GOAL_MS && games.p99 < GOAL_MS;
    console.log(`p99: /healthz ${format(health.p99)} ms, /api/games ${format(games.p99)} ms; goal < ${GOAL_MS} ms: ${met ? 'met' : 'NOT met'}`);
  } finally {
    server.stop();
  }
}

await main();
