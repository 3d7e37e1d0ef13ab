#pragma once
// Host options of a game, declared as a table. The same table validates options, fills in
// defaults, and describes the options to `mancala games` and to the web client's forms.
#include <span>
#include <string>

#include "mancala/json.hpp"

namespace mancala {

struct OptionSpec {
  std::string name;
  Json default_value;
  // Either a list of allowed values (`choices` is a JSON array) or an integer range [min, max].
  Json choices;
  int min = 0;
  int max = 0;
  std::string help;  // one line for people choosing the option
  // Options this one depends on, as {"name": value}: it may leave its default only while each
  // of them has that value (Njaka's advanced variant is for two players). Null when none.
  Json only_with = nullptr;
};

// Every key of `given` must name an option of `specs` and hold an allowed value, and every
// option set away from its default must have its `only_with` options as it needs; missing
// options take their defaults. Returns the complete option object. Throws
// EngineError(bad_option) naming the offending option and what it accepts.
Json resolve_options(std::span<const OptionSpec> specs, const Json& given);

// {"name": {"default":…, "choices":[…]} or {"default":…, "min":…, "max":…}, "only_with":{…}
// when it has one, "help":…}
Json describe_options(std::span<const OptionSpec> specs);

}  // namespace mancala
