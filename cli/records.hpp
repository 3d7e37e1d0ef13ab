#pragma once
#include <iosfwd>

namespace mancala::cli {

// `mancala record-text`: the JSON game record on `in` as text (docs/records.md) on `out`.
// `mancala record-json`: the reverse, as one JSON line. Both return the exit status: 0, or 1 with
// one line on `errors` when the input does not convert.
int record_to_text_command(std::istream& in, std::ostream& out, std::ostream& errors);
int record_to_json_command(std::istream& in, std::ostream& out, std::ostream& errors);

}  // namespace mancala::cli
