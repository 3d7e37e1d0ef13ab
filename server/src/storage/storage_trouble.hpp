#pragma once

namespace mancala::server {

// Why writes fail just now, if they do: the database cannot be reached (a restart, a failover,
// a network cut), or its disk is full. Either way nothing acknowledged is lost, and the same
// write succeeds once the trouble is over, so the client is told to try again.
enum class StorageTrouble { none, unreachable, disk_full };

}  // namespace mancala::server
