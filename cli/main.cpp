// mancala: the engine from the shell. See README.md ("The mancala command").
#include <charconv>
#include <cmath>
#include <optional>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "arena.hpp"
#include "bench.hpp"
#include "mancala/action_line.hpp"
#include "mancala/analysis.hpp"
#include "mancala/bot.hpp"
#include "mancala/match.hpp"
#include "records.hpp"

namespace {

using mancala::Json;
using mancala::Match;
using mancala::Outcome;

constexpr const char* kUsage = R"(usage:
  mancala games
      every game id with its name, player counts and options
  mancala replay <game> [--options JSON] [--seed N]
      prints the opening state, then reads one line per action from standard input:
      tokens for the player to move (r4, c3 R Q D, 9 cw), or resign <seat>, concede <seat>,
      plex <seat>, plex_timeout; prints one JSON line per input line
  mancala random <game> [--options JSON] [--seed N] [--games K]
      plays K games of uniformly random legal decisions, one game record per line
  mancala bench [<game>...] [--seconds S]
      random playouts: decisions per second, playouts per second, decisions per playout
  mancala bench --signature
      fixed work (a level 4 computer plays itself a few moves in every game's variants, with a
      fixed playout budget) and one number, the signature, that changes only when the rules or
      the search do: {"signature","positions","playouts","seconds","playouts_per_second"}
  mancala bot <game> --level L [--options JSON] [--seed N] [--think-ms T]
      reads the moves so far as replay does, then prints the choice of a level L (1-5) computer
      player for the player to move: {"tokens","level","think_ms","playouts"}. Without
      --think-ms the level's playout budget decides and the answer repeats for a seed; with it,
      the bot thinks for up to T ms
  mancala arena <game> --a LEVEL --b LEVEL [--options JSON] [--games K] [--seed N] [--think-ms T]
                [--think-ms-b T]
      plays K games between two levels (1-5, or uct: plain UCT), alternating seats (Njaka of 3-4:
      A in one seat, B in the others); prints A's wins, losses, draws, score rate with a 95 %
      interval, and each side's mean think time per move. Playout budgets by default
      (repeatable for a seed); --think-ms T gives every searching side T ms per move instead,
      --think-ms-b T gives side B its own T ms (what more time is worth: --a uct --b uct
      --think-ms 100 --think-ms-b 200)
  mancala record-text
      reads a JSON game record (as random prints) on standard input and prints it as text:
      tags, then the numbered moves (docs/records.md)
  mancala record-json
      reads a game record as text on standard input, replays it, and prints the JSON game
      record as one line; an error names the line and column
  mancala analyse <game> [--options JSON] [--seed N] [--think-ms T]
      reads the moves of a game as replay does, then prints one JSON line per position reached:
      {"ply","to_move","eval","best","played","mark","exact"} (docs/analysis.md). Without
      --think-ms the default playout budget decides and the output repeats for a seed; with it,
      each position is searched for up to T ms
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Input lines a command cannot use (exit status 1, as a refused line in `replay`).
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Args {
  std::vector<std::string> positional;
  Json options = Json::object();
  std::uint64_t seed = 1;
  long long games = 1;
  double seconds = 1.0;
  std::optional<int> level;
  std::optional<mancala::cli::Side> a, b;
  long long think_ms = 0;
  std::optional<long long> think_ms_b;  // side B's own time in an arena, else think_ms
  bool signature = false;              // bench: the fixed-work signature instead of timings
};

// A bot level for --level, --a or --b: 1 to 5, and `uct` where plain UCT is allowed.
mancala::cli::Side parse_side(const std::string& flag, const std::string& text, bool uct_allowed) {
  if (uct_allowed && text == "uct") return {0, text};
  int level = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), level);
  if (error != std::errc() || end != text.data() + text.size() || level < mancala::bots::kMinLevel ||
      level > mancala::bots::kMaxLevel)
    throw UsageError(flag + " must be a level from 1 to 5" + (uct_allowed ? " or uct" : "") +
                     ", got '" + text + "'");
  return {level, text};
}

template <class T>
T parse_number(const std::string& flag, const std::string& text) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw UsageError(flag + " needs a number, got '" + text + "'");
  return value;
}

// A count or a time that must be at least 1 (--games, --think-ms, --think-ms-b).
long long parse_at_least_one(const std::string& flag, const std::string& text) {
  const auto value = parse_number<long long>(flag, text);
  if (value < 1) throw UsageError(flag + " must be at least 1");
  return value;
}

Args parse_args(int argc, char** argv, int first) {
  Args args;
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--options") {
      try {
        args.options = Json::parse(value());
      } catch (const Json::parse_error& e) {
        throw UsageError("--options is not valid JSON: " + mancala::json_error_words(e));
      }
    } else if (arg == "--seed") {
      args.seed = parse_number<std::uint64_t>(arg, value());
    } else if (arg == "--games") {
      args.games = parse_at_least_one(arg, value());
    } else if (arg == "--seconds") {
      args.seconds = parse_number<double>(arg, value());
      if (!(args.seconds > 0)) throw UsageError("--seconds must be positive");
    } else if (arg == "--level") {
      args.level = parse_side(arg, value(), false).level;
    } else if (arg == "--a") {
      args.a = parse_side(arg, value(), true);
    } else if (arg == "--b") {
      args.b = parse_side(arg, value(), true);
    } else if (arg == "--think-ms") {
      args.think_ms = parse_at_least_one(arg, value());
    } else if (arg == "--think-ms-b") {
      args.think_ms_b = parse_at_least_one(arg, value());
    } else if (arg == "--signature") {
      args.signature = true;
    } else if (arg.starts_with("--")) {
      throw UsageError("unknown flag " + arg);
    } else {
      args.positional.push_back(arg);
    }
  }
  return args;
}

int games_command() {
  Json out = Json::array();
  for (const auto& type : mancala::game_types())
    out.push_back(Json{{"id", type.id},
                       {"name", type.name},
                       {"players", {{"min", type.min_players}, {"max", type.max_players}}},
                       {"options", mancala::describe_options(type.options)}});
  std::cout << out.dump() << '\n';
  return 0;
}

Json state_line(const Match& match) {
  const Json state = match.state();
  return Json{{"ok", true},
              {"position", state["position"]},
              {"to_move", state["to_move"]},
              {"phase", state["phase"]},
              {"round", state["round"]},
              {"legal", state["legal"]},
              {"result", state["result"]}};
}

Outcome act(Match& match, const std::string& line) { return mancala::play_action_line(match, line); }

int replay_command(const Args& args) {
  if (args.positional.size() != 2) throw UsageError("replay takes one game id");
  Match match = Match::create(args.positional[1], args.options, args.seed);
  std::cout << state_line(match).dump() << std::endl;
  int status = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const Outcome outcome = act(match, line);
    if (outcome.ok()) {
      std::cout << state_line(match).dump() << std::endl;
    } else {
      status = 1;
      std::cout << Json{{"ok", false}, {"error", outcome.error->to_json()}}.dump() << std::endl;
    }
  }
  return status;
}

int random_command(const Args& args) {
  if (args.positional.size() != 2) throw UsageError("random takes one game id");
  mancala::Random rng(args.seed);
  for (long long g = 0; g < args.games; ++g) {
    Match match = Match::create(args.positional[1], args.options, rng.next());
    mancala::DecisionList legal;
    while (!match.over()) {
      if (match.game().phase() == mancala::Phase::claim) {
        match.close_claim_window();
        continue;
      }
      match.game().legal(legal);
      const auto pick = legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
      const Outcome outcome = match.play(match.game().token(pick));
      if (!outcome.ok()) throw std::logic_error("engine refused its own legal move: " +
                                                outcome.error->message);
    }
    Json record = match.record();
    record["result"] = match.game().result();
    std::cout << record.dump() << '\n';
  }
  return 0;
}

// The choice of a bot for the position the input lines lead to.
int bot_command(const Args& args) {
  if (args.positional.size() != 2) throw UsageError("bot takes one game id");
  if (!args.level) throw UsageError("bot needs --level L (1 to 5)");
  Match match = Match::create(args.positional[1], args.options, args.seed);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const Outcome outcome = act(match, line);
    if (!outcome.ok()) {
      std::cout << Json{{"ok", false}, {"error", outcome.error->to_json()}}.dump() << std::endl;
      return 1;
    }
  }
  const auto refuse = [](mancala::ErrorCode code, const char* message) {
    const mancala::MoveError error{code, message, {}, {}};
    std::cout << Json{{"ok", false}, {"error", error.to_json()}}.dump() << std::endl;
    return 1;
  };
  if (match.over()) return refuse(mancala::ErrorCode::game_over, "the game is over: there is no move to choose");
  if (match.game().phase() == mancala::Phase::claim)
    return refuse(mancala::ErrorCode::not_allowed,
                  "a Plex! window is open: settle it first (plex <seat> or plex_timeout)");
  const mancala::cli::Side side{*args.level, std::to_string(*args.level)};
  mancala::bots::Bot bot = mancala::cli::make_bot(side, args.seed, std::chrono::milliseconds(args.think_ms),
                                                  match.game().players());
  const mancala::bots::Choice choice = bot.choose(match.game());
  std::cout << Json{{"tokens", choice.tokens},
                    {"level", *args.level},
                    {"think_ms", std::round(choice.think_ms * 1000) / 1000},
                    {"playouts", choice.playouts}}
                   .dump()
            << std::endl;
  return 0;
}

// The positions of a game given as input lines, each with the line that left it. A line the
// game refuses stops everything: a game that does not replay cannot be analysed.
std::vector<mancala::analysis::GameStep> read_game(Match& match) {
  mancala::StepCollector steps(match.game());
  std::string line;
  for (int number = 1; std::getline(std::cin, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const Outcome outcome = act(match, line);
    if (!outcome.ok())
      throw InputError("input line " + std::to_string(number) + " '" + line + "': " +
                       std::string(to_string(outcome.error->code)) + ": " + outcome.error->message);
    steps.played(line, match.game());
  }
  return steps.take();
}

// cli.md's line, with its fields in the order the spec gives them.
std::string ply_line(std::size_t ply, const mancala::analysis::PlyAnalysis& analysed) {
  const auto& position = analysed.position;
  const auto text_or_null = [](const std::optional<std::string>& text) {
    return text ? Json(*text) : Json(nullptr);
  };
  const auto mark = analysed.mark == mancala::analysis::Mark::none
                        ? Json(nullptr)
                        : Json(std::string(to_string(analysed.mark)));
  return mancala::json_text([&](mancala::JsonWriter& out) {
    out.begin_object()
        .field("ply", ply)
        .key("to_move").seat_or_null(position.to_move)
        .key("eval").tree(Json(position.eval))
        .key("best").tree(text_or_null(position.best))
        .key("played").tree(text_or_null(analysed.played))
        .key("mark").tree(mark)
        .field("exact", position.exact)
        .end_object();
  });
}

int analyse_command(const Args& args) {
  if (args.positional.size() != 2) throw UsageError("analyse takes one game id");
  Match match = Match::create(args.positional[1], args.options, args.seed);
  const auto steps = read_game(match);
  auto budget = mancala::analysis::default_budget(match.game().players());
  if (args.think_ms > 0)
    budget = {std::numeric_limits<std::int64_t>::max(), std::chrono::milliseconds(args.think_ms)};
  const auto analysed = mancala::analysis::analyse_game(steps, budget, args.seed);
  for (std::size_t k = 0; k < analysed.plies.size(); ++k)
    std::cout << ply_line(k, analysed.plies[k]) << '\n';
  std::cout.flush();
  return 0;
}

int arena_command(const Args& args) {
  if (args.positional.size() != 2) throw UsageError("arena takes one game id");
  if (!args.a || !args.b) throw UsageError("arena needs --a LEVEL and --b LEVEL (1 to 5 or uct)");
  mancala::find_game_type(args.positional[1]);  // an unknown game is a usage error before any play
  Match::create(args.positional[1], args.options, args.seed);  // so are bad options
  const std::chrono::milliseconds think_a(args.think_ms);
  const std::chrono::milliseconds think_b(args.think_ms_b.value_or(args.think_ms));
  return mancala::cli::run_arena(
      {args.positional[1], args.options, *args.a, *args.b, args.games, args.seed, {think_a, think_b}});
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) throw UsageError("missing command");
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage;
      return 0;
    }
    const Args args = parse_args(argc, argv, 1);
    if (command == "games") return games_command();
    if (command == "replay") return replay_command(args);
    if (command == "random") return random_command(args);
    if (command == "bot") return bot_command(args);
    if (command == "arena") return arena_command(args);
    if (command == "record-text" || command == "record-json") {
      if (argc != 2) throw UsageError(command + " takes no arguments or flags: the record comes on standard input");
      return command == "record-text" ? mancala::cli::record_to_text_command(std::cin, std::cout, std::cerr)
                                      : mancala::cli::record_to_json_command(std::cin, std::cout, std::cerr);
    }
    if (command == "analyse") return analyse_command(args);
    if (command == "bench") {
      if (args.signature) {
        if (args.positional.size() != 1) throw UsageError("bench --signature takes no game: it plays every game");
        return mancala::cli::run_bench_signature();
      }
      return mancala::cli::run_bench({args.positional.begin() + 1, args.positional.end()},
                                     args.seconds);
    }
    throw UsageError("unknown command '" + command + "'");
  } catch (const UsageError& e) {
    std::cerr << "mancala: " << e.what() << " (see mancala --help)\n";
    return 2;
  } catch (const InputError& e) {
    std::cerr << "mancala: " << e.what() << '\n';
    return 1;
  } catch (const mancala::EngineError& e) {
    std::cerr << "mancala: " << to_string(e.code()) << ": " << e.what() << '\n';
    return 2;
  } catch (const mancala::Json::exception& e) {
    std::cerr << "mancala: " << mancala::json_error_words(e) << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "mancala: " << e.what() << '\n';
    return 1;
  }
}
