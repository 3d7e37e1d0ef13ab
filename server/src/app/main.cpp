// mancala-server: the game server (see server/README.md and cli.md).
#include <iostream>
#include <string_view>

#include "config.hpp"
#include "health_probe.hpp"
#include "server.hpp"

int main(int argc, char** argv) {
  using namespace mancala::server;
  Config config;
  try {
    config = parse_command_line(argc, argv);
  } catch (const UsageError& e) {
    // One line that says what is wrong; the 80 lines of --help would scroll it away.
    std::cerr << "mancala-server: " << e.what() << (std::string_view(e.what()).ends_with("(see --help)") ? "" : " (see --help)") << "\n";
    return 2;
  }
  if (config.help) {
    std::cout << usage();
    return 0;
  }
  if (config.health) {
    const HealthAnswer answer = probe_health(config);
    (answer.healthy ? std::cout : std::cerr) << "mancala-server: " << answer.said << "\n";
    return answer.healthy ? 0 : 1;
  }
  try {
    return run_server(config);
  } catch (const std::exception& e) {
    std::cerr << "mancala-server: " << e.what() << "\n";
    return 1;
  }
}
