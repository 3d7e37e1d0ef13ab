#include "mancala/record_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <deque>
#include <vector>

#include "mancala/match.hpp"
#include "mancala/utf8.hpp"

namespace mancala {
namespace {

constexpr std::string_view kMarkTexts[] = {"", "?!", "?", "??"};  // in the order of analysis::Mark
constexpr std::size_t kLineWidth = 80;

std::string seat_text(Seat seat) { return "S" + std::to_string(seat); }

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : std::string(separator)) + part;
  return out;
}

// "S1 wins (target)", "draw (stall)", "S2 > S0 = S1 (target)" with three or four seats, "*"
// while the game is not over.
std::string result_text(const Json& result) {
  if (!result.is_object()) return "*";
  std::string text;
  const Json ranking = result.value("ranking", Json());
  if (ranking.is_array() && ranking.size() > 2) {
    std::vector<std::string> places;
    for (const Json& place : ranking) {
      std::vector<std::string> seats;
      for (const Json& seat : place) seats.push_back(seat_text(seat.get<int>()));
      places.push_back(join(seats, " = "));
    }
    text = join(places, " > ");
  } else {
    const Json winner = result.value("winner", Json());
    text = winner.is_number_integer() ? seat_text(winner.get<int>()) + " wins" : "draw";
  }
  const Json reason = result.value("end_reason", Json());
  return reason.is_string() ? text + " (" + reason.get<std::string>() + ")" : text;
}

// A forced event as the text shows it: `<pass S1>`, `<round_end 2>`, `<game_end>`.
std::string marker_text(const Json& event) {
  const auto kind = event.value("event", std::string());
  if (kind == "round_end" && event.contains("round")) return "<" + kind + " " + event["round"].dump() + ">";
  for (const char* key : {"player", "mover", "seat"})
    if (event.contains(key) && event[key].is_number_integer()) return "<" + kind + " " + seat_text(event[key].get<int>()) + ">";
  return "<" + kind + ">";
}

// An option's value as typed in the Options tag: strings bare, everything else as JSON.
std::string option_value_text(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string tag_value(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;  // a tag is one line
  }
  return out + "\"";
}

// Lines of at most kLineWidth columns where the items allow (an item is never broken).
class Wrapper {
 public:
  void add(const std::string& item) {
    if (!line_.empty() && line_.size() + 1 + item.size() > kLineWidth) break_line();
    line_ += (line_.empty() ? "" : " ") + item;
  }
  void break_line() {
    if (!line_.empty()) text_ += line_ + "\n";
    line_.clear();
  }
  std::string finish() {
    break_line();
    return text_;
  }

 private:
  std::string text_;
  std::string line_;
};

// ---------------------------------------------------------------------------------------------
// Export

MoveNote note_of(const Json& entry, const std::map<int, MoveNote>& notes, int number) {
  MoveNote note;
  if (entry.contains("mark")) note.mark = analysis::mark_from_name(entry["mark"].get<std::string>());
  note.comment = entry.value("comment", std::string());
  if (const auto it = notes.find(number); it != notes.end()) {
    if (it->second.mark) note.mark = it->second.mark;
    if (!it->second.comment.empty()) note.comment = it->second.comment;
  }
  return note;
}

// One action as the text numbers it: `12. S1 c3 R Q D`, `13. S0 resign`, `40. plex_timeout`.
std::string action_text(const Json& entry, const std::optional<ClaimWindow>& window) {
  if (entry.contains("tokens"))
    return seat_text(entry["seat"].get<int>()) + " " + entry["tokens"].get<std::string>();
  const auto kind = entry.value("event", std::string());
  if (window && kind == window->result_event)
    return entry.value("fallback", false) ? std::string(window->fallback)
                                          : seat_text(entry["winner"].get<int>()) + " " + std::string(window->name);
  return seat_text(entry.value("player", entry.value("seat", kNoSeat))) + " " + kind;
}

std::string options_text(const GameType& type, const Json& options) {
  std::vector<std::string> changed;
  for (const auto& spec : type.options)
    if (options.contains(spec.name) && options[spec.name] != spec.default_value)
      changed.push_back(spec.name + "=" + option_value_text(options[spec.name]));
  return join(changed, " ");
}

std::string header_text(const Json& record, const Match& match) {
  std::string out = "[Game " + tag_value(match.type().id) + "]\n";
  if (const auto options = options_text(match.type(), match.options()); !options.empty())
    out += "[Options " + tag_value(options) + "]\n";
  for (const Json& player : record.value("players", Json::array()))
    if (player.contains("seat") && player.contains("name"))
      out += "[Seat" + player["seat"].dump() + " " + tag_value(player["name"].get<std::string>()) + "]\n";
  std::string date = record.value("date", std::string());
  if (date.empty()) date = record.value("started", std::string()).substr(0, 10);  // a stored game's start
  if (!date.empty()) out += "[Date " + tag_value(date) + "]\n";
  if (match.draws().contains("first_player"))
    out += "[FirstPlayer " + tag_value(seat_text(match.draws()["first_player"].get<int>())) + "]\n";
  return out + "[Result " + tag_value(result_text(match.result())) + "]\n";
}

std::string comment_text(std::string comment) {
  std::replace(comment.begin(), comment.end(), '}', ')');  // a comment cannot hold its own end
  return "{" + comment + "}";
}

// ---------------------------------------------------------------------------------------------
// Import: the text as items with where they stand, then the items played through a Match.

struct Item {
  enum Kind { number, seat, word, time, mark, comment, marker } kind;
  std::string text;
  int line;
  int column;
};

struct Tag {
  std::string name;
  std::string value;
  int line;
  int column;  // of the value
};

[[noreturn]] void fail(ErrorCode code, int line, int column, const std::string& message) {
  throw RecordTextError(code, line, column, message);
}
[[noreturn]] void fail(const Item& at, const std::string& message, ErrorCode code = ErrorCode::bad_request) {
  fail(code, at.line, at.column, message);
}
[[noreturn]] void fail(const Tag& at, const std::string& message, ErrorCode code = ErrorCode::bad_request) {
  fail(code, at.line, at.column, message);
}

std::optional<int> whole_number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// `S1` -> 1.
std::optional<int> seat_of(std::string_view text) {
  if (text.size() < 2 || text[0] != 'S') return std::nullopt;
  return whole_number(text.substr(1));
}

std::optional<MoveMark> mark_of(std::string_view text) {
  for (std::size_t i = 1; i < std::size(kMarkTexts); ++i)  // from 1: a mark is never empty
    if (text == kMarkTexts[i]) return static_cast<MoveMark>(i);
  return std::nullopt;
}

// A text is read from anyone (an upload, a paste) and its tags and comments go into JSON, which
// holds only UTF-8: a byte that is not is a fault of the text, named where it stands. Columns
// count bytes, as the lexer's do.
void check_utf8(std::string_view text) {
  const std::size_t bad = utf8_prefix(text);
  if (bad == text.size()) return;
  const std::string_view before = text.substr(0, bad);
  const std::size_t line_start = before.rfind('\n') + 1;  // 0 on the first line (npos + 1)
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  const auto column = bad - line_start + 1;
  char byte[5];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
  fail(ErrorCode::bad_request, static_cast<int>(line), static_cast<int>(column),
       std::string("the text is not UTF-8 here (byte ") + byte + "); save the file as UTF-8 and try again");
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) { check_utf8(text); }

  std::vector<Tag> tags() {
    std::vector<Tag> out;
    for (skip_space(); peek() == '['; skip_space()) out.push_back(tag());
    return out;
  }

  std::vector<Item> items() {
    std::vector<Item> out;
    for (skip_space(); !done(); skip_space()) {
      const int line = line_, column = column_;
      if (peek() == '{') {
        out.push_back({Item::comment, trimmed(enclosed('}', "comment", true)), line, column});
      } else if (peek() == '<') {
        out.push_back({Item::marker, "<" + enclosed('>', "forced event", false) + ">", line, column});
      } else if (peek() == '[') {
        fail(ErrorCode::bad_request, line, column, "tags belong in the header, before the first move");
      } else {
        add_word(out, word(), line, column);
      }
    }
    return out;
  }

 private:
  bool done() const { return at_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }
  char next() {
    const char c = text_[at_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }
  void skip_space() {
    while (!done() && std::isspace(static_cast<unsigned char>(peek()))) next();
  }
  void expect(char wanted, std::string_view what) {
    skip_space();
    if (peek() != wanted)
      fail(ErrorCode::bad_request, line_, column_,
           "expected `" + std::string(1, wanted) + "` " + std::string(what) + ", found " + found());
    next();
  }
  std::string found() const {
    if (done()) return "the end of the text";
    const auto length = std::max<std::size_t>(1, utf8_sequence_length(static_cast<unsigned char>(peek())));
    return "`" + std::string(text_.substr(at_, length)) + "`";  // the whole character: the text is UTF-8
  }

  // [Name "value"]
  Tag tag() {
    next();
    Tag out{{}, {}, line_, column_};
    while (std::isalnum(static_cast<unsigned char>(peek()))) out.name += next();
    if (out.name.empty()) fail(ErrorCode::bad_request, line_, column_, "expected a tag name after `[`, found " + found());
    expect('"', "before the value of tag " + out.name);
    out.line = line_;
    out.column = column_;
    while (!done() && peek() != '"' && peek() != '\n') {
      if (peek() == '\\') next();
      if (done() || peek() == '\n') break;  // a tag is one line: an escape does not carry it on
      out.value += next();
    }
    if (peek() != '"') fail(ErrorCode::bad_request, line_, column_, "expected `\"` to close the value of tag " + out.name + ", found " + found());
    next();
    expect(']', "to close tag " + out.name);
    return out;
  }

  // The text up to `close`, which must come (on the same line unless `multiline`).
  std::string enclosed(char close, std::string_view what, bool multiline) {
    const int line = line_, column = column_;
    next();
    std::string out;
    while (!done() && peek() != close && (multiline || peek() != '\n')) out += next();
    if (peek() != close)
      fail(ErrorCode::bad_request, line, column,
           "the " + std::string(what) + " opened here is never closed: expected `" + std::string(1, close) + "`");
    next();
    return out;
  }

  std::string word() {
    std::string out;
    while (!done() && !std::isspace(static_cast<unsigned char>(peek())) && peek() != '{' && peek() != '<') out += next();
    return out;
  }

  static std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  }

  // A word is a move number (`12.`), a seat (`S1`), a time (`@2026-11-20T18:04:11Z`), a mark (`?!`, alone or ending a token) or a
  // token; `!` marks (good moves in chess) are not part of the format.
  static void add_word(std::vector<Item>& out, const std::string& text, int line, int column) {
    if (text.size() > 1 && text[0] == '@') {
      out.push_back({Item::time, text, line, column});
      return;
    }
    const auto mark_start = text.find_first_of("?!");
    if (mark_start != std::string::npos) {
      const std::string mark = text.substr(mark_start);
      if (!mark_of(mark))
        fail(ErrorCode::bad_request, line, column + static_cast<int>(mark_start),
             "`" + mark + "` is not a mark: marks are ?! (inaccuracy), ? (mistake) and ?? (blunder)");
      if (mark_start > 0) add_word(out, text.substr(0, mark_start), line, column);
      out.push_back({Item::mark, mark, line, column + static_cast<int>(mark_start)});
      return;
    }
    if (text.size() > 1 && text.back() == '.' && whole_number(text.substr(0, text.size() - 1)))
      out.push_back({Item::number, text.substr(0, text.size() - 1), line, column});
    else if (seat_of(text))
      out.push_back({Item::seat, text, line, column});
    else
      out.push_back({Item::word, text, line, column});
  }

  std::string_view text_;
  std::size_t at_ = 0;
  int line_ = 1;
  int column_ = 1;
};

// The header's tags, checked and looked up by name.
class Header {
 public:
  explicit Header(std::vector<Tag> tags) : tags_(std::move(tags)) {
    for (std::size_t i = 0; i < tags_.size(); ++i) {
      const Tag& tag = tags_[i];
      if (!known(tag.name))
        fail(tag, "unknown tag `" + tag.name + "`: the tags are Game, Options, Seat0 to Seat3, Date, FirstPlayer and Result");
      for (std::size_t j = 0; j < i; ++j)
        if (tags_[j].name == tag.name) fail(tag, "tag " + tag.name + " is given twice (first on line " + std::to_string(tags_[j].line) + ")");
    }
  }
  const Tag* find(std::string_view name) const {
    for (const Tag& tag : tags_)
      if (tag.name == name) return &tag;
    return nullptr;
  }
  const std::vector<Tag>& all() const { return tags_; }

 private:
  static bool known(std::string_view name) {
    if (name.size() == 5 && name.starts_with("Seat") && name[4] >= '0' && name[4] <= '3') return true;
    return name == "Game" || name == "Options" || name == "Date" || name == "FirstPlayer" || name == "Result";
  }
  std::vector<Tag> tags_;
};

// `cups_per_side=3 first_player=random` -> {"cups_per_side":3,"first_player":"random"}, each value
// typed as the game's option declares it; resolve_options judges names and ranges.
Json parse_options(const GameType& type, const Tag& tag) {
  Json options = Json::object();
  std::size_t start = 0;
  while ((start = tag.value.find_first_not_of(' ', start)) != std::string::npos) {
    const auto end = std::min(tag.value.find(' ', start), tag.value.size());
    const std::string pair = tag.value.substr(start, end - start);
    const auto equals = pair.find('=');
    if (equals == std::string::npos || equals == 0)
      fail(ErrorCode::bad_request, tag.line, tag.column + static_cast<int>(start),
           "expected name=value in Options, found `" + pair + "`");
    const std::string name = pair.substr(0, equals), text = pair.substr(equals + 1);
    Json value = text;
    if (const auto number = whole_number(text)) value = *number;
    for (const auto& spec : type.options)
      if (spec.name == name && spec.choices.is_array())
        for (const Json& choice : spec.choices)
          if (option_value_text(choice) == text) value = choice;
    options[name] = value;
    start = end;
  }
  return options;
}

// The draw of the first player: the FirstPlayer tag, else the seat the first move names, else
// seat 0. Only a game whose first_player option is "random" draws one.
Json first_player_draw(const GameType& type, const Json& options, const Header& header, const std::vector<Item>& items) {
  const Tag* tag = header.find("FirstPlayer");
  if (options.value("first_player", Json()) != "random") {
    if (tag)
      fail(*tag, "FirstPlayer is the draw of option first_player=random, and this game's first player is " +
                     (options.contains("first_player") ? "set by option first_player=" + options["first_player"].dump()
                                                       : std::string("fixed by its rules")));
    return Json::object();
  }
  const int seats = type.players(options);
  if (tag) {
    const auto seat = seat_of(tag->value);
    if (!seat || *seat >= seats)
      fail(*tag, "FirstPlayer is a seat from S0 to S" + std::to_string(seats - 1) + ", not `" + tag->value + "`");
    return Json{{"first_player", *seat}};
  }
  const auto first_move = std::find_if(items.begin(), items.end(), [](const Item& i) { return i.kind == Item::number; });
  // The item after the first move number, if any (end() + 1 is no iterator, even to compare).
  const auto mover = first_move == items.end() ? items.end() : std::next(first_move);
  if (mover != items.end() && mover->kind == Item::seat) {
    const int seat = *seat_of(mover->text);
    if (seat >= seats) fail(*mover, "this game's seats are S0 to S" + std::to_string(seats - 1) + ", not " + mover->text);
    return Json{{"first_player", seat}};
  }
  return Json{{"first_player", 0}};
}

Match opening(const Header& header, const std::vector<Item>& items) {
  const Tag* game = header.find("Game");
  if (!game) {
    std::vector<std::string> ids;
    for (const auto& type : game_types()) ids.emplace_back(type.id);
    fail(ErrorCode::bad_request, 1, 1, "expected a [Game \"…\"] tag naming the game (" + join(ids, ", ") + ")");
  }
  const GameType* type = nullptr;
  try {
    type = &find_game_type(game->value);
  } catch (const EngineError& e) {
    fail(*game, e.what(), e.code());
  }
  const Tag* options_tag = header.find("Options");
  const Json given = options_tag ? parse_options(*type, *options_tag) : Json::object();
  const Tag& options_at = options_tag ? *options_tag : *game;
  try {
    const Json options = resolve_options(type->options, given);
    return Match::restore(type->id, options, first_player_draw(*type, options, header, items));
  } catch (const RecordTextError&) {
    throw;
  } catch (const EngineError& e) {
    fail(options_at, e.what(), e.code());
  }
}

// What the text adds to one action's entry in the record's turns.
struct ActionNote {
  std::size_t entry;  // its index in the turns
  MoveNote note;
  std::string at;  // when it was played, as written
};

// Plays the items of the movetext, keeping what the record needs beside the Match's own turns.
class Importer {
 public:
  Importer(Match match, std::vector<Item> items) : match_(std::move(match)), items_(std::move(items)) {}

  void run() {
    for (at_ = 0; at_ < items_.size();) {
      const Item& item = items_[at_];
      switch (item.kind) {
        case Item::number: action(); break;
        case Item::comment: comment(item); ++at_; break;
        case Item::mark: mark(item); ++at_; break;
        case Item::marker: forced(item); ++at_; break;
        default:
          fail(item, "expected move number " + std::to_string(actions_.size() + 1) + " (as in `" +
                         std::to_string(actions_.size() + 1) + ". " + example_move() + "`), found `" + item.text + "`");
      }
    }
  }

  const Match& match() const { return match_; }
  const std::string& game_comment() const { return game_comment_; }
  const std::vector<ActionNote>& actions() const { return actions_; }

 private:
  std::string example_move() const {
    const auto legal = match_.legal_tokens();
    return legal.empty() ? "S0 resign" : legal.front();
  }

  bool is_action_word(std::string_view word) const {
    if (word == "resign" || word == "timeout" || match_.declares_special(word)) return true;
    const auto window = match_.claim_window();
    return window && (word == window->name || word == window->fallback);
  }

  void action() {
    const Item& number = items_[at_++];
    const int expected = static_cast<int>(actions_.size()) + 1;
    if (*whole_number(number.text) != expected)
      fail(number, "expected move number " + std::to_string(expected) + ", found " + number.text + ".");
    std::optional<Seat> seat;
    if (at_ < items_.size() && items_[at_].kind == Item::seat) seat = *seat_of(items_[at_++].text);
    std::vector<const Item*> words;
    while (at_ < items_.size() && items_[at_].kind == Item::word) words.push_back(&items_[at_++]);
    if (words.empty())
      fail(at_ < items_.size() ? items_[at_] : number,
           "expected the tokens of move " + number.text + ", found " +
               (at_ < items_.size() ? "`" + items_[at_].text + "`" : std::string("the end of the text")));
    const std::size_t entry = turns_;
    const bool is_move = !is_action_word(words[0]->text);
    const Outcome outcome = is_move ? move(seat, words) : special(number, seat, words);
    if (!outcome.ok()) refused(number, seat, words, *outcome.error);
    record_events(outcome.events, is_move);
    actions_.push_back({entry, MoveNote{}, {}});
    if (at_ < items_.size() && items_[at_].kind == Item::time) actions_.back().at = items_[at_++].text.substr(1);
  }

  Outcome move(std::optional<Seat> seat, const std::vector<const Item*>& words) {
    std::vector<std::string> tokens;
    for (const Item* word : words) tokens.push_back(word->text);
    return match_.play(seat.value_or(match_.game().to_move()), join(tokens, " "));
  }

  Outcome special(const Item& number, std::optional<Seat> seat, const std::vector<const Item*>& words) {
    const std::string& kind = words[0]->text;
    if (words.size() > 1) fail(*words[1], "`" + kind + "` stands alone in move " + number.text + "; found `" + words[1]->text + "` after it");
    const auto window = match_.claim_window();
    if (window && kind == window->fallback) return match_.close_claim_window();
    if (!seat) fail(*words[0], "`" + kind + "` needs the seat that did it, as in `" + number.text + ". S0 " + kind + "`");
    if (kind == "resign") return match_.resign(*seat);
    if (kind == "timeout") return match_.timeout(*seat);
    return match_.declared_action(kind, *seat);
  }

  [[noreturn]] void refused(const Item& number, std::optional<Seat> seat, const std::vector<const Item*>& words,
                            const MoveError& error) {
    if (error.code == ErrorCode::illegal_move && !error.token.empty()) {
      const auto word = std::find_if(words.begin(), words.end(), [&](const Item* w) { return w->text == error.token; });
      const Item& at = word != words.end() ? **word : number;
      const Seat mover = seat.value_or(match_.game().to_move());
      fail(at, "`" + error.token + "` is not a legal move for seat " + std::to_string(mover) +
                   (error.legal.empty() ? std::string(": ") + error.message : ": legal are " + join(error.legal, " ")),
           error.code);
    }
    fail(number, "move " + number.text + " does not play: " + error.message, error.code);
  }

  // Counts the entries the action added to the record, and keeps the forced ones that `<…>`
  // markers may name until the next action.
  void record_events(const Events& events, bool is_move) {
    turns_ += is_move ? 1 : 0;
    forced_.clear();
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (!recorded_event(events[i])) continue;
      ++turns_;
      if (is_move || i > 0) forced_.push_back(events[i]);  // a special action's first event is itself
    }
  }

  void comment(const Item& item) {
    std::string& text = actions_.empty() ? game_comment_ : actions_.back().note.comment;
    text += (text.empty() ? "" : " ") + item.text;
  }

  void mark(const Item& item) {
    if (actions_.empty()) fail(item, "the mark `" + item.text + "` must follow a move");
    auto& note = actions_.back().note;
    if (note.mark) fail(item, "move " + std::to_string(actions_.size()) + " already has a mark");
    note.mark = mark_of(item.text);
  }

  // A `<…>` marker names a forced event of the last action; those it passes over were left out.
  void forced(const Item& item) {
    const auto normal = normalised(item.text);
    const auto it = std::find_if(forced_.begin(), forced_.end(), [&](const Json& e) { return marker_text(e) == normal; });
    if (it == forced_.end()) {
      std::vector<std::string> happened;
      for (const Json& event : forced_) happened.push_back(marker_text(event));
      fail(item, "`" + item.text + "` does not happen here: " +
                     (actions_.empty() ? std::string("no move has been played yet")
                                       : "after move " + std::to_string(actions_.size()) + " the engine records " +
                                             (happened.empty() ? std::string("no forced event") : join(happened, " "))));
    }
    forced_.erase(forced_.begin(), it + 1);
  }

  // `< pass  S1 >` -> `<pass S1>`: spacing inside a marker is the writer's own.
  static std::string normalised(const std::string& marker) {
    std::vector<std::string> words;
    std::string word;
    for (char c : marker.substr(1, marker.size() - 2) + " ") {
      if (!std::isspace(static_cast<unsigned char>(c))) {
        word += c;
      } else if (!word.empty()) {
        words.push_back(word);
        word.clear();
      }
    }
    return "<" + join(words, " ") + ">";
  }

  Match match_;
  std::vector<Item> items_;
  std::size_t at_ = 0;
  std::size_t turns_ = 0;
  std::deque<Json> forced_;
  std::vector<ActionNote> actions_;
  std::string game_comment_;
};

void annotate(Json& entry, const ActionNote& action) {
  if (!action.at.empty()) entry["at"] = action.at;
  if (action.note.mark) entry["mark"] = to_string(*action.note.mark);
  if (!action.note.comment.empty()) entry["comment"] = action.note.comment;
}

Json players_of(const Header& header, int seats) {
  Json players = Json::array();
  for (const Tag& tag : header.all()) {
    if (!tag.name.starts_with("Seat")) continue;
    const int seat = tag.name[4] - '0';
    if (seat >= seats) fail(tag, "tag " + tag.name + " names a seat this game does not have: its seats are 0 to " + std::to_string(seats - 1));
    players.push_back(Json{{"seat", seat}, {"name", tag.value}});
  }
  std::sort(players.begin(), players.end(), [](const Json& a, const Json& b) { return a["seat"] < b["seat"]; });
  return players;
}

}  // namespace

RecordTextError::RecordTextError(ErrorCode code, int line, int column, const std::string& message)
    : EngineError(code, "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message),
      line_(line),
      column_(column) {}

std::string record_to_text(const Json& record, const std::map<int, MoveNote>& notes) {
  Match match = Match::restore(record.at("game").get<std::string>(), record.value("options", Json()),
                               record.value("draws", Json::object()));
  Wrapper moves;
  if (const auto comment = record.value("comment", std::string()); !comment.empty()) {
    moves.add(comment_text(comment));
    moves.break_line();
  }
  int number = 0;
  for (const Json& entry : record.value("turns", Json::array())) {
    const auto window = match.claim_window();
    const auto outcome = match.replay_entry(entry);
    if (!outcome) {
      moves.add(marker_text(entry));
      if (entry.value("event", std::string()) == "round_end") moves.break_line();
      continue;
    }
    if (!outcome->ok())
      throw EngineError(outcome->error->code, "record action " + std::to_string(number + 1) + " (" + entry.dump() +
                                                  ") does not replay: " + outcome->error->message);
    ++number;
    std::string text = std::to_string(number) + ". " + action_text(entry, window);
    if (const Json at = entry.value("at", Json()); at.is_string()) text += " @" + at.get<std::string>();
    const MoveNote note = note_of(entry, notes, number);
    if (note.mark) text += " " + std::string(kMarkTexts[static_cast<int>(*note.mark)]);
    if (!note.comment.empty()) text += " " + comment_text(note.comment);
    moves.add(text);
  }
  return header_text(record, match) + "\n" + moves.finish();
}

Json record_from_text(std::string_view text) {
  Lexer lexer(text);
  const Header header(lexer.tags());
  std::vector<Item> items = lexer.items();
  Match start = opening(header, items);
  Importer importer(std::move(start), std::move(items));
  importer.run();
  const Match& match = importer.match();

  Json record = match.record();
  for (const ActionNote& action : importer.actions()) annotate(record["turns"].at(action.entry), action);
  Json players = players_of(header, match.game().players());
  if (!players.empty()) record["players"] = std::move(players);
  if (const Tag* date = header.find("Date")) record["date"] = date->value;
  if (!importer.game_comment().empty()) record["comment"] = importer.game_comment();
  const std::string result = result_text(match.result());
  if (const Tag* tag = header.find("Result"); tag && tag->value != result)
    fail(*tag, "the Result tag says \"" + tag->value + "\" but the moves give \"" + result + "\"");
  if (match.over()) record["result"] = match.result();
  Match::from_record(record);  // the record the caller gets replays as it stands
  return record;
}

}  // namespace mancala
