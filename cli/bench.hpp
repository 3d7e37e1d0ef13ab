#pragma once
#include <string>
#include <vector>

namespace mancala::cli {

// Random playouts through the engine interface for each named game (all when empty); prints one
// JSON line per benchmarked variant. Returns the process exit status.
int run_bench(const std::vector<std::string>& games, double seconds);

}  // namespace mancala::cli
