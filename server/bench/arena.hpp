#pragma once
// mancala-loadgen's tournament mode (issue 48's benchmark): one arena of N players on one process.
//
// --arena N: the server runs on short arena minutes (--test-tournament-minute-ms); an account
// creates an arena of Cups with a short clock starting a little ahead; N guests say hello and
// join it over HTTP (Bearer token; each join names a made-up client in X-Forwarded-For, which
// the started server trusts from loopback, so the per-address limit on tournament requests, 60
// in 10 minutes, stays out of the way). Before the start, N watchers send `watch_tournament`
// and one player withdraws and joins again a few times, 2 s apart: each change is one push of
// the standings of N players to the N watchers. The watchers then close, and the arena runs:
// each player plays the first legal token of its turn after a think time (--think-ms, 250 by
// default; with --think-jitter each pause is drawn from 0.5 to 1.5 times it, so that games end
// apart instead of all within a moment) until the game ends, then waits to be paired again. Afterwards the same players play
// the same number of Cups games in ordinary rooms (create_room/join_room, a rematch after each
// game) at the same pace for 40 s. The arena's move figures count the moves sent before its end
// (after it, fewer and fewer games are still played). Printed, one line each:
//   arena: N players, pairing p50 N ms p99 N ms (goal 20 ms), start wave p99 N ms
//   arena: move p99 N ms in the arena, N ms outside (ratio N, goal 1.2)
//   arena: standings N bytes, push to N watchers p99 N ms, N us per delivered message
#include "loadgen_parts.hpp"

namespace mancala::bench {

int run_arena(const Options& options);

}  // namespace mancala::bench
