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
// --lobby-watchers N: N connections watch the lobby while pairs of players create public Cups
// rooms, start them and resign them at --lobby-rooms a minute (1,000 by default); each room is
// timed from its create_room reply to the last watcher's `rooms` message that lists it (the
// lobby coalesces changes for 50 ms, which the figure includes), and the server's CPU is
// divided by the `rooms` messages delivered.
#include "loadgen_parts.hpp"

namespace mancala::bench {

int run_fanout(const Options& options);

}  // namespace mancala::bench
