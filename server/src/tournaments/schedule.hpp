#pragma once
// The operator's schedule (issue 48): recurring tournaments listed in a JSON file
// (`--tournament-schedule FILE`), such as a weekly arena per game and a monthly round robin.
// Each entry is a tournament's POST body (name, game, options, clock, kind, minutes, rated)
// plus when it recurs: `"first"`, its first start in UTC, and `"every"`, one of hour, day,
// week, month (or none: once). The server keeps each entry's next start registered ahead, so
// players can join before it; see Tournaments::follow_schedule. Pure: parsing and dates only.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "clock.hpp"
#include "mancala/json.hpp"

namespace mancala::server {

// "2026-01-01T10:00:00Z" or with milliseconds ("…:00.000Z"), UTC only; nothing else.
std::optional<SystemTime> parse_iso_utc(const std::string& text);

enum class Recurrence { once, hour, day, week, month };

struct ScheduledTournament {
  Json body;  // the tournament's POST body, without starts_at
  SystemTime first;
  Recurrence every = Recurrence::once;
  std::string name() const { return body.value("name", std::string()); }
};

// A schedule file the server cannot follow; the message names the entry and what to fix.
struct ScheduleError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The file's text: a JSON array of entries (or {"tournaments":[…]}). Throws ScheduleError.
// What the entry's body says of the game is checked by the tournaments (Tournaments::schedule).
std::vector<ScheduledTournament> parse_schedule(const std::string& text);

// The first start of the entry at or after `from`; nothing when a one-off entry's start passed.
// A month adds a calendar month in UTC (the 31st falls back to the month's last day).
std::optional<SystemTime> next_start(const ScheduledTournament& entry, SystemTime from);

}  // namespace mancala::server
