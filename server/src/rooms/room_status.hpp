#pragma once
// Where a room is in its life: waiting for its players, playing, or finished.
#include <string_view>

namespace mancala::server {

enum class RoomStatus { waiting, playing, finished };

constexpr std::string_view to_string(RoomStatus status) {
  switch (status) {
    case RoomStatus::waiting: return "waiting";
    case RoomStatus::playing: return "playing";
    case RoomStatus::finished: return "finished";
  }
  return "waiting";
}

}  // namespace mancala::server
