#pragma once
// Wall-clock times as the protocol writes them: ISO 8601 UTC with milliseconds.
#include <chrono>
#include <string>

namespace mancala::server {

using SystemTime = std::chrono::system_clock::time_point;
using SteadyTime = std::chrono::steady_clock::time_point;

std::string format_utc(SystemTime time);
inline std::string now_utc() { return format_utc(std::chrono::system_clock::now()); }

}  // namespace mancala::server
