#include "thread_name.hpp"

#include <pthread.h>

#include <string>

namespace mancala::server {

void name_this_thread(std::string_view name) {
  constexpr std::size_t kLinuxLimit = 15;
  const std::string kept(name.substr(0, kLinuxLimit));
  pthread_setname_np(pthread_self(), kept.c_str());  // only fails for a name that is too long
}

}  // namespace mancala::server
