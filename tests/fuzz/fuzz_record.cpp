// Fuzz target: game-record texts, which "Import a game" and POST /api/records take from anyone.
// Any text either imports or is refused with a RecordTextError that names its line and column
// (no other exception, no crash); and a text that imports writes back to a text that imports to
// the same record (the writer and the reader agree).
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "check.hpp"
#include "mancala/json.hpp"
#include "mancala/record_text.hpp"

namespace {

void check_written_back(const mancala::Json& record) {
  const std::string text = mancala::record_to_text(record);
  mancala::Json again;
  try {
    again = mancala::record_from_text(text);
  } catch (const mancala::RecordTextError& e) {
    std::fprintf(stderr, "the written text does not import: %s\n---\n%s\n---\n", e.what(), text.c_str());
    FUZZ_CHECK(!"a written record imports");
  }
  FUZZ_CHECK(again == record);  // and so its text is `text` again: record_to_text is a function
  FUZZ_CHECK(!mancala::to_json_text(record).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mancala::Json record;
  try {
    record = mancala::record_from_text(text);
  } catch (const mancala::RecordTextError& e) {
    FUZZ_CHECK(e.line() >= 1 && e.column() >= 1);
    FUZZ_CHECK(!mancala::to_json_text(mancala::Json(e.what())).empty());  // quotable as JSON
    return 0;
  }
  check_written_back(record);
  return 0;
}
