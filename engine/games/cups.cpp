#include "games/cups.hpp"

#include <algorithm>

namespace mancala {
namespace {

const OptionSpec kOptions[] = {
    {"cups_per_side", 4, nullptr, 3, 10, "Cups in each row; each reserve starts with 10 beans per cup"},
    {"first_player", 0, Json::array({0, 1, "random"}), 0, 0, "Who moves first: South (0), North (1) or a random draw"},
    {"illegal_move_policy", "reject", Json::array({"reject", "forfeit"}), 0, 0,
     "An illegal move is refused (reject) or loses the game (forfeit)"},
};

bool has_legal_move(const CupsState& s, Seat p) {
  if (s.reserve[p] > 0) return true;
  const int n = s.cups_per_side;
  for (int i = 1; i <= n; ++i)
    if (s.cups[p][i - 1] == n + 1 - i) return true;
  return false;
}

const char* end_reason_name(CupsEnd end) {
  switch (end) {
    case CupsEnd::no_moves: return "no_moves";
    case CupsEnd::illegal_move: return "illegal_move";
    case CupsEnd::resign: return "resign";
    case CupsEnd::none: break;
  }
  return nullptr;
}

}  // namespace

Cups::Cups(const GameSetup& setup) : options_(std::make_shared<const Json>(setup.options)) {
  s_.cups_per_side = setup.options.at("cups_per_side").get<int>();
  s_.reserve = {static_cast<std::int16_t>(10 * s_.cups_per_side),
                static_cast<std::int16_t>(10 * s_.cups_per_side)};
  s_.to_move = setup.first_player;
  s_.forfeit_policy = setup.options.at("illegal_move_policy") == "forfeit";
}

Cups Cups::from_position(const Json& options, std::span<const int> position, Seat to_move) {
  Cups game(GameSetup{resolve_options(kOptions, options), to_move});
  const int n = game.s_.cups_per_side;
  if (position.size() != static_cast<std::size_t>(2 * (n + 2)))
    throw EngineError(ErrorCode::bad_request, "a Cups position has 2 x (cups + 2) numbers");
  for (Seat p = 0; p < 2; ++p) {
    const auto side = position.subspan(static_cast<std::size_t>(p * (n + 2)));
    for (int i = 0; i < n; ++i) game.s_.cups[p][i] = static_cast<std::int16_t>(side[i]);
    game.s_.pot[p] = static_cast<std::int16_t>(side[n]);
    game.s_.reserve[p] = static_cast<std::int16_t>(side[n + 1]);
  }
  game.begin_turn(nullptr);
  return game;
}

void Cups::legal(DecisionList& out) const {
  out.clear();
  if (s_.end != CupsEnd::none) return;
  const Seat p = s_.to_move;
  const int n = s_.cups_per_side;
  const int most = std::min<int>(n, s_.reserve[p]);
  for (int k = 1; k <= most; ++k) out.push_back(static_cast<Decision>(k));
  for (int i = 1; i <= n; ++i)
    if (s_.cups[p][i - 1] == n + 1 - i) out.push_back(static_cast<Decision>(kCupDecision + i));
}

void Cups::apply(Decision decision, Events* events) {
  const Seat p = s_.to_move;
  const Seat q = 1 - p;
  const int n = s_.cups_per_side;
  auto& row = s_.cups[p];
  ++s_.turns;

  if (decision < kCupDecision) {  // reserve play: one bean into each of cups 1..k (C-4)
    const int k = decision;
    const Landing landing = resolve_lap(n, 0, k, kRight, [&](int c) { return row[c - 1]; });
    const bool landed_empty = landing.end == LapEnd::empty;
    s_.reserve[p] = static_cast<std::int16_t>(s_.reserve[p] - k);
    for (int i = 0; i < k; ++i) ++row[i];
    // No relay in Cups (C-7): only a landing in an empty cup matters, and it captures (X1).
    const std::int16_t captured = landed_empty ? capture_opposite(s_.cups[q], s_.pot[p], n, k)
                                               : std::int16_t{0};
    if (events)
      events->push_back(json_object(
          "event", "turn", "player", p, "turn", s_.turns,
          "move", json_object("source", "reserve", "count", k),
          "trace", json_array(json_object("from", 0, "dir", "R", "count", k, "end", k,
                                          "result", landed_empty ? "empty" : "filled")),
          "capture", captured > 0 ? json_object("cup", opposite(n, k), "items", captured) : Json()));
  } else {  // board play: the exact count reaches the pot, one bean in it (C-5)
    const int i = decision - kCupDecision;
    row[i - 1] = 0;
    for (int c = i; c < n; ++c) ++row[c];
    ++s_.pot[p];
    if (events)
      events->push_back(json_object(
          "event", "turn", "player", p, "turn", s_.turns,
          "move", json_object("source", "cup", "cup", i),
          "trace", json_array(json_object("from", i, "dir", "R", "count", n + 1 - i, "end", "pot",
                                          "result", "pot")),
          "capture", nullptr));
  }

  s_.to_move = q;
  begin_turn(events);
}

// C-8: a player with no legal move passes; when neither player can move, the game is over.
void Cups::begin_turn(Events* events) {
  const Seat p = s_.to_move;
  if (has_legal_move(s_, p)) return;
  if (!has_legal_move(s_, 1 - p)) {
    finish(CupsEnd::no_moves, kNoSeat, events);
    return;
  }
  ++s_.passes;
  if (events) events->push_back(Json{{"event", "pass"}, {"player", p}});
  s_.to_move = 1 - p;
}

void Cups::finish(CupsEnd end, Seat offender, Events* events) {
  s_.end = end;
  s_.offender = offender;
  if (events) events->push_back(Json{{"event", "game_end"}, {"result", result()}});
}

void Cups::resign(Seat seat, Events* events) { finish(CupsEnd::resign, seat, events); }
void Cups::forfeit(Seat seat, Events* events) { finish(CupsEnd::illegal_move, seat, events); }

std::string Cups::token(Decision decision) const { return source_token(decision); }

std::optional<Decision> Cups::parse_token(std::string_view token) const {
  return parse_source_token(token, s_.cups_per_side, 999);
}

std::vector<int> Cups::position() const {
  std::vector<int> out;
  const int n = s_.cups_per_side;
  out.reserve(static_cast<std::size_t>(2 * (n + 2)));
  for (Seat p = 0; p < 2; ++p) {
    for (int i = 0; i < n; ++i) out.push_back(s_.cups[p][i]);
    out.push_back(s_.pot[p]);
    out.push_back(s_.reserve[p]);
  }
  return out;
}

void Cups::write_board(JsonWriter& out) const {
  out.begin_object().key("cups").begin_array();
  for (Seat p = 0; p < 2; ++p)
    out.array(std::span(s_.cups[p].data(), static_cast<std::size_t>(s_.cups_per_side)));
  out.end_array().key("pots").array(s_.pot).key("reserves").array(s_.reserve).end_object();
}

void Cups::write_scores(JsonWriter& out) const { out.array(s_.pot); }

Json Cups::result() const {
  if (s_.end == CupsEnd::none) return nullptr;
  Json winner;
  if (s_.offender != kNoSeat) winner = 1 - s_.offender;
  else if (s_.pot[0] != s_.pot[1]) winner = s_.pot[0] > s_.pot[1] ? 0 : 1;
  const Json cups = board()["cups"];
  return Json{{"game", "cups"},
              {"options", *options_},
              {"end_reason", end_reason_name(s_.end)},
              {"offender", s_.offender == kNoSeat ? Json() : Json(s_.offender)},
              {"pots", {s_.pot[0], s_.pot[1]}},
              {"reserves", {s_.reserve[0], s_.reserve[1]}},
              {"board_left", cups},
              {"winner", winner},
              {"turns", s_.turns},
              {"passes", s_.passes}};
}

void Cups::outcome(std::span<double> out) const {
  Seat winner = kNoSeat;
  if (s_.offender != kNoSeat) winner = 1 - s_.offender;
  else if (s_.pot[0] != s_.pot[1]) winner = s_.pot[0] > s_.pot[1] ? 0 : 1;
  two_seat_outcome(winner, out);
}

void Cups::material(std::span<int> out) const {
  out[0] = s_.pot[0];
  out[1] = s_.pot[1];
}

// Only the pots count, and they fill late, so a search that stops early needs more than the pot:
// each seat's final pot, estimated from where the beans lie now. The weights are a least-squares
// fit to the final pots of 8,000 games of 4 cups played as the search's playouts play (printed
// by `scripts/fit_worth.py cups`, which says how). Next to a bean in reserve (a third of a
// bean), a bean in an own cup near the pot is worth less (it waits for the exact count, blocks
// the cup and ends up captured) unless the cup holds exactly its distance and can be played now.
namespace {
struct CupWorth { double bean, exact, over; };  // each bean up to the distance; exact; beyond
double cup_worth(const CupWorth& worth, int beans, int distance) {
  return worth.bean * std::min(beans, distance) + (beans == distance ? worth.exact : 0.0) +
         worth.over * std::max(beans - distance, 0);
}
// Indexed by the cup's distance to its pot, 1..4; farther cups (5-10 cups a side) take the last.
constexpr std::array<CupWorth, 4> kOwnCup{{{-2.582, 2.867, 0.147}, {-0.876, 1.395, -0.064},
                                           {-0.380, 0.792, -0.113}, {-0.144, 0.462, -0.134}}};
constexpr std::array<CupWorth, 4> kTheirCup{{{0.147, -0.253, 0.138}, {0.267, -0.009, 0.157},
                                             {0.226, -0.011, 0.105}, {0.309, -0.002, 0.038}}};
constexpr double kPot = 1.048, kTheirPot = 0.028, kReserve = 0.338, kTheirReserve = 0.126,
                 kToMove = -0.252;
}  // namespace

void Cups::expected_material(std::span<double> out) const {
  const int n = s_.cups_per_side;
  for (Seat p = 0; p < 2; ++p) {
    const auto mine = static_cast<std::size_t>(p), theirs = static_cast<std::size_t>(1 - p);
    double worth = kPot * s_.pot[mine] + kTheirPot * s_.pot[theirs] + kReserve * s_.reserve[mine] +
                   kTheirReserve * s_.reserve[theirs] + (s_.to_move == p ? kToMove : 0.0);
    for (int i = 1; i <= n; ++i) {
      const int distance = n + 1 - i;
      const auto row = static_cast<std::size_t>(std::min(distance, 4) - 1);
      worth += cup_worth(kOwnCup[row], s_.cups[mine][static_cast<std::size_t>(i - 1)], distance);
      worth += cup_worth(kTheirCup[row], s_.cups[theirs][static_cast<std::size_t>(i - 1)], distance);
    }
    out[mine] = worth;
  }
}

const GameType& cups_type() {
  static const GameType type{"cups", "Cups", 2, 2, kOptions, two_players,
                             [](const GameSetup& setup) -> std::unique_ptr<Game> {
                               return std::make_unique<Cups>(setup);
                             }};
  return type;
}

}  // namespace mancala
