#include "games/njaka.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace mancala {
namespace {

using Status = NjakaSeatStatus;

const OptionSpec kOptions[] = {
    {"players", 2, nullptr, 2, 4, "Seats at the table: 2, 3 or 4"},
    {"advanced", false, Json::array({false, true}), 0, 0,
     "Two players only: alternating holes, and a last-counter four conquers the hole",
     {{"players", 2}}},
    {"direction", "ccw", Json::array({"ccw", "cw"}), 0, 0,
     "Sowing direction, which is also the turn order: counterclockwise or clockwise"},
    {"target", 2, nullptr, 2, 5,
     "A seat wins when its sets exceed everyone else's together by this many"},
    {"first_player", "random", Json::array({"random", 0, 1, 2, 3}), 0, 0,
     "Who starts round 1: a random draw or a seat number"},
    {"plex_mode", "race", Json::array({"race", "mover"}), 0, 0,
     "The last set goes to the first to shout Plex! (race) or straight to the mover"},
    {"plex_window_ms", 5000, nullptr, 1000, 30000,
     "How long the Plex! window stays open before the mover takes the last set"},
    {"stall_limit", 300, nullptr, 50, 2000, "Turns without a capture that end a round as stalled"},
    {"max_rounds", 0, nullptr, 0, 100, "Rounds before the most sets win (0 = unlimited)"},
    {"illegal_move_policy", "reject", Json::array({"reject", "forfeit"}), 0, 0,
     "An illegal move is refused (reject) or counts as resigning (forfeit)"},
};

// NJ-2: who owns which hole in round 1.
constexpr NjakaBoard kOpeningOwners[] = {
    {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},  // 2 players
    {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},  // 3 players
    {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3},  // 4 players
    {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},  // 2 players, advanced
};

// The hole after each hole, counterclockwise (row 0) and clockwise (row 1).
constexpr std::array<NjakaBoard, 2> kNext = {{
    {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0},
    {11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
}};

// Pickups a turn may make before it is sown again with the loop guard (C5). Almost every turn
// ends long before; replaying the rare long one with the guard gives exactly the guard's
// outcome, because a turn that ends without a repeated (board, pickup) pair never had one.
constexpr int kUnguardedPickups = 64;

const NjakaBoard& opening_owners(int players, bool advanced) {
  return advanced ? kOpeningOwners[3] : kOpeningOwners[players - 2];
}

bool in_match(const NjakaState& s, Seat q) { return s.status[q] == Status::active; }

int seats_in_match(const NjakaState& s) {
  int count = 0;
  for (Seat q = 0; q < s.players; ++q) count += in_match(s, q);
  return count;
}

// NJ-5: the seat after p in turn order (the sowing direction), skipping eliminated seats.
// Resigned seats keep their turns until the round ends: they pass.
Seat next_seat(const NjakaState& s, Seat p) {
  const int step = s.clockwise ? s.players - 1 : 1;
  Seat q = p;
  do q = (q + step) % s.players;
  while (s.status[q] == Status::eliminated && q != p);
  return q;
}

// The seat after p in turn order among the seats still in the match.
Seat next_in_match(const NjakaState& s, Seat p) {
  Seat q = p;
  do q = next_seat(s, q);
  while (!in_match(s, q) && q != p);
  return q;
}

bool has_move(const NjakaState& s, Seat p) {
  for (int h = 0; h < kNjakaHoles; ++h)
    if (s.owner[h] == p && s.board[h] > 0) return true;
  return false;
}

// SplitMix64's finaliser: every input bit moves every output bit.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Clarification 11: board, ownership, sets and the player to move decide the future. The 29
// bytes are hashed a word at a time (this runs at the start of every turn).
std::uint64_t position_key(const NjakaState& s) {
  struct Key {
    NjakaBoard board;
    NjakaBoard owner;
    NjakaSeats sets;
    std::int8_t to_move;
    std::array<std::int8_t, 3> padding;
  } key{s.board, s.owner, s.sets, static_cast<std::int8_t>(s.to_move), {}};
  std::array<std::uint64_t, 4> words;
  static_assert(sizeof key == sizeof words);
  std::memcpy(words.data(), &key, sizeof key);
  std::uint64_t h = 0;
  for (std::uint64_t word : words) h = mix(h ^ word);
  return h;
}

// NJ-15: one hole per set. Basic game: contiguous blocks from hole 0 in seat order. Advanced:
// alternating holes while both have sets left, the rest to the seat with more.
NjakaBoard next_layout(const NjakaState& s) {
  NjakaBoard owners{};
  if (s.advanced) {
    const int m = std::min(s.sets[0], s.sets[1]);
    const auto larger = static_cast<std::int8_t>(s.sets[0] >= s.sets[1] ? 0 : 1);
    for (int h = 0; h < kNjakaHoles; ++h)
      owners[h] = h < 2 * m ? static_cast<std::int8_t>(h % 2) : larger;
    return owners;
  }
  int h = 0;
  for (Seat q = 0; q < s.players; ++q)
    if (in_match(s, q))
      for (int k = 0; k < s.sets[q]; ++k) owners[h++] = static_cast<std::int8_t>(q);
  return owners;
}

const char* round_end_name(NjakaRoundEnd end) {
  switch (end) {
    case NjakaRoundEnd::plex: return "plex";
    case NjakaRoundEnd::stalled: return "stalled";
    case NjakaRoundEnd::resign: return "resign";
    case NjakaRoundEnd::none: break;
  }
  return nullptr;
}

const char* match_end_name(NjakaMatchEnd end) {
  switch (end) {
    case NjakaMatchEnd::target: return "target";
    case NjakaMatchEnd::max_rounds: return "max_rounds";
    case NjakaMatchEnd::last_seat_standing: return "last_seat_standing";
    case NjakaMatchEnd::resign: return "resign";
    case NjakaMatchEnd::illegal_move: return "illegal_move";
    case NjakaMatchEnd::none: break;
  }
  return nullptr;
}

const char* status_name(Status status) {
  switch (status) {
    case Status::active: return "active";
    case Status::resigned: return "resigned";
    case Status::eliminated: return "eliminated";
  }
  return "eliminated";
}

std::span<const std::int8_t> seat_list(int players, const NjakaSeats& values) {
  return {values.data(), static_cast<std::size_t>(players)};
}

// §6.2's round record: its fields, which a round_end event also carries after its name.
void write_round_fields(JsonWriter& out, const NjakaRound& r, int players, int target) {
  out.field("round", r.round).field("starter", r.starter).key("seats_active").begin_array();
  for (Seat q = 0; q < players; ++q)
    if (r.status_at_start[q] == Status::active) out.value(q);
  out.end_array().key("holes").begin_array();
  for (Seat q = 0; q < players; ++q) {
    out.begin_array();
    for (int h = 0; h < kNjakaHoles; ++h)
      if (r.owners_at_start[h] == q) out.value(h);
    out.end_array();
  }
  out.end_array().field("end_reason", round_end_name(r.end)).field("turns", r.turns).key("captures").begin_array();
  for (int i = 0; i < r.capture_count; ++i) {
    const NjakaCapture& c = r.captures[i];
    out.begin_object()
        .field("turn", c.turn)
        .field("hole", c.hole)
        .field("to", c.to)
        .field("kind", c.last ? "last" : "sowing")
        .end_object();
  }
  out.end_array().key("plex");
  if (r.plex_winner != kNoSeat) {
    out.begin_object().field("winner", r.plex_winner).field("fallback", r.plex_fallback);
    if (r.plex_to_mover) out.field("mode", "mover");
    out.end_object();
  } else {
    out.null();
  }
  out.key("stall_award");
  if (r.stall_award)
    out.begin_object()
        .key("by_owner")
        .array(seat_list(players, r.award_by_owner))
        .key("dealt")
        .array(seat_list(players, r.award_dealt))
        .end_object();
  else
    out.null();
  out.key("resigned").begin_array();
  for (Seat q = 0; q < players; ++q)
    if (r.resigned[q])
      out.begin_object().field("seat", q).key("dealt").array(seat_list(players, r.resign_dealt[q])).end_object();
  out.end_array()
      .key("sets")
      .array(seat_list(players, r.sets))
      .field("target", target)
      .key("match_winner")
      .seat_or_null(r.match_winner)
      .key("eliminated")
      .begin_array();
  for (Seat q = 0; q < players; ++q)
    if (r.eliminated[q]) out.value(q);
  out.end_array().key("next_owner");
  if (r.has_next) out.array(r.next_owner);
  else out.null();
}

// ---- sowing (§3.4) ---------------------------------------------------------------------------

enum class TurnEnd : std::uint8_t { empty, capture, loop_guard, plex, too_long };

const char* turn_end_name(TurnEnd end) {
  switch (end) {
    case TurnEnd::empty: return "empty";
    case TurnEnd::capture: return "capture";
    case TurnEnd::loop_guard: return "loop_guard";
    case TurnEnd::plex: return "plex";
    case TurnEnd::too_long: break;
  }
  return nullptr;
}

// Laps, captures and conquest of one turn, gathered only when someone listens for events.
struct TurnLog {
  Json laps = Json::array();
  Json captures = Json::array();
  Json conquest;
};

void take_set(NjakaState& s, int hole, Seat to, bool last, TurnLog* log) {
  ++s.sets[to];
  ++s.total_sets;
  auto& r = s.current;
  r.captures[r.capture_count++] = NjakaCapture{r.turns, static_cast<std::int8_t>(hole),
                                               static_cast<std::int8_t>(to), last};
  if (log)
    log->captures.push_back(json_object("hole", hole, "to", to, "kind", last ? "last" : "sowing"));
}

// Sows hole `hole` for seat p until the turn ends. With a guard, C5 is applied at every pickup;
// without one, the sowing gives up (too_long) after kUnguardedPickups pickups.
TurnEnd sow(NjakaState& s, Seat p, int hole, LoopGuard<NjakaBoard>* guard, TurnLog* log) {
  const NjakaBoard& next = kNext[s.clockwise ? 1 : 0];
  int hand = s.board[hole];
  s.board[hole] = 0;
  int pos = hole;
  for (int pickups = 0;; ++pickups) {
    Json* lap = nullptr;
    if (log) {
      log->laps.push_back(json_object("from", pos, "count", hand, "end", nullptr, "holes", Json::array()));
      lap = &log->laps.back();
    }
    while (hand > 0) {
      pos = next[pos];  // the origin is not skipped (ND-ORIGIN)
      --hand;
      if (lap) (*lap)["holes"].push_back(pos);
      if (++s.board[pos] != 4) continue;
      // A drop made exactly four (NJ-7): the set leaves the board at once, for the hole's
      // owner mid-lap and for the mover with the lap's last counter (NJ-8).
      s.board[pos] = 0;
      const bool last = hand == 0;
      take_set(s, pos, last ? p : s.owner[pos], last, log);
      if (last && s.advanced && s.owner[pos] != p) {  // NJ-9
        if (log) log->conquest = Json{{"hole", pos}, {"from", s.owner[pos]}, {"to", p}};
        s.owner[pos] = static_cast<std::int8_t>(p);
      }
      if (s.total_sets == kNjakaSets - 1 || last) {
        if (lap) (*lap)["end"] = pos;
        if (s.total_sets < kNjakaSets - 1) return TurnEnd::capture;
        s.plex_hand = hand;  // NJ-10: play stops, whatever is left are the last four
        return TurnEnd::plex;
      }
    }
    if (lap) (*lap)["end"] = pos;
    if (s.board[pos] == 1) return TurnEnd::empty;  // the last counter fell into an empty hole
    if (!guard) {
      if (pickups >= kUnguardedPickups) return TurnEnd::too_long;
    } else if (guard->repeats(s.board, pos)) {
      return TurnEnd::loop_guard;
    }
    hand = s.board[pos];  // relay: lift the whole hole, the last counter included
    s.board[pos] = 0;
  }
}

}  // namespace

// ---- setup -----------------------------------------------------------------------------------

Njaka::Njaka(const GameSetup& setup)
    : finished_(std::make_shared<const FinishedRounds>()),
      options_(std::make_shared<const Json>(setup.options)) {
  const Json& o = setup.options;
  s_.players = o.at("players").get<int>();
  s_.advanced = o.at("advanced").get<bool>();
  if (setup.first_player < 0 || setup.first_player >= s_.players)
    throw EngineError(ErrorCode::bad_option, "first player " + std::to_string(setup.first_player) +
                                                 " is not a seat (seats are 0.." +
                                                 std::to_string(s_.players - 1) + ")");
  s_.clockwise = o.at("direction") == "cw";
  s_.target = o.at("target").get<int>();
  s_.plex_to_mover = o.at("plex_mode") == "mover";
  s_.stall_limit = o.at("stall_limit").get<int>();
  s_.max_rounds = o.at("max_rounds").get<int>();
  s_.forfeit_policy = o.at("illegal_move_policy") == "forfeit";
  s_.first_player = setup.first_player;
  start_round(1, setup.first_player, opening_owners(s_.players, s_.advanced), nullptr);
}

Njaka Njaka::from_position(const Json& options, std::span<const int> position, Seat to_move) {
  Njaka game(GameSetup{resolve_options(kOptions, options), 0});
  NjakaState& s = game.s_;
  const auto bad = [](const std::string& why) {
    return EngineError(ErrorCode::bad_request, "not a Njaka position: " + why);
  };
  if (position.size() != static_cast<std::size_t>(2 * kNjakaHoles + s.players))
    throw bad("it has 12 hole counts, 12 owners and one set count per seat");
  int counters = 0;
  for (int h = 0; h < kNjakaHoles; ++h) {
    const int count = position[h];
    const int owner = position[kNjakaHoles + h];
    if (count < 0 || owner < 0 || owner >= s.players) throw bad("hole " + std::to_string(h));
    s.board[h] = static_cast<std::int8_t>(count);
    s.owner[h] = static_cast<std::int8_t>(owner);
    counters += count;
  }
  s.sets.fill(0);
  s.total_sets = 0;
  for (Seat q = 0; q < s.players; ++q) {
    s.sets[q] = static_cast<std::int8_t>(position[2 * kNjakaHoles + q]);
    s.total_sets += s.sets[q];
  }
  if (counters + 4 * s.total_sets != 4 * kNjakaSets || s.total_sets >= kNjakaSets)
    throw bad("the board and 4 x the sets must hold 48 counters, with at most 11 sets out");
  for (Seat q = 0; q < s.players; ++q) {
    const bool owns = std::find(s.owner.begin(), s.owner.end(), q) != s.owner.end();
    if (!owns && s.sets[q] == 0) {
      s.status[q] = Status::eliminated;
      s.left_at[q] = 1;
      s.departures = 1;
    }
  }
  if (to_move < 0 || to_move >= s.players || !in_match(s, to_move))
    throw bad("seat " + std::to_string(to_move) + " cannot be the seat to move");
  s.to_move = to_move;
  s.current.starter = to_move;
  s.current.owners_at_start = s.owner;
  s.current.status_at_start = s.status;
  game.history_.clear();
  if (s.total_sets == kNjakaSets - 1) game.open_plex(nullptr);  // the last four are on the board
  else game.begin_turn(nullptr);
  return game;
}

// NJ-3, NJ-14: every hole holds four, sets start from nothing, ownership as given.
void Njaka::start_round(int round, Seat starter, NjakaBoard owners, Events* events) {
  s_.board.fill(4);
  s_.owner = owners;
  s_.sets.fill(0);
  s_.total_sets = 0;
  s_.plex_hand = 0;
  s_.quiet_turns = 0;
  s_.phase = Phase::play;
  s_.to_move = starter;
  s_.current = NjakaRound{};
  s_.current.round = round;
  s_.current.starter = starter;
  s_.current.status_at_start = s_.status;
  s_.current.owners_at_start = owners;
  history_.clear();
  begin_turn(events);
}

// ---- turns -----------------------------------------------------------------------------------

void Njaka::legal(DecisionList& out) const {
  out.clear();
  if (s_.phase != Phase::play) return;
  for (int h = 0; h < kNjakaHoles; ++h)
    if (s_.owner[h] == s_.to_move && s_.board[h] > 0) out.push_back(static_cast<Decision>(h));
}

void Njaka::apply(Decision decision, Events* events) {
  const Seat p = s_.to_move;
  const int hole = decision;
  ++s_.current.turns;
  const int sets_before = s_.total_sets;
  TurnEnd end;
  if (events) {
    TurnLog log;
    LoopGuard<NjakaBoard> guard;
    end = sow(s_, p, hole, &guard, &log);
    events->push_back(json_object("event", "turn",
                                  "game", "njaka",
                                  "round", s_.current.round,
                                  "turn", s_.current.turns,
                                  "player", p,
                                  "move", json_object("pit", hole),
                                  "laps", std::move(log.laps),
                                  "end", turn_end_name(end),
                                  "captures", std::move(log.captures),
                                  "conquest", std::move(log.conquest)));
  } else {
    const NjakaState before = s_;
    end = sow(s_, p, hole, nullptr, nullptr);
    if (end == TurnEnd::too_long) {
      s_ = before;
      LoopGuard<NjakaBoard> guard;
      end = sow(s_, p, hole, &guard, nullptr);
    }
  }
  if (end == TurnEnd::plex) {
    open_plex(events);
    return;
  }
  if (s_.total_sets > sets_before) {
    s_.quiet_turns = 0;
    // The sets are part of every position, so no position before a capture can recur after it:
    // the repetition count only needs the positions since the last capture.
    history_.clear();
  } else {
    ++s_.quiet_turns;
  }
  s_.to_move = next_seat(s_, p);
  begin_turn(events);
}

// §3.4 begin_turn with C6 first: a stalled round ends; a seat that cannot move (or has
// resigned) passes, which is a turn of its own.
void Njaka::begin_turn(Events* events) {
  while (s_.phase == Phase::play) {
    const Seat p = s_.to_move;
    if (history_.count(position_key(s_)) >= 3 || s_.quiet_turns >= s_.stall_limit) {
      award_stalled_round(events);
      return;
    }
    if (in_match(s_, p) && has_move(s_, p)) return;
    pass_turn(events);
  }
}

void Njaka::pass_turn(Events* events) {
  ++s_.current.turns;
  ++s_.quiet_turns;
  if (events) events->push_back(Json{{"event", "pass"}, {"player", s_.to_move}});
  s_.to_move = next_seat(s_, s_.to_move);
}

// ---- the Plex! moment (§3.5) -------------------------------------------------------------------

void Njaka::open_plex(Events* events) {
  if (s_.plex_to_mover) {
    award_plex(s_.to_move, false, events);
    return;
  }
  s_.phase = Phase::claim;
  if (events) events->push_back(Json{{"event", "plex_open"}, {"mover", s_.to_move}});
}

// The Plex! race as a claim window: every seat still in the match may shout; unclaimed, the
// last set goes to the mover (NJ-10).
std::optional<ClaimWindow> Njaka::claim_window() const {
  if (s_.phase != Phase::claim) return std::nullopt;
  std::uint8_t eligible = 0;
  for (Seat q = 0; q < s_.players; ++q)
    if (in_match(s_, q)) eligible |= static_cast<std::uint8_t>(1U << q);
  return ClaimWindow{kClaimWindows[0], "plex_timeout", "plex_result", options_->value("plex_window_ms", 5000), s_.to_move,
                     eligible};
}

void Njaka::resolve_claim(std::optional<Seat> claimant, Events* events) {
  if (s_.phase != Phase::claim)
    throw EngineError(ErrorCode::no_claim_window, "no Plex! window is open");
  if (claimant && (*claimant < 0 || *claimant >= s_.players || !in_match(s_, *claimant)))
    throw EngineError(ErrorCode::not_allowed,
                      "seat " + std::to_string(*claimant) +
                          " is not in the match (any more) and may not claim Plex!");
  award_plex(claimant.value_or(s_.to_move), !claimant, events);
}

// The last four counters, wherever they are, become the twelfth set.
void Njaka::award_plex(Seat winner, bool fallback, Events* events) {
  s_.board.fill(0);
  s_.plex_hand = 0;
  ++s_.sets[winner];
  ++s_.total_sets;
  auto& r = s_.current;
  r.plex_winner = winner;
  r.plex_fallback = fallback;
  r.plex_to_mover = s_.plex_to_mover;
  if (events) {
    // With plex_mode "mover" there is no window, so the award is not a `plex_result` (a game
    // record replays those as claims); it is `plex_auto`.
    if (s_.plex_to_mover)
      events->push_back(Json{{"event", "plex_auto"}, {"winner", winner}});
    else
      events->push_back(
          Json{{"event", "plex_result"}, {"winner", winner}, {"fallback", fallback}});
  }
  end_round(NjakaRoundEnd::plex, events);
}

// ---- ends of rounds and of the match (§3.6, §3.7, §5.5) ------------------------------------

// §3.7: counters go to their hole's owner in whole sets; the leftovers, which make whole sets
// together, are dealt one set at a time in turn order from the seat to move.
void Njaka::award_stalled_round(Events* events) {
  auto& r = s_.current;
  r.stall_award = true;
  int leftover = 0;
  for (Seat q = 0; q < s_.players; ++q) {
    if (s_.status[q] == Status::eliminated) continue;
    int counters = 0;
    for (int h = 0; h < kNjakaHoles; ++h)
      if (s_.owner[h] == q) counters += s_.board[h];
    r.award_by_owner[q] = static_cast<std::int8_t>(counters / 4);
    leftover += counters % 4;
  }
  Seat q = s_.to_move;
  for (int k = 0; k < leftover / 4; ++k, q = next_seat(s_, q)) ++r.award_dealt[q];
  for (Seat seat = 0; seat < s_.players; ++seat)
    s_.sets[seat] =
        static_cast<std::int8_t>(s_.sets[seat] + r.award_by_owner[seat] + r.award_dealt[seat]);
  s_.board.fill(0);
  s_.total_sets = kNjakaSets;
  end_round(NjakaRoundEnd::stalled, events);
}

void Njaka::end_round(NjakaRoundEnd reason, Events* events) {
  auto& r = s_.current;
  r.end = reason;
  // Clarification 15: the sets of seats that resigned this round go, one at a time, to the
  // seats still in the match in turn order after the resigner; then the resigner is out.
  for (Seat quitter = 0; quitter < s_.players; ++quitter) {
    if (s_.status[quitter] != Status::resigned) continue;
    r.resigned[quitter] = true;
    for (Seat to = quitter; s_.sets[quitter] > 0; --s_.sets[quitter]) {
      to = next_in_match(s_, to);
      ++s_.sets[to];
      ++r.resign_dealt[quitter][to];
    }
    s_.status[quitter] = Status::eliminated;
    r.eliminated[quitter] = true;
  }
  r.sets = s_.sets;

  // NJ-13: 2·sets ≥ 12 + T; at most one seat can reach it.
  for (Seat q = 0; q < s_.players; ++q)
    if (in_match(s_, q) && 2 * s_.sets[q] >= kNjakaSets + s_.target) {
      r.match_winner = q;
      archive_round(events);
      finish(NjakaMatchEnd::target, q, events);
      return;
    }

  // NJ-16, clarification 12: after the last allowed round the most sets win; equal leaders
  // share the win (no single winner).
  if (s_.max_rounds > 0 && r.round >= s_.max_rounds) {
    int best = -1;
    Seat leader = kNoSeat;
    for (Seat q = 0; q < s_.players; ++q) {
      if (!in_match(s_, q)) continue;
      if (s_.sets[q] > best) {
        best = s_.sets[q];
        leader = q;
      } else if (s_.sets[q] == best) {
        leader = kNoSeat;
      }
    }
    r.match_winner = leader;
    archive_round(events);
    finish(NjakaMatchEnd::max_rounds, leader, events);
    return;
  }

  // NJ-14: a seat without sets is out; those leaving together share a place in the ranking.
  bool anyone_out = false;
  for (Seat q = 0; q < s_.players; ++q)
    if (in_match(s_, q) && s_.sets[q] == 0) {
      s_.status[q] = Status::eliminated;
      s_.left_at[q] = s_.departures + 1;
      r.eliminated[q] = true;
      anyone_out = true;
    }
  s_.departures += anyone_out;

  // At least two seats still hold sets here: a seat holding all twelve would have reached the
  // target.
  r.has_next = true;
  r.next_owner = next_layout(s_);
  archive_round(events);
  // NJ-6: the next active seat after this round's starter begins the next round.
  start_round(r.round + 1, next_seat(s_, r.starter), r.next_owner, events);
}

void Njaka::archive_round(Events* events) {
  auto finished = std::make_shared<FinishedRounds>(*finished_);
  finished->rounds.push_back(s_.current);
  finished->text = json_text([&](JsonWriter& out) {
    out.begin_array();
    for (const NjakaRound& r : finished->rounds) {
      out.begin_object();
      write_round_fields(out, r, s_.players, s_.target);
      out.end_object();
    }
    out.end_array();
  });
  finished_ = std::move(finished);
  if (events) {
    events->push_back(json_tree([&](JsonWriter& out) {
      out.begin_object().field("event", "round_end");
      write_round_fields(out, s_.current, s_.players, s_.target);
      out.end_object();
    }));
  }
}

void Njaka::finish(NjakaMatchEnd end, Seat winner, Events* events) {
  s_.end = end;
  s_.winner = winner;
  s_.phase = Phase::over;
  if (events) events->push_back(Json{{"event", "game_end"}, {"result", result()}});
}

// §5.5 and clarification 15. Two players: the match is lost at once. Three or four: the seat
// becomes an automatic passer until the round ends, unless only one seat is left in the match.
void Njaka::leave(Seat seat, NjakaMatchEnd two_player_reason, Events* events) {
  if (!in_match(s_, seat))
    throw EngineError(ErrorCode::not_allowed,
                      "seat " + std::to_string(seat) + " has already left the match");
  s_.status[seat] = Status::resigned;
  s_.left_at[seat] = ++s_.departures;
  if (s_.players == 2 || seats_in_match(s_) == 1) {
    const Seat last = next_in_match(s_, seat);
    auto& r = s_.current;
    r.end = NjakaRoundEnd::resign;
    r.resigned[seat] = true;
    r.sets = s_.sets;
    r.match_winner = last;
    s_.offender = seat;
    archive_round(events);
    finish(s_.players == 2 ? two_player_reason : NjakaMatchEnd::last_seat_standing, last, events);
    return;
  }
  if (s_.phase == Phase::play && s_.to_move == seat) {  // passes at once
    pass_turn(events);
    begin_turn(events);
  }
}

void Njaka::resign(Seat seat, Events* events) { leave(seat, NjakaMatchEnd::resign, events); }
void Njaka::forfeit(Seat seat, Events* events) { leave(seat, NjakaMatchEnd::illegal_move, events); }

// ---- tokens and views ------------------------------------------------------------------------

std::string Njaka::token(Decision decision) const { return std::to_string(decision); }

std::optional<Decision> Njaka::parse_token(std::string_view token) const {
  if (token.empty() || token.size() > 2 || (token.size() == 2 && token[0] == '0'))
    return std::nullopt;
  int hole = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), hole);
  if (error != std::errc() || end != token.data() + token.size() || hole < 0 ||
      hole >= kNjakaHoles)
    return std::nullopt;
  return static_cast<Decision>(hole);
}

// Clarification 2: during phase plex the last four counters, on the board or in hand, belong
// to no element of the vector (the readable board still shows where they lie).
std::vector<int> Njaka::position() const {
  std::vector<int> out(s_.board.begin(), s_.board.end());
  if (s_.phase == Phase::claim) std::fill(out.begin(), out.end(), 0);
  out.insert(out.end(), s_.owner.begin(), s_.owner.end());
  out.insert(out.end(), s_.sets.begin(), s_.sets.begin() + s_.players);
  return out;
}

void Njaka::write_board(JsonWriter& out) const {
  out.begin_object()
      .key("holes")
      .array(s_.board)
      .key("owners")
      .array(s_.owner)
      .key("sets")
      .array(seat_list(s_.players, s_.sets))
      .key("seats")
      .begin_array();
  for (Seat q = 0; q < s_.players; ++q) out.value(status_name(s_.status[q]));
  out.end_array().field("direction", s_.clockwise ? "cw" : "ccw").field("advanced", s_.advanced).key("plex");
  if (s_.phase == Phase::claim) {
    int on_board = 0;
    for (auto count : s_.board) on_board += count;
    out.begin_object().field("mover", s_.to_move).field("on_board", on_board).field("in_hand", s_.plex_hand).end_object();
  } else {
    out.null();
  }
  out.end_object();
}

void Njaka::write_scores(JsonWriter& out) const { out.array(seat_list(s_.players, s_.sets)); }

void Njaka::write_rounds(JsonWriter& out) const { out.raw(finished_->text); }

// Best first, ties sharing a group: the winner, the seats still in play by sets, then the seats
// that left the match, the latest first (NJ-14, clarification 15).
Json Njaka::result() const {
  if (s_.phase != Phase::over) return nullptr;
  std::vector<Seat> staying;
  std::vector<Seat> gone;
  for (Seat q = 0; q < s_.players; ++q) {
    if (q == s_.winner) continue;
    (s_.left_at[q] == 0 ? staying : gone).push_back(q);
  }
  std::stable_sort(staying.begin(), staying.end(),
                   [&](Seat a, Seat b) { return s_.sets[a] > s_.sets[b]; });
  std::stable_sort(gone.begin(), gone.end(),
                   [&](Seat a, Seat b) { return s_.left_at[a] > s_.left_at[b]; });
  Json ranking = Json::array();
  if (s_.winner != kNoSeat) ranking.push_back(Json::array({s_.winner}));
  const auto add_groups = [&](const std::vector<Seat>& seats, auto same) {
    for (std::size_t i = 0; i < seats.size(); ++i) {
      if (i == 0 || !same(seats[i - 1], seats[i])) ranking.push_back(Json::array());
      ranking.back().push_back(seats[i]);
    }
  };
  add_groups(staying, [&](Seat a, Seat b) { return s_.sets[a] == s_.sets[b]; });
  add_groups(gone, [&](Seat a, Seat b) { return s_.left_at[a] == s_.left_at[b]; });

  const bool drawn = (*options_)["first_player"] == "random";
  return Json{{"game", "njaka"},
              {"options", *options_},
              {"first_player_drawn", drawn ? Json(s_.first_player) : Json()},
              {"rounds", rounds()},
              {"winner", s_.winner == kNoSeat ? Json() : Json(s_.winner)},
              {"ranking", ranking},
              {"end_reason", match_end_name(s_.end)},
              {"offender", s_.offender == kNoSeat ? Json() : Json(s_.offender)}};
}

// The ranking of result() as one comparable key per seat (smaller is better): the winner, then
// the seats still in play by sets, then the seats that left, the latest first.
void Njaka::outcome(std::span<double> out) const {
  std::array<std::pair<int, int>, kNjakaMaxSeats> key{};
  for (Seat q = 0; q < s_.players; ++q) {
    if (q == s_.winner) key[static_cast<std::size_t>(q)] = {0, 0};
    else if (s_.left_at[static_cast<std::size_t>(q)] == 0) key[static_cast<std::size_t>(q)] = {1, -s_.sets[q]};
    else key[static_cast<std::size_t>(q)] = {2, -s_.left_at[static_cast<std::size_t>(q)]};
  }
  for (Seat p = 0; p < s_.players; ++p) {
    double ahead = 0;
    for (Seat q = 0; q < s_.players; ++q) {
      if (q == p) continue;
      const auto& mine = key[static_cast<std::size_t>(p)];
      const auto& theirs = key[static_cast<std::size_t>(q)];
      ahead += mine < theirs ? 1.0 : mine == theirs ? 0.5 : 0.0;
    }
    out[static_cast<std::size_t>(p)] = ahead / (s_.players - 1);
  }
}

// Sets first; then the counters in a seat's own holes, its likely next sets, which also carry
// the last round's sets into this one (a hole per set). A seat that left the match has nothing.
void Njaka::material(std::span<int> out) const {
  for (Seat q = 0; q < s_.players; ++q) {
    int value = 16 * s_.sets[q];
    for (int h = 0; h < kNjakaHoles; ++h)
      if (s_.owner[h] == q) value += s_.board[h];
    out[static_cast<std::size_t>(q)] = mancala::in_match(s_, q) ? value : 0;
  }
}

const GameType& njaka_type() {
  static const GameType type{
      "njaka", "Njaka's Mancala Game", 2, kNjakaMaxSeats, kOptions,
      [](const Json& options) { return options.at("players").get<int>(); },
      [](const GameSetup& setup) -> std::unique_ptr<Game> {
        return std::make_unique<Njaka>(setup);
      },
      {},
      Njaka::kClaimWindows};
  return type;
}

}  // namespace mancala
