#pragma once
// Names the calling thread, so that `top -H`, `perf report --sort pid` and a debugger tell the
// server's threads apart (the writer from a network thread, say). Linux keeps the first 15
// characters. The main thread keeps the program's name: `ps` and `pgrep` show that one.
#include <string_view>

namespace mancala::server {

void name_this_thread(std::string_view name);

}  // namespace mancala::server
