#include "bus_messages.hpp"

#include <charconv>
#include <sstream>
#include <stdexcept>

#include "overloaded.hpp"

namespace mancala::server::bus {
namespace {

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

std::string with_body(const std::vector<std::string>& header, const std::string& body) {
  return join(header) + "\n" + body;
}

protocol::SeatView seat_from_json(const Json& j) {
  protocol::SeatView seat;
  seat.seat = j.value("seat", 0);
  if (j["player_id"].is_string()) seat.player_id = j["player_id"];
  if (j["name"].is_string()) seat.name = j["name"];
  seat.connected = j.value("connected", false);
  if (j["bot"].is_number_integer()) seat.bot = j["bot"];
  seat.grace_until = j.value("grace_until", "");
  seat.account = j.value("account", false);
  if (j.contains("rating") && j["rating"].is_number_integer()) seat.rating = j["rating"].get<int>();
  seat.provisional = j.value("provisional", false);
  return seat;
}

// protocol::to_json(RoomSummary) read back.
protocol::RoomSummary summary_from_json(const Json& j) {
  protocol::RoomSummary summary;
  summary.id = j.at("id");
  summary.game = j.at("game");
  summary.options = j.at("options");
  summary.status = j.at("status");
  for (const auto& seat : j.at("seats")) summary.seats.push_back(seat_from_json(seat));
  summary.spectators = j.value("spectators", 0);
  summary.time_control = j.value("time_control", Json());
  if (j.contains("host") && j["host"].is_string()) summary.host = j["host"];
  summary.created = j.value("created", "");
  summary.rated = j.value("rated", false);
  return summary;
}

// Who as one header word: "guest", or "account" and each rating as
// ";game,rating,deviation,volatility,games" (game ids are plain words). Numbers round-trip.
std::string who_word(const Who& who) {
  if (!who.account) return "guest";
  std::string out = "account";
  const auto number = [&out](auto value) {
    char buffer[32];
    out += ',';
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
  };
  for (const auto& [game, seat] : who.ratings) {
    out += ';' + game;
    number(seat.rating.rating);
    number(seat.rating.deviation);
    number(seat.rating.volatility);
    number(seat.games);
  }
  return out;
}

std::vector<std::string> split_at(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(std::move(part));
  return parts;
}

template <class Number>
Number number_of(const std::string& text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("'" + text + "' is not a number");
  return value;
}

// A message from a process older than the word reads as a guest, as it did.
Who who_of(const std::vector<std::string>& words, std::size_t at) {
  if (at >= words.size() || words[at] == "guest") return {};
  const auto parts = split_at(words[at], ';');
  if (parts.at(0) != "account") throw std::invalid_argument("'" + words[at] + "' says neither guest nor account");
  Who who{true, {}};
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto fields = split_at(parts[i], ',');
    if (fields.size() != 5) throw std::invalid_argument("a rating is game,rating,deviation,volatility,games");
    who.ratings[fields[0]] = SeatRating{
        {number_of<double>(fields[1]), number_of<double>(fields[2]), number_of<double>(fields[3])},
        number_of<int>(fields[4])};
  }
  return who;
}

struct Parts {
  std::vector<std::string> words;
  std::string body;

  const std::string& word(std::size_t i) const {
    if (i >= words.size()) throw std::invalid_argument("a '" + words.at(0) + "' message has too few words");
    return words[i];
  }
  std::uint64_t number(std::size_t i) const { return std::stoull(word(i)); }
};

Parts split(const std::string& payload) {
  const auto newline = payload.find('\n');
  std::istringstream header(payload.substr(0, newline));
  Parts parts;
  for (std::string word; header >> word;) parts.words.push_back(std::move(word));
  if (newline != std::string::npos) parts.body = payload.substr(newline + 1);
  if (parts.words.empty()) throw std::invalid_argument("a bus message without a kind");
  return parts;
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(std::move(word));
  return words;
}

}  // namespace

std::string frame_header(std::uint64_t number) { return "frame " + std::to_string(number) + "\n"; }

std::string write(const Message& message) {
  return std::visit(
      Overloaded{
          [](const Frame& m) { return frame_header(m.number) + m.text; },
          [](const Request& m) {
            return with_body({"req", m.from, std::to_string(m.number), m.player_id, who_word(m.who)}, m.text);
          },
          [](const Attach& m) {
            return join({"attach", m.from, std::to_string(m.number), m.player_id, m.room, who_word(m.who)});
          },
          [](const Gone& m) { return join({"gone", m.from, std::to_string(m.number)}); },
          [](const Summary& m) {
            return with_body({"summary", m.from, m.room}, m.entry ? protocol::to_json(*m.entry).dump() : "");
          },
          [](const LobbyHello& m) { return join({"hello", m.from}); },
          [](const Taken& m) { return with_body({"taken", m.from}, join(m.rooms)); },
          [](const SessionsEnded& m) { return with_body({"ended", m.from}, join(m.session_hashes)); },
          [](const PlayersChanged& m) { return with_body({"players", m.from}, join(m.player_ids)); },
          [](const PoolTaken& m) { return join({"pool", m.from}); },
          [](const Reseek& m) {
            return with_body({"reseek", m.from, std::to_string(m.number), m.player_id, m.seek_id, who_word(m.who)},
                             m.text);
          },
          [](const Seated& m) { return with_body({"seated", m.from}, join(m.player_ids)); },
      },
      message);
}

Message read(const std::string& payload) {
  const Parts p = split(payload);
  const std::string& kind = p.words[0];
  if (kind == "frame") return Frame{p.number(1), p.body};
  if (kind == "req") return Request{p.word(1), p.number(2), p.word(3), p.body, who_of(p.words, 4)};
  if (kind == "attach") return Attach{p.word(1), p.number(2), p.word(3), p.word(4), who_of(p.words, 5)};
  if (kind == "gone") return Gone{p.word(1), p.number(2)};
  if (kind == "summary")
    return Summary{p.word(1), p.word(2),
                   p.body.empty() ? std::nullopt : std::optional(summary_from_json(Json::parse(p.body)))};
  if (kind == "hello") return LobbyHello{p.word(1)};
  if (kind == "taken") return Taken{p.word(1), words_of(p.body)};
  if (kind == "ended") return SessionsEnded{p.word(1), words_of(p.body)};
  if (kind == "players") return PlayersChanged{p.word(1), words_of(p.body)};
  if (kind == "pool") return PoolTaken{p.word(1)};
  if (kind == "reseek") return Reseek{p.word(1), p.number(2), p.word(3), p.word(4), p.body, who_of(p.words, 5)};
  if (kind == "seated") return Seated{p.word(1), words_of(p.body)};
  throw std::invalid_argument("unknown bus message kind '" + kind + "'");
}

}  // namespace mancala::server::bus
