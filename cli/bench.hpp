#pragma once
#include <string>
#include <vector>

namespace mancala::cli {

// Random playouts through the engine interface for each named game (all when empty); prints one
// JSON line per benchmarked variant. Returns the process exit status.
int run_bench(const std::vector<std::string>& games, double seconds);

// Fixed work whose one number (the signature) changes only when the rules or the search do,
// as Stockfish's `bench` node count: a commit that changes neither keeps it. Prints one JSON
// line {"signature","positions","playouts","seconds","playouts_per_second"}.
int run_bench_signature();

}  // namespace mancala::cli
