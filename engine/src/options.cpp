#include "mancala/options.hpp"

#include "mancala/error.hpp"

namespace mancala {
namespace {

std::string accepted_values(const OptionSpec& spec) {
  if (spec.choices.is_array()) {
    std::string out;
    for (const auto& choice : spec.choices) out += (out.empty() ? "" : ", ") + choice.dump();
    return "one of " + out;
  }
  return "an integer from " + std::to_string(spec.min) + " to " + std::to_string(spec.max);
}

// Integers compare by value whether JSON parsed them as signed or unsigned; otherwise the kinds
// must match, because 1, 1.0, "1" and true are different things to a person typing options.
bool same_value(const Json& a, const Json& b) {
  if (a.is_number_integer() && b.is_number_integer()) return a.get<long long>() == b.get<long long>();
  return a.type() == b.type() && a == b;
}

bool accepts(const OptionSpec& spec, const Json& value) {
  if (spec.choices.is_array()) {
    for (const auto& choice : spec.choices)
      if (same_value(choice, value)) return true;
    return false;
  }
  return value.is_number_integer() && value.get<long long>() >= spec.min &&
         value.get<long long>() <= spec.max;
}

// A plain loop rather than find_if with a lambda: clang 14 cannot capture the structured
// binding the caller's name comes from (a C++20 feature it lacks).
const OptionSpec* find_spec(std::span<const OptionSpec> specs, const std::string& name) {
  for (const auto& spec : specs)
    if (spec.name == name) return &spec;
  return nullptr;
}

void check_only_with(const OptionSpec& spec, const Json& options) {
  if (spec.only_with.is_null() || options.at(spec.name) == spec.default_value) return;
  for (const auto& [other, needed] : spec.only_with.items())
    if (options.at(other) != needed)
      throw EngineError(ErrorCode::bad_option, "option '" + spec.name + "' needs '" + other +
                                                   "' to be " + needed.dump() + ", but it is " +
                                                   options.at(other).dump());
}

}  // namespace

Json resolve_options(std::span<const OptionSpec> specs, const Json& given) {
  if (!given.is_null() && !given.is_object())
    throw EngineError(ErrorCode::bad_option, "options must be a JSON object, got " + given.dump());
  Json out = Json::object();
  for (const auto& spec : specs) out[spec.name] = spec.default_value;
  if (given.is_null()) return out;
  for (const auto& [name, value] : given.items()) {
    const OptionSpec* spec = find_spec(specs, name);
    if (!spec) {
      std::string known;
      for (const auto& other : specs) known += (known.empty() ? "" : ", ") + other.name;
      throw EngineError(ErrorCode::bad_option, "unknown option '" + name + "' (this game has: " +
                                                   (known.empty() ? "no options" : known) + ")");
    }
    if (!accepts(*spec, value))
      throw EngineError(ErrorCode::bad_option, "option '" + name + "' is " + value.dump() +
                                                   "; it must be " + accepted_values(*spec));
    out[name] = value;
  }
  for (const auto& spec : specs) check_only_with(spec, out);
  return out;
}

Json describe_options(std::span<const OptionSpec> specs) {
  Json out = Json::object();
  for (const auto& spec : specs) {
    Json entry = {{"default", spec.default_value}};
    if (spec.choices.is_array()) {
      entry["choices"] = spec.choices;
    } else {
      entry["min"] = spec.min;
      entry["max"] = spec.max;
    }
    if (!spec.only_with.is_null()) entry["only_with"] = spec.only_with;
    entry["help"] = spec.help;
    out[spec.name] = std::move(entry);
  }
  return out;
}

}  // namespace mancala
