// mancala-analysis-bench: what game analysis (mancala/analysis.hpp) costs and how often it is
// right. A benchmark that prints its figures, not a test:
//
//   build/cli/mancala-analysis-bench [--positions K] [--seed N] [--part speed|quality|frontier|all]
//
// Speed: a Cups game of 60 moves and a Njaka game of four seats (both played by level 3
// computer players from the seed) analysed at the default budget; prints the seconds per game
// and the milliseconds per position in CPU time (the analysis is single-threaded, so that is
// its time on one core whatever else the machine runs) and the wall clock.
// Quality: K (default 1,000) random Cups positions that an alpha-beta search settles exactly (a random position of the part of a random game the reference solves within its node
// budget, with at least two legal decisions), each with the random move the game went on with.
// The analysis agrees with the exact values when the best move it shows is optimal and the mark
// it gives the move played is the mark the exact values give (exact drops are 0, 1/2 or 1).
// Prints the agreement, its two parts, and how many positions the analysis proved itself.
// `--part frontier` (not part of `all`) takes the earliest solvable position of each game
// instead: the hardest the reference settles.
#include <chrono>
#include <cmath>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "mancala/analysis.hpp"
#include "mancala/bot.hpp"
#include "mancala/match.hpp"
#include "src/search.hpp"

namespace {

using namespace mancala;
using Clock = std::chrono::steady_clock;

// The reference: the engine's alpha-beta endgame search (src/search.hpp; tests/engine/bot_test.cpp
// checks it against a plain exhaustive minimax) with a far larger budget than the analysis's
// leaf searches get.
constexpr std::int64_t kSolveBudget = 400'000;

std::optional<double> solve(const Game& game) {
  static bots::EndgameSolver solver;
  return solver.solve(game, kSolveBudget);
}

double for_seat(double seat0_value, Seat seat) { return seat == 0 ? seat0_value : 1 - seat0_value; }

// Plays a game with level 3 players on every seat (Plex! races to a random eligible seat) until
// it ends or `max_moves` moves were made; returns the moves as input lines.
std::vector<std::string> bot_game(const char* game_id, const Json& options, int max_moves,
                                  std::uint64_t seed, Match& match) {
  match = Match::create(game_id, options, seed);
  std::vector<bots::Bot> players;
  for (int q = 0; q < match.game().players(); ++q) players.emplace_back(3, seed * 7 + static_cast<std::uint64_t>(q));
  Random rng(seed);
  std::vector<std::string> lines;
  int moves = 0;
  while (!match.over() && moves < max_moves) {
    if (match.game().phase() == Phase::claim) {
      std::vector<Seat> eligible;
      for (Seat q = 0; q < match.game().players(); ++q)
        if (match.claim_window()->may_claim(q)) eligible.push_back(q);
      const Seat claimant = eligible[rng.below(static_cast<std::uint32_t>(eligible.size()))];
      match.claim(claimant);
      lines.push_back("plex " + std::to_string(claimant));
      continue;
    }
    const auto choice = players[static_cast<std::size_t>(match.game().to_move())].choose(match.game());
    match.play(choice.tokens);
    lines.push_back(choice.tokens);
    ++moves;
  }
  return lines;
}

void speed(const char* label, const char* game_id, const char* options, int max_moves, std::uint64_t seed) {
  Match match = Match::create(game_id, Json::parse(options), seed);
  const auto lines = bot_game(game_id, Json::parse(options), max_moves, seed, match);
  // Replays the lines to collect the positions, as `mancala analyse` does.
  Match replay = Match::create(game_id, Json::parse(options), seed);
  std::vector<analysis::GameStep> steps{{replay.game().clone(), std::nullopt}};
  for (const auto& line : lines) {
    if (line.starts_with("plex ")) replay.claim(std::stoi(line.substr(5)));
    else replay.play(line);
    steps.back().played = line;
    steps.push_back({replay.game().clone(), std::nullopt});
  }
  const auto budget = analysis::default_budget(replay.game().players());
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  const auto result = analysis::analyse_game(steps, budget, seed);
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  long long playouts = 0;
  int exact = 0;
  Json marks = {{"inaccuracy", 0}, {"mistake", 0}, {"blunder", 0}};
  for (const auto& ply : result.plies) {
    playouts += ply.position.playouts;
    exact += ply.position.exact ? 1 : 0;
    if (ply.mark != analysis::Mark::none) marks[std::string(to_string(ply.mark))] = marks[std::string(to_string(ply.mark))].get<int>() + 1;
  }
  Json accuracy = Json::array();
  for (const auto& seat : result.accuracy) accuracy.push_back(seat ? Json(std::round(*seat * 10) / 10) : Json(nullptr));
  std::cout << Json{{"bench", "speed"},
                    {"game", label},
                    {"moves", lines.size()},
                    {"positions", steps.size()},
                    {"budget_playouts", budget.playouts},
                    {"cpu_seconds", cpu_seconds},
                    {"cpu_ms_per_position", 1000 * cpu_seconds / static_cast<double>(steps.size())},
                    {"wall_seconds", seconds},
                    {"playouts", playouts},
                    {"exact_positions", exact},
                    {"marks", marks},
                    {"accuracy", accuracy}}
                   .dump()
            << std::endl;
}

struct Sample {
  std::unique_ptr<Game> position;
  Decision played;
};

// Which solvable position of a game the quality figures take: any, or the earliest (the
// largest the reference settles, where the analysis is least often exact).
enum class Pick { random, frontier };

// A position of the solvable end of a random game (walked back from the end until the reference
// gives up), with at least two legal decisions, and the random move made there.
std::optional<Sample> solvable_position(std::uint64_t seed, Pick pick) {
  Match match = Match::create("cups", Json::object(), seed);
  Random rng(seed);
  std::vector<Sample> game;
  DecisionList legal;
  while (!match.over()) {
    match.game().legal(legal);
    const Decision d = legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
    if (legal.size() >= 2) game.push_back({match.game().clone(), d});
    match.play(match.game().token(d));
  }
  std::size_t solvable = game.size();
  while (solvable > 0 && solve(*game[solvable - 1].position)) --solvable;
  if (solvable == game.size()) return std::nullopt;
  if (pick == Pick::frontier) return std::move(game[solvable]);
  return std::move(game[solvable + rng.below(static_cast<std::uint32_t>(game.size() - solvable))]);
}

struct Tally {
  int positions = 0, best_optimal = 0, marks_agree = 0, both = 0, proven = 0;
  int marked_blunder = 0, blunders_that_lose = 0;
};

void judge(const Sample& sample, std::uint64_t seed, Tally& tally) {
  const Game& game = *sample.position;
  const Seat mover = game.to_move();
  auto after = game.clone();
  after->apply(sample.played, nullptr);
  std::vector<analysis::GameStep> steps{{game.clone(), game.token(sample.played)},
                                        {std::shared_ptr<const Game>(std::move(after)), std::nullopt}};
  // analyse_game leaves the last position's move unjudged, so the game goes on one step more.
  const auto result = analysis::analyse_game(steps, analysis::default_budget(2), seed);
  const auto& ply = result.plies[0];
  // analyse_game judges a move only when a position follows it: here it does.
  const double value = for_seat(*solve(game), mover);
  auto best = game.clone();
  for (Decision d : ply.position.best_decisions) best->apply(d, nullptr);
  const double best_value = for_seat(*solve(*best), mover);
  const double played_value = for_seat(*solve(*steps[1].position), mover);
  const auto exact_mark =
      *ply.played == *ply.position.best ? analysis::Mark::none : analysis::mark_for_drop(value - played_value);
  const bool optimal = best_value == value;
  const bool agree = exact_mark == ply.mark;
  ++tally.positions;
  tally.best_optimal += optimal;
  tally.marks_agree += agree;
  tally.both += optimal && agree;
  tally.proven += ply.position.exact;
  if (ply.mark == analysis::Mark::blunder) {
    ++tally.marked_blunder;
    tally.blunders_that_lose += played_value < value;
  }
}

void quality(int wanted, std::uint64_t seed, Pick pick) {
  Tally tally;
  const auto start = Clock::now();
  for (std::uint64_t game = seed * 1'000'003; tally.positions < wanted; ++game)
    if (const auto sample = solvable_position(game, pick)) judge(*sample, game, tally);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto percent = [&](int count) { return 100.0 * count / tally.positions; };
  std::cout << Json{{"bench", "quality"},
                    {"game", "cups"},
                    {"pick", pick == Pick::frontier ? "earliest solvable" : "random solvable"},
                    {"positions", tally.positions},
                    {"agreement_percent", percent(tally.both)},
                    {"best_move_optimal_percent", percent(tally.best_optimal)},
                    {"mark_agrees_percent", percent(tally.marks_agree)},
                    {"proven_by_analysis_percent", percent(tally.proven)},
                    {"marked_blunder", tally.marked_blunder},
                    {"marked_blunder_that_loses_value", tally.blunders_that_lose},
                    {"seconds", seconds}}
                   .dump()
            << std::endl;
}

std::string flag_text(int argc, char** argv, const std::string& flag, const std::string& fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == flag) return argv[i + 1];
  return fallback;
}

long long flag_value(int argc, char** argv, const std::string& flag, long long fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == flag) {
      long long value = 0;
      const std::string text = argv[i + 1];
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size() || value < 1)
        throw std::invalid_argument(flag + " needs a positive number, got '" + text + "'");
      return value;
    }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto positions = static_cast<int>(flag_value(argc, argv, "--positions", 1000));
    const auto seed = static_cast<std::uint64_t>(flag_value(argc, argv, "--seed", 1));
    const std::string part = flag_text(argc, argv, "--part", "all");
    if (part != "all" && part != "speed" && part != "quality" && part != "frontier")
      throw std::invalid_argument("--part must be speed, quality, frontier or all, got '" + part + "'");
    if (part == "all" || part == "speed") {
      speed("cups", "cups", "{}", 60, seed);
      speed("njaka 4 players", "njaka", R"({"players":4})", 1'000'000, seed);
    }
    if (part == "all" || part == "quality") quality(positions, seed, Pick::random);
    if (part == "frontier") quality(positions, seed, Pick::frontier);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "mancala-analysis-bench: " << e.what() << '\n';
    return 2;
  }
}
