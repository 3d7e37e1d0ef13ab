#include "mancala/match.hpp"

#include <algorithm>

#include "mancala/utf8.hpp"

namespace mancala {

bool recorded_event(const Json& event) {
  static constexpr std::string_view kKinds[] = {"pass",    "refill", "plex_open", "plex_result",
                                                "concede", "resign", "round_end", "game_end",
                                                "illegal_move", "timeout"};
  const auto it = event.find("event");
  if (it == event.end() || !it->is_string()) return false;
  const auto& kind = it->get_ref<const std::string&>();
  return std::find(std::begin(kKinds), std::end(kKinds), kind) != std::end(kKinds);
}

namespace {

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : " ") + part;
  return out;
}

std::vector<std::string> tokens_of(const Game& game) {
  DecisionList list;
  game.legal(list);
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(list.size()));
  for (Decision d : list) out.push_back(game.token(d));
  return out;
}

Seat resolve_first_player(const Json& options, int players, std::uint64_t seed, Json& draws) {
  if (!options.contains("first_player")) return 0;
  const Json& value = options["first_player"];
  if (value == "random") {
    const auto seat = static_cast<Seat>(Random(seed).below(static_cast<std::uint32_t>(players)));
    draws["first_player"] = seat;
    return seat;
  }
  const int seat = value.get<int>();
  if (seat >= players)
    throw EngineError(ErrorCode::bad_option, "option 'first_player' is " + std::to_string(seat) +
                                                 " but seats are 0.." +
                                                 std::to_string(players - 1));
  return seat;
}

}  // namespace

Json MoveError::to_json() const {
  Json out = {{"code", to_string(code)}, {"message", message}};
  if (!token.empty()) out["token"] = token;
  if (code == ErrorCode::illegal_move) out["legal"] = legal;
  return out;
}

std::optional<std::vector<std::string_view>> split_tokens(std::string_view move) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto space = move.find(' ', start);
    const auto token = move.substr(start, space == std::string_view::npos ? move.npos : space - start);
    if (token.empty()) return std::nullopt;
    out.push_back(token);
    if (space == std::string_view::npos) return out;
    start = space + 1;
  }
}

Match::Match(const GameType& type, Json options, Json draws, Seat first_player)
    : type_(&type), options_(std::move(options)), draws_(std::move(draws)) {
  game_ = type.create(GameSetup{options_, first_player});
}

Match Match::create(std::string_view game_id, const Json& options, std::uint64_t seed) {
  const GameType& type = find_game_type(game_id);
  Json resolved = resolve_options(type.options, options);
  Json draws = Json::object();
  const Seat first = resolve_first_player(resolved, type.players(resolved), seed, draws);
  return Match(type, std::move(resolved), std::move(draws), first);
}

Match Match::restore(std::string_view game_id, const Json& options, const Json& draws) {
  const GameType& type = find_game_type(game_id);
  Json resolved = resolve_options(type.options, options);
  Seat first = 0;
  if (draws.is_object() && draws.contains("first_player")) {
    first = draws["first_player"].get<int>();
    if (first < 0 || first >= type.players(resolved))
      throw EngineError(ErrorCode::bad_option, "stored first player draw is out of range");
  } else {
    Json unused = Json::object();
    first = resolve_first_player(resolved, type.players(resolved), 0, unused);
    if (!unused.empty())
      throw EngineError(ErrorCode::bad_option, "first_player is random but no draw is stored");
  }
  return Match(type, std::move(resolved), draws.is_object() ? draws : Json::object(), first);
}

Match Match::from_game(std::string_view game_id, const Json& options,
                       std::unique_ptr<Game> game) {
  Match match = restore(game_id, options, Json::object());
  match.game_ = std::move(game);
  return match;
}

Match Match::from_record(const Json& record) {
  Match match = restore(record.at("game").get<std::string>(), record.value("options", Json()),
                        record.value("draws", Json::object()));
  int step = 0;
  for (const Json& entry : record.value("turns", Json::array())) {
    ++step;
    const auto outcome = match.replay_entry(entry);
    if (outcome && !outcome->ok())
      throw EngineError(outcome->error->code, "record step " + std::to_string(step) + " (" +
                                                  entry.dump() + ") does not replay: " +
                                                  outcome->error->message);
  }
  return match;
}

std::optional<Outcome> Match::replay_entry(const Json& entry) {
  if (entry.contains("tokens")) return play(entry.at("seat").get<int>(), entry.at("tokens").get<std::string>());
  const auto kind = entry.value("event", std::string());
  const auto window = claim_window();
  if (kind == "resign") return resign(entry.at("player").get<int>());
  if (kind == "timeout") return timeout(entry.at("seat").get<int>());
  if (declares_special(kind)) return special_action(kind, entry.at("player").get<int>());
  if (window && kind == window->result_event)
    return entry.value("fallback", false) ? close_claim_window() : claim(entry.at("winner").get<int>());
  return std::nullopt;
}

Match::Match(const Match& other)
    : type_(other.type_),
      options_(other.options_),
      draws_(other.draws_),
      game_(other.game_->clone()),
      turn_start_(other.turn_start_ ? other.turn_start_->clone() : nullptr),
      pending_(other.pending_),
      turns_(other.turns_),
      ended_by_timeout_(other.ended_by_timeout_) {}

Match& Match::operator=(const Match& other) {
  if (this != &other) *this = Match(other);
  return *this;
}

Outcome Match::refuse(ErrorCode code, std::string message, std::string token,
                      const Game* at) const {
  MoveError error{code, std::move(message), std::move(token), {}};
  if (code == ErrorCode::illegal_move) error.legal = tokens_of(at ? *at : *game_);
  return Outcome{std::move(error), {}};
}

Outcome Match::play(std::string_view tokens) { return play(game_->to_move(), tokens); }

Outcome Match::play(Seat seat, std::string_view tokens) {
  if (game_->phase() == Phase::over) return refuse(ErrorCode::game_over, "the game is over");
  if (game_->phase() == Phase::claim)
    return refuse(ErrorCode::not_your_turn, "nobody moves while a claim window is open; claim it instead");
  if (seat != game_->to_move())
    return refuse(ErrorCode::not_your_turn, "seat " + std::to_string(game_->to_move()) +
                                                " is to move, not seat " + std::to_string(seat));
  if (!is_utf8(tokens)) return refuse(ErrorCode::bad_request, "a move must be UTF-8 text");
  const auto parts = split_tokens(tokens);
  if (!parts)
    return refuse(ErrorCode::bad_request,
                  "a move is one or more tokens separated by single spaces, got \"" +
                      std::string(tokens) + "\"");

  auto work = game_->clone();
  Events events;
  DecisionList legal;
  for (std::size_t i = 0; i < parts->size(); ++i) {
    const std::string token((*parts)[i]);
    if (i > 0 && !work->mid_turn())
      return rule_violation(seat, tokens, token,
                            "the turn ended before '" + token +
                                "'; a move holds the tokens of one turn only",
                            *work);
    const auto decision = work->parse_token(token);
    if (!decision)
      return refuse(ErrorCode::illegal_move,
                    "'" + token + "' is not a " + std::string(type_->name) + " token", token,
                    work.get());
    work->legal(legal);
    if (!legal.contains(*decision))
      return rule_violation(seat, tokens, token, "'" + token + "' is not legal here", *work);
    work->apply(*decision, &events);
  }

  const bool was_mid_turn = game_->mid_turn();
  if (work->mid_turn()) {
    if (!was_mid_turn) turn_start_ = std::move(game_);
    pending_ += (pending_.empty() ? "" : " ") + std::string(tokens);
  } else {
    turn_start_.reset();
    pending_.clear();
  }
  game_ = std::move(work);
  log(json_object("seat", seat, "tokens", std::string(tokens)), events);
  return Outcome{std::nullopt, std::move(events)};
}

Outcome Match::rule_violation(Seat seat, std::string_view move, std::string_view token,
                              std::string message, const Game& at) {
  const auto legal = tokens_of(at);
  if (!game_->forfeits_illegal_moves()) {
    if (!legal.empty()) message += "; legal: " + join(legal);
    return Outcome{MoveError{ErrorCode::illegal_move, std::move(message), std::string(token), legal},
                   {}};
  }
  // Under "forfeit" the offence ends the game (or round): drop the half-played turn, then let
  // the rules score it.
  auto work = turn_start().clone();
  Events events{Json{{"event", "illegal_move"}, {"player", seat}, {"token", token},
                     {"message", message}}};
  work->forfeit(seat, &events);
  game_ = std::move(work);
  turn_start_.reset();
  pending_.clear();
  log(Json{{"seat", seat}, {"tokens", std::string(move)}}, events);
  return Outcome{std::nullopt, std::move(events)};
}

Outcome Match::special(Seat seat, Json leading, const std::function<void(Game&, Events*)>& action,
                       bool timed_out) {
  if (game_->phase() == Phase::over) return refuse(ErrorCode::game_over, "the game is over");
  if (seat < 0 || seat >= game_->players())
    return refuse(ErrorCode::not_allowed, "seat " + std::to_string(seat) + " is not in this game");
  auto work = turn_start().clone();
  Events events{std::move(leading)};
  try {
    action(*work, &events);
  } catch (const EngineError& e) {
    return refuse(e.code(), e.what());
  }
  game_ = std::move(work);
  turn_start_.reset();
  pending_.clear();
  if (timed_out && over()) {
    ended_by_timeout_ = true;
    for (Json& event : events)  // the game wrote its end as a resignation
      if (event.value("event", std::string()) == "game_end") event["result"] = result();
  }
  log(Json(), events);
  return Outcome{std::nullopt, std::move(events)};
}

Outcome Match::resign(Seat seat) {
  return special(seat, Json{{"event", "resign"}, {"player", seat}},
                 [seat](Game& game, Events* events) { game.resign(seat, events); });
}
Outcome Match::timeout(Seat seat) {
  return special(seat, Json{{"event", "timeout"}, {"seat", seat}},
                 [seat](Game& game, Events* events) { game.resign(seat, events); }, /*timed_out=*/true);
}

bool Match::declares_special(std::string_view name) const {
  const auto actions = game_->special_actions();
  return std::any_of(actions.begin(), actions.end(), [&](const SpecialAction& a) { return a.name == name; });
}

Outcome Match::special_action(std::string_view name, Seat seat) {
  return special(seat, Json{{"event", std::string(name)}, {"player", seat}}, [&](Game& game, Events* events) {
    if (!declares_special(name))
      throw EngineError(ErrorCode::not_allowed, std::string(type_->name) + " has no action '" +
                                                    std::string(name) + "'; use resign to give up");
    game.special(name, seat, events);
  });
}

Json Match::result() const {
  Json result = game_->result();
  if (ended_by_timeout_ && result.is_object()) result["end_reason"] = "timeout";
  return result;
}

Outcome Match::claim(Seat seat) {
  if (game_->phase() == Phase::claim && (seat < 0 || seat >= game_->players()))
    return refuse(ErrorCode::not_allowed, "seat " + std::to_string(seat) + " is not in this game");
  return settle_claim(seat);
}

Outcome Match::close_claim_window() { return settle_claim(std::nullopt); }

Outcome Match::settle_claim(std::optional<Seat> claimant) {
  if (game_->phase() != Phase::claim) return refuse(ErrorCode::no_claim_window, "no claim window is open");
  auto work = game_->clone();
  Events events;
  try {
    work->resolve_claim(claimant, &events);
  } catch (const EngineError& e) {
    return refuse(e.code(), e.what());
  }
  game_ = std::move(work);
  log(Json(), events);
  return Outcome{std::nullopt, std::move(events)};
}

Outcome Match::declared_action(std::string_view kind, Seat seat) {
  if (declares_special(kind)) return special_action(kind, seat);
  if (const auto window = game_->claim_window()) {
    if (kind == window->name) return claim(seat);
    if (kind == window->fallback) return close_claim_window();
  }
  return refuse(ErrorCode::not_allowed, "'" + std::string(kind) + "' is not an action of " + std::string(type_->name));
}

void Match::log(Json entry, const Events& events) {
  if (!entry.is_null()) turns_.push_back(std::move(entry));
  for (const Json& event : events)
    if (recorded_event(event)) turns_.push_back(event);
}

std::vector<std::string> Match::legal_tokens() const { return tokens_of(*game_); }

void Match::write_state_fields(JsonWriter& out) const {
  const Seat to_move = game_->to_move();
  out.key("position").array(game_->position()).key("board");
  game_->write_board(out);
  out.key("to_move").seat_or_null(to_move);
  const auto window = game_->claim_window();
  out.field("phase", window ? window->name : to_string(game_->phase()));  // a window's phase is named after it
  out.field("round", game_->round()).field("pending", pending_).key("legal").begin_array();
  DecisionList legal;
  game_->legal(legal);
  for (Decision d : legal) out.value(game_->token(d));
  out.end_array().key("scores");
  game_->write_scores(out);
  out.key("rounds");
  game_->write_rounds(out);
  out.key("result").tree(result());
}

void Match::write_state(JsonWriter& out) const {
  out.begin_object();
  write_state_fields(out);
  out.end_object();
}

Json Match::state() const {
  return json_tree([this](JsonWriter& out) { write_state(out); });
}

Json Match::record() const {
  return Json{{"game", type_->id}, {"options", options_}, {"draws", draws_}, {"turns", turns_}};
}

}  // namespace mancala
