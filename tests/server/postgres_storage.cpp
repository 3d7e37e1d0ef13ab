// With MANCALA_TEST_DB=postgresql, every server a test of this program starts stores in
// PostgreSQL (a throwaway server, temp_postgres.hpp) instead of SQLite: ":memory:" becomes a
// fresh database, a file name one database for the whole run, so that a restart on "the same
// file" finds what was stored. ctest runs the suites that drive the real binary this way a
// second time, under the `cluster` label (tests/server/CMakeLists.txt).
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "harness.hpp"
#include "temp_postgres.hpp"

namespace mancala::testing {
namespace {

std::string postgres_database_for(const std::string& db) {
  if (db == ":memory:") return TempPostgres::shared().create_database();
  static std::mutex mutex;
  static std::map<std::string, std::string> databases;  // file name -> its database's URL
  const std::lock_guard lock(mutex);
  std::string& url = databases[db];
  if (url.empty()) url = TempPostgres::shared().create_database();
  return url;
}

const bool kOnPostgres = [] {
  const char* storage = std::getenv("MANCALA_TEST_DB");
  if (storage == nullptr || std::string(storage) != "postgresql") return false;
  map_databases(postgres_database_for);
  return true;
}();

}  // namespace
}  // namespace mancala::testing
