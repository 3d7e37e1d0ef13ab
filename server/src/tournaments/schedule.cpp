#include "schedule.hpp"

#include <cstdio>
#include <ctime>

namespace mancala::server {
namespace {

[[noreturn]] void refuse(std::size_t index, const Json& entry, const std::string& problem) {
  std::string which = "entry " + std::to_string(index + 1);
  if (entry.is_object() && entry.value("name", Json()).is_string()) which += " ('" + entry["name"].get<std::string>() + "')";
  throw ScheduleError("tournament schedule, " + which + ": " + problem);
}

Recurrence recurrence_of(const std::string& every) {
  if (every == "hour") return Recurrence::hour;
  if (every == "day") return Recurrence::day;
  if (every == "week") return Recurrence::week;
  if (every == "month") return Recurrence::month;
  if (every == "once") return Recurrence::once;
  throw std::invalid_argument("'every' must be one of once, hour, day, week, month; got '" + every + "'");
}

// The entry's n-th start after its first: fixed steps, or whole calendar months in UTC.
SystemTime nth_start(const ScheduledTournament& entry, long n) {
  using std::chrono::hours;
  switch (entry.every) {
    case Recurrence::once: return entry.first;
    case Recurrence::hour: return entry.first + hours(1) * n;
    case Recurrence::day: return entry.first + hours(24) * n;
    case Recurrence::week: return entry.first + hours(24 * 7) * n;
    case Recurrence::month: break;
  }
  const auto since_epoch = entry.first.time_since_epoch();
  const auto whole = std::chrono::floor<std::chrono::seconds>(since_epoch);
  const std::time_t seconds = static_cast<std::time_t>(whole.count());
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  const long month = utc.tm_mon + n;
  utc.tm_year += static_cast<int>(month / 12);
  utc.tm_mon = static_cast<int>(month % 12);
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const int year = utc.tm_year + 1900;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int last_day = kDays[utc.tm_mon] + (utc.tm_mon == 1 && leap ? 1 : 0);
  if (utc.tm_mday > last_day) utc.tm_mday = last_day;
  return std::chrono::system_clock::from_time_t(timegm(&utc)) + (since_epoch - whole);
}

}  // namespace

std::optional<SystemTime> parse_iso_utc(const std::string& text) {
  std::tm utc{};
  int millis = 0;
  char zone = 0;
  int used = 0;
  const bool with_millis = std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3d%c%n", &utc.tm_year, &utc.tm_mon,
                                       &utc.tm_mday, &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &millis, &zone, &used) == 8;
  if (!with_millis) {
    millis = 0;
    used = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour,
                    &utc.tm_min, &utc.tm_sec, &zone, &used) != 7)
      return std::nullopt;
  }
  if (zone != 'Z' || used != static_cast<int>(text.size())) return std::nullopt;
  if (utc.tm_mon < 1 || utc.tm_mon > 12 || utc.tm_mday < 1 || utc.tm_mday > 31 || utc.tm_hour > 23 ||
      utc.tm_min > 59 || utc.tm_sec > 60)
    return std::nullopt;
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&utc)) + std::chrono::milliseconds(millis);
}

std::vector<ScheduledTournament> parse_schedule(const std::string& text) {
  const Json file = Json::parse(text, nullptr, false);
  if (file.is_discarded()) throw ScheduleError("tournament schedule: the file is not JSON");
  const Json& entries = file.is_object() ? file.value("tournaments", Json()) : file;
  if (!entries.is_array()) throw ScheduleError("tournament schedule: expected an array of tournaments (or {\"tournaments\":[…]})");
  std::vector<ScheduledTournament> schedule;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Json& entry = entries[i];
    if (!entry.is_object()) refuse(i, entry, "each tournament must be a JSON object");
    ScheduledTournament scheduled;
    const Json first = entry.value("first", Json());
    const auto first_start = first.is_string() ? parse_iso_utc(first.get<std::string>()) : std::nullopt;
    if (!first_start) refuse(i, entry, "'first' must be its first start in UTC, such as \"2027-01-04T18:00:00Z\"");
    scheduled.first = *first_start;
    try {
      scheduled.every = recurrence_of(entry.value("every", Json("once")).is_string() ? entry.value("every", "once") : "");
    } catch (const std::invalid_argument& e) {
      refuse(i, entry, e.what());
    }
    if (entry.contains("starts_at")) refuse(i, entry, "'starts_at' is not used here: say 'first' and 'every'");
    scheduled.body = entry;
    scheduled.body.erase("first");
    scheduled.body.erase("every");
    schedule.push_back(std::move(scheduled));
  }
  return schedule;
}

std::optional<SystemTime> next_start(const ScheduledTournament& entry, SystemTime from) {
  if (entry.first >= from) return entry.first;
  if (entry.every == Recurrence::once) return std::nullopt;
  // A guess from the average step, then corrected by whole steps (months differ in length).
  const auto average = entry.every == Recurrence::hour  ? std::chrono::hours(1)
                       : entry.every == Recurrence::day ? std::chrono::hours(24)
                       : entry.every == Recurrence::week ? std::chrono::hours(24 * 7)
                                                          : std::chrono::hours(730);
  long n = static_cast<long>((from - entry.first) / average);
  while (n > 0 && nth_start(entry, n - 1) >= from) --n;
  while (nth_start(entry, n) < from) ++n;
  return nth_start(entry, n);
}

}  // namespace mancala::server
