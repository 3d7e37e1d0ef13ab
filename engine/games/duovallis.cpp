#include "games/duovallis.hpp"

#include <charconv>

namespace mancala {
namespace {

using Board = DuovallisState::Board;
constexpr int kHoles = DuovallisState::kHoles;
constexpr int kCircuitLength = 14;

const OptionSpec kOptions[] = {
    {"stall_limit", 200, nullptr, 50, 2000, "Plies without a capture before the game is drawn"},
    {"illegal_move_policy", "reject", Json::array({"reject", "forfeit"}), 0, 0,
     "An illegal move is refused (reject) or loses the game (forfeit)"},
};

// ---- The layout (§4.1-§4.2, decision VD-LAYOUT) ---------------------------------------------
// Three tables; the layout was reconstructed from the text, so changing it must touch only these.
// Holes are numbered 6 * row + column, row 0 at the South edge, column 0 at the west.

// Who owns each hole, and in which of the owner's rows it lies.
constexpr HoleRole WB = HoleRole::white_back, WF = HoleRole::white_front;
constexpr HoleRole BB = HoleRole::black_back, BF = HoleRole::black_front;
constexpr HoleRole NN = HoleRole::neutral;
constexpr std::array<HoleRole, kHoles> kRole = {
    WB, WB, WB, WB, WB, WB,  // row 0: White's back row
    NN, BF, BF, BF, BF, NN,  // row 1: Black's front row between two neutral holes
    NN, WF, WF, WF, WF, NN,  // row 2: White's front row between two neutral holes
    BB, BB, BB, BB, BB, BB,  // row 3: Black's back row
};

// Each seat's sowing circuit, counterclockwise; it never enters an opponent's hole.
constexpr std::array<std::array<int, kCircuitLength>, 2> kCircuit = {{
    {0, 1, 2, 3, 4, 5, 11, 17, 16, 15, 14, 13, 12, 6},    // White
    {23, 22, 21, 20, 19, 18, 12, 6, 7, 8, 9, 10, 11, 17},  // Black
}};

// The capture target of an own hole: same column, adjacent opponent row; -1 where that is neutral.
constexpr std::array<int, kHoles> kCorresponding = {
    -1, 7,  8,  9,  10, -1,  // White back 1-4 <-> Black front 7-10
    -1, 1,  2,  3,  4,  -1,
    -1, 19, 20, 21, 22, -1,  // White front 13-16 <-> Black back 19-22
    -1, 13, 14, 15, 16, -1,
};
// ----------------------------------------------------------------------------------------------

// The circuits as "next hole" lookups, so sowing is one table read per stone.
constexpr auto kNext = [] {
  std::array<std::array<int, kHoles>, 2> next{};
  for (auto& row : next) row.fill(-1);
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < kCircuitLength; ++i)
      next[p][kCircuit[p][i]] = kCircuit[p][(i + 1) % kCircuitLength];
  return next;
}();

constexpr Seat owner(int hole) {
  switch (kRole[hole]) {
    case HoleRole::white_back:
    case HoleRole::white_front: return 0;
    case HoleRole::black_back:
    case HoleRole::black_front: return 1;
    case HoleRole::neutral: break;
  }
  return kNoSeat;
}

constexpr bool is_back_row(int hole) {
  return kRole[hole] == HoleRole::white_back || kRole[hole] == HoleRole::black_back;
}

int stones_in(const Board& board, int hole) { return board[0][hole] + board[1][hole]; }

void add(std::uint8_t& cell, int stones) { cell = static_cast<std::uint8_t>(cell + stones); }

// VD-PLAYABLE: an own hole with at least two stones, at least half of them the owner's colour.
bool playable(const DuovallisState& s, Seat p, int hole) {
  const int all = stones_in(s.stones, hole);
  return owner(hole) == p && all >= 2 && 2 * s.stones[p][hole] >= all;
}

// Any playable hole at all: the front row is allowed whenever the back row has none.
bool has_legal_move(const DuovallisState& s, Seat p) {
  for (int hole = 0; hole < kHoles; ++hole)
    if (playable(s, p, hole)) return true;
  return false;
}

// Threefold repetition key (clarification 11): board, carries, player to move.
std::uint64_t position_key(const DuovallisState& s) {
  std::uint64_t h = hash_bytes(&s.stones, sizeof s.stones);
  h = hash_bytes(&s.carry, sizeof s.carry, h);
  return hash_bytes(&s.to_move, sizeof s.to_move, h);
}

struct Capture {
  int into = 0, from = 0, own_returned = 0, foreign = 0, exchanged = 0, carry_after = 0;
};

enum class TurnEnd : std::uint8_t {
  capture, empty_own, empty_neutral, foreign_majority, loop_guard,
  needs_guard,  // sowing went on for kLapsBeforeGuard laps without the loop guard (see `apply`)
};

const char* turn_end_name(TurnEnd end) {
  switch (end) {
    case TurnEnd::capture: return "capture";
    case TurnEnd::empty_own: return "empty_own";
    case TurnEnd::empty_neutral: return "empty_neutral";
    case TurnEnd::foreign_majority: return "foreign_majority";
    case TurnEnd::loop_guard: return "loop_guard";
    case TurnEnd::needs_guard: break;
  }
  return nullptr;
}

// A move that has not ended after this many laps is sown again from its start with C5 on.
constexpr int kLapsBeforeGuard = 64;

// §4.6: the mover's stones in the target come home to `into`; the foreign ones join the carry and
// every three of them are exchanged for one new stone of the mover's colour from the supply.
Capture capture(DuovallisState& s, Seat p, int into, int target) {
  const Seat q = 1 - p;
  Capture c;
  c.into = into;
  c.from = target;
  c.own_returned = s.stones[p][target];
  c.foreign = s.stones[q][target];
  s.stones[p][target] = s.stones[q][target] = 0;
  const int pool = s.carry[p] + c.foreign;
  c.exchanged = pool / 3;
  c.carry_after = pool % 3;
  add(s.stones[p][into], c.own_returned + c.exchanged);
  s.carry[p] = static_cast<std::uint8_t>(c.carry_after);
  s.exchanges[p] = static_cast<std::int16_t>(s.exchanges[p] + c.exchanged);
  return c;
}

// §4.5: sows the mover's turn from `origin`, lap after lap, until it ends. Foreign stones go
// first, so the last stone of every lap is the mover's colour (DV-7). Without a `guard` the sowing
// gives up after kLapsBeforeGuard laps. `laps` (when given) receives one record per lap.
TurnEnd sow(DuovallisState& s, int origin, LoopGuard<Board>* guard, Capture& captured, Json* laps) {
  const Seat p = s.to_move;
  const Seat q = 1 - p;
  const auto& next = kNext[p];
  int pos = origin;
  for (int lap = 1;; ++lap) {
    if (!guard && lap > kLapsBeforeGuard) return TurnEnd::needs_guard;
    const int foreign = s.stones[q][pos];
    const int own = s.stones[p][pos];
    s.stones[q][pos] = s.stones[p][pos] = 0;
    Json holes = laps ? Json::array() : Json();
    int hole = pos;  // the origin is not skipped (VD-ORIGIN)
    for (int i = 0; i < foreign + own; ++i) {
      hole = next[hole];
      ++s.stones[i < foreign ? q : p][hole];
      if (laps) holes.push_back(hole);
    }
    if (laps)
      laps->push_back(
          json_object("from", pos, "foreign", foreign, "own", own, "end", hole, "holes", std::move(holes)));

    const int all = stones_in(s.stones, hole);
    if (all == 1) {  // the last stone fell into an empty hole: the turn ends here
      if (owner(hole) != p) return TurnEnd::empty_neutral;  // the circuit has no opponent hole
      const int target = kCorresponding[hole];
      if (target < 0 || stones_in(s.stones, target) == 0) return TurnEnd::empty_own;
      captured = capture(s, p, hole, target);
      return TurnEnd::capture;
    }
    if (2 * s.stones[p][hole] < all) return TurnEnd::foreign_majority;
    if (guard && guard->repeats(s.stones, hole)) return TurnEnd::loop_guard;  // C5
    pos = hole;  // another lap, from a neutral hole too (VD-LAPNEUTRAL)
  }
}

const char* end_reason_name(DuovallisEnd end) {
  switch (end) {
    case DuovallisEnd::no_legal_move: return "no_legal_move";
    case DuovallisEnd::stalled: return "stalled";
    case DuovallisEnd::repetition: return "repetition";
    case DuovallisEnd::resign: return "resign";
    case DuovallisEnd::illegal_move: return "illegal_move";
    case DuovallisEnd::none: break;
  }
  return nullptr;
}

const char* kind_name(int hole) {
  if (owner(hole) == kNoSeat) return "neutral";
  return is_back_row(hole) ? "back" : "front";
}

std::vector<int> colour_row(const Board& board, Seat colour) {
  return std::vector<int>(board[colour].begin(), board[colour].end());
}

int colour_total(const Board& board, Seat colour) {
  int total = 0;
  for (int stones : board[colour]) total += stones;
  return total;
}

// A seat's material (Game::material): stones of its colour, and the carry.
int material_of(const DuovallisState& s, Seat p) {
  return 3 * colour_total(s.stones, p) + s.carry[static_cast<std::size_t>(p)];
}

}  // namespace

HoleRole duovallis_role(int hole) { return kRole[hole]; }
int duovallis_next(Seat seat, int hole) { return kNext[seat][hole]; }
int duovallis_corresponding(int hole) { return kCorresponding[hole]; }

Duovallis::Duovallis(const GameSetup& setup)
    : options_(std::make_shared<const Json>(setup.options)) {
  // DV-5/DV-6: four stones of the owner's colour in every owned hole; White starts (no option).
  for (int hole = 0; hole < kHoles; ++hole)
    if (owner(hole) != kNoSeat) s_.stones[owner(hole)][hole] = 4;
  s_.stall_limit = setup.options.at("stall_limit").get<int>();
  s_.forfeit_policy = setup.options.at("illegal_move_policy") == "forfeit";
  begin_turn(nullptr);
}

Duovallis Duovallis::from_position(const Json& options, std::span<const int> position,
                                   Seat to_move, std::array<int, 2> exchanges) {
  Duovallis game(GameSetup{resolve_options(kOptions, options), 0});
  if (position.size() != 2 * kHoles + 2)
    throw EngineError(ErrorCode::bad_request,
                      "a Duovallis position has 50 numbers: white stones in holes 0..23, black "
                      "stones in holes 0..23, carry of seat 0, carry of seat 1");
  if (to_move != 0 && to_move != 1)
    throw EngineError(ErrorCode::bad_request, "the player to move is seat 0 or 1");
  DuovallisState& s = game.s_;
  for (int i = 0; i < 2 * kHoles; ++i) {
    const int stones = position[static_cast<std::size_t>(i)];
    if (stones < 0 || stones > DuovallisState::kTotalStones)
      throw EngineError(ErrorCode::bad_request, "hole " + std::to_string(i % kHoles) +
                                                    " holds " + std::to_string(stones) +
                                                    " stones of one colour; 0..80 are possible");
    s.stones[i / kHoles][i % kHoles] = static_cast<std::uint8_t>(stones);
  }
  for (Seat p = 0; p < 2; ++p) {
    const int carry = position[static_cast<std::size_t>(2 * kHoles + p)];
    if (carry < 0 || carry > 2)
      throw EngineError(ErrorCode::bad_request, "a carry is 0, 1 or 2, got " + std::to_string(carry));
    s.carry[p] = static_cast<std::uint8_t>(carry);
    s.exchanges[p] = static_cast<std::int16_t>(exchanges[p]);
  }
  s.to_move = to_move;
  game.history_.clear();  // the opening position counted by the constructor never happened
  game.begin_turn(nullptr);
  return game;
}

void Duovallis::legal(DecisionList& out) const {
  out.clear();
  if (s_.end != DuovallisEnd::none) return;
  const Seat p = s_.to_move;
  for (const bool back_row : {true, false}) {  // VD-BACKFIRST
    for (int hole = 0; hole < kHoles; ++hole)
      if (is_back_row(hole) == back_row && playable(s_, p, hole))
        out.push_back(static_cast<Decision>(hole));
    if (!out.empty()) return;
  }
}

void Duovallis::apply(Decision decision, Events* events) {
  const Seat p = s_.to_move;
  const int origin = decision;
  // C5 needs the board at every pickup of the turn, and remembering boards costs heap memory on
  // every move. No Duovallis move has come near kLapsBeforeGuard laps, so a move is sown without
  // the guard first; one that runs that long is sown again from its start with the guard on.
  // Sowing is deterministic, so the outcome is exactly C5's.
  const DuovallisState before = s_;
  Json laps = events ? Json::array() : Json();
  Capture captured;
  TurnEnd end = sow(s_, origin, nullptr, captured, events ? &laps : nullptr);
  if (end == TurnEnd::needs_guard) {
    s_ = before;
    if (events) laps = Json::array();
    LoopGuard<Board> guard;
    end = sow(s_, origin, &guard, captured, events ? &laps : nullptr);
  }

  ++s_.plies;
  s_.since_capture = end == TurnEnd::capture ? 0 : s_.since_capture + 1;
  if (events) {
    Json capture_record;
    if (end == TurnEnd::capture)
      capture_record = json_object("into", captured.into,
                                   "from", captured.from,
                                   "own_returned", captured.own_returned,
                                   "foreign", captured.foreign,
                                   "exchanged", captured.exchanged,
                                   "carry_after", captured.carry_after);
    events->push_back(json_object("event", "turn",
                                  "game", "duovallis",
                                  "ply", s_.plies,
                                  "player", p,
                                  "move", json_object("pit", origin),
                                  "laps", std::move(laps),
                                  "end", turn_end_name(end),
                                  "capture", std::move(capture_record)));
  }
  s_.to_move = 1 - p;
  begin_turn(events);
}

// DV-9/DV-10 and clarification 12: the player to move without a legal move loses; only then the
// draws, threefold repetition (every turn's opening position counts) and the stall limit.
void Duovallis::begin_turn(Events* events) {
  const Seat p = s_.to_move;
  if (!has_legal_move(s_, p)) return finish(DuovallisEnd::no_legal_move, p, events);
  if (history_.count(position_key(s_)) >= 3) return finish(DuovallisEnd::repetition, kNoSeat, events);
  if (s_.since_capture >= s_.stall_limit) return finish(DuovallisEnd::stalled, kNoSeat, events);
}

void Duovallis::finish(DuovallisEnd end, Seat loser, Events* events) {
  s_.end = end;
  s_.loser = loser;
  if (events) events->push_back(Json{{"event", "game_end"}, {"result", result()}});
}

void Duovallis::resign(Seat seat, Events* events) { finish(DuovallisEnd::resign, seat, events); }
void Duovallis::forfeit(Seat seat, Events* events) {
  finish(DuovallisEnd::illegal_move, seat, events);
}

std::string Duovallis::token(Decision decision) const { return std::to_string(decision); }

// Hole numbers 0..23 in plain decimal: no sign, no leading zero.
std::optional<Decision> Duovallis::parse_token(std::string_view token) const {
  if (token.empty() || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  int hole = -1;
  const char* last = token.data() + token.size();
  const auto [end, error] = std::from_chars(token.data(), last, hole);
  if (error != std::errc() || end != last || hole < 0 || hole >= kHoles) return std::nullopt;
  return static_cast<Decision>(hole);
}

std::vector<int> Duovallis::position() const {
  std::vector<int> out;
  out.reserve(2 * kHoles + 2);
  for (Seat colour = 0; colour < 2; ++colour)
    out.insert(out.end(), s_.stones[colour].begin(), s_.stones[colour].end());
  out.push_back(s_.carry[0]);
  out.push_back(s_.carry[1]);
  return out;
}

// The stones of each colour by hole; where the holes lie is the layout's.
void Duovallis::write_board(JsonWriter& out) const {
  out.begin_object()
      .key("white")
      .array(s_.stones[0])
      .key("black")
      .array(s_.stones[1])
      .key("carry")
      .array(s_.carry)
      .key("exchanges")
      .array(s_.exchanges)
      .end_object();
}

void Duovallis::write_layout(JsonWriter& out) const {
  out.begin_object().field("rows", kHoles / 6).field("columns", 6).key("holes").begin_array();
  for (int hole = 0; hole < kHoles; ++hole) {
    const Seat who = owner(hole);
    out.begin_object().field("hole", hole).field("row", hole / 6).field("col", hole % 6).key("owner");
    who == kNoSeat ? out.value("neutral") : out.value(who);
    out.field("kind", kind_name(hole)).end_object();
  }
  out.end_array().key("circuits").begin_array().array(kCircuit[0]).array(kCircuit[1]).end_array().end_object();
}

void Duovallis::write_scores(JsonWriter& out) const {
  out.begin_object()
      .key("stones_on_board")
      .begin_object()
      .field("white", colour_total(s_.stones, 0))
      .field("black", colour_total(s_.stones, 1))
      .end_object()
      .key("carry")
      .array(s_.carry)
      .key("exchanges")
      .array(s_.exchanges)
      .end_object();
}

Json Duovallis::result() const {
  if (s_.end == DuovallisEnd::none) return nullptr;
  const bool draw = s_.loser == kNoSeat;
  return Json{{"game", "duovallis"},
              {"options", *options_},
              {"winner", draw ? Json() : Json(1 - s_.loser)},
              {"loser", draw ? Json() : Json(s_.loser)},
              {"end_reason", end_reason_name(s_.end)},
              {"plies", s_.plies},
              {"carry", {s_.carry[0], s_.carry[1]}},
              {"exchanges", {s_.exchanges[0], s_.exchanges[1]}},
              {"stones_on_board",
               {{"white", colour_total(s_.stones, 0)}, {"black", colour_total(s_.stones, 1)}}},
              {"final_board", {{"w", colour_row(s_.stones, 0)}, {"b", colour_row(s_.stones, 1)}}}};
}

void Duovallis::outcome(std::span<double> out) const {
  two_seat_outcome(s_.loser == kNoSeat ? kNoSeat : 1 - s_.loser, out);
}

// Stones of one's colour on the board, and the carry that the next exchange turns into more.
void Duovallis::material(std::span<int> out) const {
  for (Seat p = 0; p < 2; ++p) out[static_cast<std::size_t>(p)] = material_of(s_, p);
}

// The material, plus what the material does not see: a player without a playable hole loses, so
// playable holes count (back-row ones more: the front row may be played only when the back row
// cannot), as do one's stones in the neutral holes, which sow on into one's own; and the move.
// In material's units, fitted (least squares) to the outcomes of 6,000 games played as the
// search's playouts play (printed by `scripts/fit_worth.py duovallis`, which says how).
namespace {
constexpr double kToMove = 3.68, kNeutralStone = 0.95, kPlayableBack = 3.14, kPlayableFront = 1.04;
}  // namespace

void Duovallis::expected_material(std::span<double> out) const {
  for (Seat p = 0; p < 2; ++p) {
    double worth = material_of(s_, p);
    for (int hole = 0; hole < kHoles; ++hole) {
      if (owner(hole) == kNoSeat) worth += kNeutralStone * s_.stones[p][hole];
      else if (playable(s_, p, hole)) worth += is_back_row(hole) ? kPlayableBack : kPlayableFront;
    }
    if (s_.to_move == p) worth += kToMove;
    out[static_cast<std::size_t>(p)] = worth;
  }
}

const GameType& duovallis_type() {
  static const GameType type{"duovallis", "Duovallis", 2, 2, kOptions, two_players,
                             [](const GameSetup& setup) -> std::unique_ptr<Game> {
                               return std::make_unique<Duovallis>(setup);
                             }};
  return type;
}

}  // namespace mancala
