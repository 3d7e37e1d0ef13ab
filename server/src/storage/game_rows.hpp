#pragma once
// A game's rows as both databases read and write them alike: its meta row (kGameColumns), its
// seats and its committed actions. Templates over the connection (Database or PgConnection),
// used by SqlStorage in storage.cpp.
#include <optional>
#include <string>
#include <vector>

#include "mancala/bot.hpp"
#include "stored_game.hpp"

namespace mancala::server {
namespace game_rows {

// Columns 0..16 of kGameColumns.
constexpr const char* kGameColumns =
    "g.id, g.game, g.options, g.draws, g.private, g.invite, g.grace_seconds, g.status, g.created, "
    "g.started, g.finished, g.result, g.clock, g.host, (SELECT h.name FROM players h WHERE h.id = g.host), g.rated, "
    "g.spectator_chat";
constexpr int kGameColumnCount = 17;

template <class Row>
Json json_or_null(const Row& row, int column) {
  return row.is_null(column) ? Json() : Json::parse(row.text(column));
}

template <class Row>
GameMeta read_meta(const Row& row) {
  GameMeta meta;
  meta.id = row.text(0);
  meta.game = row.text(1);
  meta.options = Json::parse(row.text(2));
  meta.draws = Json::parse(row.text(3));
  meta.is_private = row.integer(4) != 0;
  meta.invite = row.text(5);
  meta.grace_seconds = static_cast<int>(row.integer(6));
  meta.status = row.text(7);
  meta.created = row.text(8);
  meta.started = row.text(9);
  meta.finished = row.text(10);
  meta.result = row.is_null(11) ? Json() : Json::parse(row.text(11));
  meta.clock = json_or_null(row, 12);
  meta.host_id = row.text(13);
  meta.host_name = row.text(14);
  meta.rated = row.integer(15) != 0;
  meta.spectator_chat = row.integer(16) != 0;
  return meta;
}

template <class Connection>
void read_seats(Connection& db, GameMeta& meta) {
  auto seats = db.prepare(
      "SELECT s.seat, s.player_id, p.name, s.bot_level, "
      "  CASE WHEN EXISTS (SELECT 1 FROM accounts a WHERE a.player_id = s.player_id) THEN 1 ELSE 0 END "
      "FROM seats s "
      "LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = ?1 ORDER BY s.seat");
  seats.bind(1, meta.id);
  while (seats.step()) {
    const int bot_level = seats.is_null(3) ? 0 : static_cast<int>(seats.integer(3));
    meta.seats.push_back({static_cast<int>(seats.integer(0)), bot_level ? "" : seats.text(1),
                          bot_level ? bots::display_name(bot_level) : seats.text(2), bot_level,
                          seats.integer(4) != 0});
  }
}

template <class Connection>
std::vector<StoredAction> read_actions(Connection& db, const std::string& game_id) {
  auto rows = db.prepare(
      "SELECT version, kind, seat, tokens, events, at, clock FROM moves WHERE game_id = ?1 "
      "ORDER BY version");
  rows.bind(1, game_id);
  std::vector<StoredAction> actions;
  while (rows.step()) {
    StoredAction action;
    action.version = rows.integer(0);
    action.kind = rows.text(1);
    if (!rows.is_null(2)) action.seat = static_cast<int>(rows.integer(2));
    action.tokens = rows.text(3);
    action.events = rows.text(4);
    action.at = rows.text(5);
    action.clock = json_or_null(rows, 6);
    actions.push_back(std::move(action));
  }
  return actions;
}

// A person's seat has a player_id; a computer player's has a bot_level instead.
template <class Connection>
void insert_seat(Connection& db, const std::string& game_id, const StoredSeat& seat) {
  db.prepare("INSERT INTO seats (game_id, seat, player_id, bot_level) VALUES (?1, ?2, ?3, ?4)")
      .bind(1, game_id)
      .bind(2, seat.seat)
      .bind(3, seat.bot_level ? std::optional<std::string>() : seat.player_id)
      .bind(4, seat.bot_level ? std::optional<int>(seat.bot_level) : std::nullopt)
      .run();
}

}  // namespace game_rows
}  // namespace mancala::server
