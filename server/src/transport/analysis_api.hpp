#pragma once
// The analysis API (issue 32): a stored game's analysis, its record as text, imported
// records, their positions and their analyses, and what-if searches (protocol/README.md).
// Each request is counted before its body is read (issue 46); reading and replaying a record or
// a game runs on the record-replay workers, searches on the analysis workers
// (analysis_jobs.hpp), and their answers come from there through `reply`, so that no reader
// thread replays or waits for a search.
#include "api_routes.hpp"

namespace mancala::server {

RouteTable analysis_routes();

}  // namespace mancala::server
