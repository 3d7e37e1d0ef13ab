#include "bench.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "cups_kernel.hpp"
#include "mancala/bot.hpp"
#include "mancala/json_writer.hpp"
#include "mancala/match.hpp"

namespace mancala::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct Variant {
  const char* game;
  const char* label;    // how the variant is named in the output
  const char* options;  // JSON
};

// The variants each game is measured in. A game without a row here is measured with defaults.
const Variant kVariants[] = {
    {"cups", "cups", "{}"},
    {"coin_duel", "coin_duel stage 1", R"({"stage":1})"},
    {"coin_duel", "coin_duel stage 2", R"({"stage":2})"},
    {"coin_duel", "coin_duel stage 3", R"({"stage":3})"},
    {"njaka", "njaka 2 players", R"({"players":2,"plex_mode":"mover"})"},
    {"njaka", "njaka 4 players", R"({"players":4,"plex_mode":"mover"})"},
};

struct Figures {
  double seconds = 0;
  long long decisions = 0;
  long long playouts = 0;
};

// Uniformly random legal decisions through the generic interface until `seconds` have passed.
Figures engine_playouts(const Game& opening, double seconds, std::uint64_t seed) {
  Random rng(seed);
  DecisionList legal;
  Figures f;
  const auto start = Clock::now();
  const auto stop = start + std::chrono::duration<double>(seconds);
  do {
    auto game = opening.clone();
    while (true) {
      const Phase phase = game->phase();
      if (phase == Phase::over) break;
      if (phase == Phase::claim) {
        game->resolve_claim(std::nullopt, nullptr);
        continue;
      }
      game->legal(legal);
      if (legal.empty()) {
        std::cerr << "bench: no legal decision in phase play; the game would hang\n";
        std::exit(1);
      }
      game->apply(legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))],
                  nullptr);
      ++f.decisions;
    }
    ++f.playouts;
  } while (Clock::now() < stop);
  f.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return f;
}

Figures kernel_playouts(int cups_per_side, double seconds, std::uint64_t seed) {
  Random rng(seed);
  CupsKernel k;
  int legal[32];
  Figures f;
  const auto start = Clock::now();
  const auto stop = start + std::chrono::duration<double>(seconds);
  do {
    k.reset(cups_per_side);
    while (!k.over) {
      const int count = k.legal(legal);
      k.play(legal[rng.below(static_cast<std::uint32_t>(count))]);
      ++f.decisions;
    }
    ++f.playouts;
  } while (Clock::now() < stop);
  f.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return f;
}

Json figures_json(const Figures& f) {
  return Json{{"decisions_per_second", static_cast<long long>(static_cast<double>(f.decisions) / f.seconds)},
              {"playouts_per_second", static_cast<long long>(static_cast<double>(f.playouts) / f.seconds)},
              {"mean_decisions_per_playout",
               f.playouts ? static_cast<double>(f.decisions) / static_cast<double>(f.playouts) : 0.0}};
}

void bench_variant(const Variant& v, double seconds) {
  const Match match = Match::create(v.game, Json::parse(v.options), 1);
  Json line = {{"game", v.label}};
  line.update(figures_json(engine_playouts(match.game(), seconds, 42)));
  if (std::string_view(v.game) == "cups") {
    const Figures kernel = kernel_playouts(match.options()["cups_per_side"].get<int>(), seconds, 42);
    const double kernel_rate = static_cast<double>(kernel.decisions) / kernel.seconds;
    line["kernel_decisions_per_second"] = static_cast<long long>(kernel_rate);
    line["ratio_engine_to_kernel"] = line["decisions_per_second"].get<double>() / kernel_rate;
  }
  std::cout << line.dump() << std::endl;
}

// The signature's fixed work: in every variant, a level 4 computer plays itself from the
// opening for kSignatureChoices choices of kSignaturePlayouts playouts each, with no wall-clock
// cap, so every choice depends only on the seed, the rules and the search.
constexpr int kSignatureChoices = 12;
constexpr std::int64_t kSignaturePlayouts = 400;
constexpr std::uint64_t kSignatureSeed = 20261202;

// FNV-1a over texts, each closed by a separator so that "ab","c" and "a","bc" differ.
struct Digest {
  std::uint64_t value = 0xcbf29ce484222325ULL;
  void add(std::string_view text) {
    for (unsigned char c : text) mix(c);
    mix(0xFF);
  }
  void mix(unsigned char c) {
    value ^= c;
    value *= 0x100000001B3ULL;
  }
};

struct SignatureWork {
  Digest digest;
  long long positions = 0;
  long long playouts = 0;
};

// Every position reached (its whole state text: board, scores, legal moves) and every choice
// goes into the digest; a Plex!-style claim window closes unclaimed.
void self_play(const Variant& v, SignatureWork& work) {
  Match match = Match::create(v.game, Json::parse(v.options), kSignatureSeed);
  bots::Bot bot(4, kSignatureSeed, bots::Budget{kSignaturePlayouts, std::chrono::milliseconds(0)});
  for (int choice = 0; choice < kSignatureChoices && !match.over(); ++choice) {
    if (match.game().phase() == Phase::claim) match.close_claim_window();
    if (match.over()) break;
    std::string state;
    JsonWriter writer(state);
    match.write_state(writer);
    work.digest.add(state);
    const bots::Choice chosen = bot.choose(match.game());
    work.digest.add(chosen.tokens);
    ++work.positions;
    work.playouts += chosen.playouts;
    const Outcome outcome = match.play(chosen.tokens);
    if (!outcome.ok()) throw std::logic_error("bench: the bot chose an illegal move '" + chosen.tokens + "'");
  }
}

// The variants of `ids` (every game when empty): a game's rows of kVariants, else its defaults.
template <typename Visit>
void for_each_variant(const std::vector<std::string>& games, Visit visit) {
  std::vector<std::string> ids = games;
  if (ids.empty())
    for (const auto& type : game_types()) ids.emplace_back(type.id);
  for (const auto& id : ids) {
    find_game_type(id);  // throws a clear error for an unknown id
    bool found = false;
    for (const auto& v : kVariants)
      if (id == v.game) {
        visit(v);
        found = true;
      }
    if (!found) visit(Variant{id.c_str(), id.c_str(), "{}"});
  }
}

}  // namespace

int run_bench(const std::vector<std::string>& games, double seconds) {
  for_each_variant(games, [&](const Variant& v) { bench_variant(v, seconds); });
  return 0;
}

int run_bench_signature() {
  SignatureWork work;
  const auto start = Clock::now();
  for_each_variant({}, [&](const Variant& v) { self_play(v, work); });
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::cout << Json{{"signature", work.digest.value},
                    {"positions", work.positions},
                    {"playouts", work.playouts},
                    {"seconds", std::round(elapsed * 1000) / 1000},
                    {"playouts_per_second", static_cast<long long>(static_cast<double>(work.playouts) / elapsed)}}
                   .dump()
            << std::endl;
  return 0;
}

}  // namespace mancala::cli
