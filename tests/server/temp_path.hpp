#pragma once
// Fresh temporary files and folders for tests, under $TMPDIR (or /tmp when it is unset), and
// reading back what a program wrote into them (its logs).
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mancala::testing {

// A new empty folder named `<prefix>-XXXXXX` in the temporary directory.
inline std::string make_temp_dir(std::string_view prefix) {
  std::string path = (std::filesystem::temp_directory_path() / std::string(prefix)).string() + "-XXXXXX";
  if (!mkdtemp(path.data())) throw std::runtime_error("cannot make a folder like " + path);
  return path;
}

// A new empty file named `<prefix>-XXXXXX` in the temporary directory.
inline std::string make_temp_file(std::string_view prefix) {
  std::string path = (std::filesystem::temp_directory_path() / std::string(prefix)).string() + "-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("cannot make a file like " + path);
  close(fd);
  return path;
}

// The whole text of the file at `path`; empty when it cannot be read (a log not written yet).
inline std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace mancala::testing
