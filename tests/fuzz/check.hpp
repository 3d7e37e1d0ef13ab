#pragma once
// Invariant checks of the fuzz targets: a broken invariant aborts with a message, which both
// libFuzzer and the corpus replay report as a failure (with the input that caused it).
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                              \
  do {                                                                                     \
    if (!(condition)) {                                                                    \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                        \
    }                                                                                      \
  } while (false)
