#include "records.hpp"

#include <iostream>
#include <iterator>
#include <string>

#include "mancala/record_text.hpp"

namespace mancala::cli {
namespace {

std::string read_all(std::istream& in) {
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int failed(std::ostream& errors, const EngineError& error) {
  errors << "mancala: " << to_string(error.code()) << ": " << error.what() << '\n';
  return 1;
}

}  // namespace

int record_to_text_command(std::istream& in, std::ostream& out, std::ostream& errors) {
  Json record;
  try {
    record = Json::parse(read_all(in));
  } catch (const Json::parse_error& e) {
    errors << "mancala: standard input is not a JSON game record: " << json_error_words(e) << '\n';
    return 1;
  }
  if (!record.is_object() || !record.contains("game")) {
    errors << "mancala: standard input is not a JSON game record: it needs at least \"game\" and \"turns\"\n";
    return 1;
  }
  try {
    out << record_to_text(record);
  } catch (const EngineError& e) {
    return failed(errors, e);
  } catch (const Json::exception& e) {  // an entry of the wrong shape
    errors << "mancala: the game record does not replay: " << json_error_words(e) << '\n';
    return 1;
  }
  return 0;
}

int record_to_json_command(std::istream& in, std::ostream& out, std::ostream& errors) {
  try {
    out << record_from_text(read_all(in)).dump() << '\n';
  } catch (const EngineError& e) {
    return failed(errors, e);
  }
  return 0;
}

}  // namespace mancala::cli
