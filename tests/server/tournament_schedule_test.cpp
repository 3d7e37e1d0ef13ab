// The operator's schedule on its own (issue 48): the file's entries, and each entry's next start
// (steps of an hour, a day, a week, calendar months in UTC), with no server and no clock.
#include <gtest/gtest.h>

#include "schedule.hpp"

namespace mancala::server {
namespace {

SystemTime at(const std::string& utc) {
  const auto time = parse_iso_utc(utc);
  EXPECT_TRUE(time) << utc;
  return time.value_or(SystemTime{});
}

ScheduledTournament entry(const std::string& first, Recurrence every) {
  return {Json{{"name", "Weekly"}}, at(first), every};
}

std::string next(const ScheduledTournament& e, const std::string& from) {
  const auto start = next_start(e, at(from));
  return start ? format_utc(*start) : "none";
}

std::string refusal(const std::string& text) {
  try {
    parse_schedule(text);
  } catch (const ScheduleError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Schedule, EntriesAreTournamentBodiesWithTheirFirstStartAndRecurrence) {
  const auto schedule = parse_schedule(R"([
    {"name": "Cups on Monday", "game": "cups", "kind": "arena", "minutes": 60,
     "first": "2027-01-04T18:00:00Z", "every": "week"},
    {"name": "New year", "game": "oanquan", "first": "2027-01-01T12:00:00Z"}])");
  ASSERT_EQ(schedule.size(), 2u);
  EXPECT_EQ(schedule[0].name(), "Cups on Monday");
  EXPECT_EQ(schedule[0].every, Recurrence::week);
  EXPECT_EQ(format_utc(schedule[0].first), "2027-01-04T18:00:00.000Z");
  EXPECT_FALSE(schedule[0].body.contains("first")) << "what the schedule says is not the tournament's body";
  EXPECT_FALSE(schedule[0].body.contains("every"));
  EXPECT_EQ(schedule[0].body["game"], "cups");
  EXPECT_EQ(schedule[1].every, Recurrence::once) << "no 'every': once";
  EXPECT_EQ(parse_schedule(R"({"tournaments": []})").size(), 0u) << "the object form";
}

TEST(Schedule, AFileTheServerCannotFollowIsRefusedNamingTheEntry) {
  EXPECT_EQ(refusal("[{"), "tournament schedule: the file is not JSON");
  EXPECT_NE(refusal(R"({"name": "x"})").find("expected an array"), std::string::npos);
  EXPECT_EQ(refusal(R"([{"name": "A", "first": "2027-01-04T18:00:00Z"}, {"name": "B", "first": "Monday"}])"),
            "tournament schedule, entry 2 ('B'): 'first' must be its first start in UTC, such as \"2027-01-04T18:00:00Z\"");
  EXPECT_EQ(refusal(R"([{"name": "A", "first": "2027-01-04T18:00:00Z", "every": "fortnight"}])"),
            "tournament schedule, entry 1 ('A'): 'every' must be one of once, hour, day, week, month; got 'fortnight'");
  EXPECT_NE(refusal(R"([{"name": "A", "first": "2027-01-04T18:00:00Z", "starts_at": "2027-01-04T18:00:00Z"}])")
                .find("'starts_at' is not used here"), std::string::npos);
  EXPECT_NE(refusal(R"([3])").find("entry 1: each tournament must be a JSON object"), std::string::npos);
}

TEST(Schedule, TheNextStartIsTheFirstOneNotPassed) {
  const auto weekly = entry("2027-01-04T18:00:00Z", Recurrence::week);
  EXPECT_EQ(next(weekly, "2026-12-31T00:00:00Z"), "2027-01-04T18:00:00.000Z") << "before the first start: the first";
  EXPECT_EQ(next(weekly, "2027-01-04T18:00:00Z"), "2027-01-04T18:00:00.000Z") << "at a start: that one";
  EXPECT_EQ(next(weekly, "2027-01-04T18:00:00.001Z"), "2027-01-11T18:00:00.000Z");
  EXPECT_EQ(next(weekly, "2028-03-01T09:00:00Z"), "2028-03-06T18:00:00.000Z") << "many weeks on (a Monday)";
  EXPECT_EQ(next(entry("2027-01-04T18:00:00Z", Recurrence::hour), "2027-01-05T07:30:00Z"), "2027-01-05T08:00:00.000Z");
  EXPECT_EQ(next(entry("2027-01-04T18:00:00Z", Recurrence::day), "2027-02-10T19:00:00Z"), "2027-02-11T18:00:00.000Z");
  EXPECT_EQ(next(entry("2027-01-04T18:00:00Z", Recurrence::once), "2027-01-04T18:00:01Z"), "none") << "a one-off passed";
}

TEST(Schedule, AMonthIsACalendarMonthAndTheThirtyFirstFallsBackToTheMonthsLastDay) {
  const auto monthly = entry("2027-01-31T20:00:00Z", Recurrence::month);
  EXPECT_EQ(next(monthly, "2027-02-01T00:00:00Z"), "2027-02-28T20:00:00.000Z");
  EXPECT_EQ(next(monthly, "2027-03-01T00:00:00Z"), "2027-03-31T20:00:00.000Z") << "counted from the first, not the last";
  EXPECT_EQ(next(monthly, "2027-04-01T00:00:00Z"), "2027-04-30T20:00:00.000Z");
  EXPECT_EQ(next(monthly, "2028-02-01T00:00:00Z"), "2028-02-29T20:00:00.000Z") << "a leap year";
  EXPECT_EQ(next(monthly, "2028-12-31T21:00:00Z"), "2029-01-31T20:00:00.000Z") << "over a new year";
}

}  // namespace
}  // namespace mancala::server
