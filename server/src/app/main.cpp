// mancala-server: the game server (see server/README.md and cli.md).
#include <iostream>

#include "config.hpp"
#include "server.hpp"

int main(int argc, char** argv) {
  using namespace mancala::server;
  Config config;
  try {
    config = parse_command_line(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "mancala-server: " << e.what() << "\n" << kUsage;
    return 2;
  }
  if (config.help) {
    std::cout << kUsage;
    return 0;
  }
  try {
    return run_server(config);
  } catch (const std::exception& e) {
    std::cerr << "mancala-server: " << e.what() << "\n";
    return 1;
  }
}
