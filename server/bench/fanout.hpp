#pragma once
// mancala-loadgen's fan-out mode (issue 51): one game watched by thousands.
//
// --spectators N: two players play Cups games move by move (a rematch after each, which takes
// the spectators along) while N connections watch the room as spectators (hello, then
// join_room with spectate). One move is in flight at a time: the next is sent once every
// spectator has the last one. Each move is timed from its send, and from the mover's
// acknowledgement (which the server sends after the commit, and after queueing the spectators'
// copies), to the last spectator receiving that version; the server's CPU over the measured
// window (/proc/<pid>/stat) is divided by moves x spectators. One line says it:
//   fan-out: 5000 spectators, p99 N ms, N us per delivered message
//
// Not yet here: issue 51's lobby variant (10,000 connections watching the lobby while 1,000
// rooms a minute are created and finished).
#include "loadgen_parts.hpp"

namespace mancala::bench {

int run_fanout(const Options& options);

}  // namespace mancala::bench
