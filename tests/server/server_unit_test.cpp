// Pieces of the server on their own: hashing, the group-commit writer, static file paths, the
// rate limiter.
#include <gtest/gtest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "clock.hpp"
#include "config.hpp"
#include "database.hpp"
#include "group_commit_writer.hpp"
#include "http_api.hpp"
#include "local_process.hpp"
#include "log_throttle.hpp"
#include "metrics.hpp"
#include "server.hpp"
#include "sha256.hpp"
#include "static_files.hpp"
#include "storage.hpp"
#include "websocket_session.hpp"

namespace mancala::server {
namespace {

// The graceful stop's wait once kept itself alive through a shared_ptr cycle: a leak that
// failed the ASan build's graceful-stop test.
TEST(WaitUntil, ReleasesWhatItHoldsOnceDone) {
  net::io_context io;
  auto held = std::make_shared<int>(0);
  const std::weak_ptr<int> watch = held;
  int polls = 0;
  bool ran = false;
  wait_until(
      io, [held, &polls] { return ++polls >= 3; }, std::chrono::steady_clock::now() + std::chrono::seconds(5),
      [&ran] { ran = true; });
  held.reset();
  io.run();
  EXPECT_TRUE(ran);
  EXPECT_EQ(polls, 3);
  EXPECT_TRUE(watch.expired()) << "the wait still holds its condition after it finished";
}

// Frames that were already waiting in the socket count as arriving when they were seen there,
// however late the server reads them.
TEST(Config, NetworkThreadsDefaultToTheCoresTheProcessMayRunOn) {
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  const char* plain[] = {"mancala-server"};
  EXPECT_EQ(parse_command_line(1, plain).threads, CPU_COUNT(&all));
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int core = 0; core < CPU_SETSIZE; ++core)
    if (CPU_ISSET(core, &all)) {
      CPU_SET(core, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);  // as `taskset -c <core>` would
  const int pinned = parse_command_line(1, plain).threads;
  const char* chosen[] = {"mancala-server", "--threads", "3"};
  const int asked = parse_command_line(3, chosen).threads;
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  EXPECT_EQ(pinned, 1);
  EXPECT_EQ(asked, 3) << "--threads still decides";
}

TEST(ArrivalClock, BacklogKeepsTheTimeItWasSeen) {
  ArrivalClock clock;
  const SteadyTime start{};
  constexpr std::size_t kFrame = 30;
  const std::size_t wire = kFrame + ArrivalClock::kFrameOverhead;
  EXPECT_EQ(clock.stamp(kFrame, 3 * wire, start), start);  // three more are waiting
  for (int i = 1; i <= 3; ++i)
    EXPECT_EQ(clock.stamp(kFrame, 0, start + std::chrono::seconds(i)), start) << "frame " << i;
  const SteadyTime later = start + std::chrono::seconds(10);
  EXPECT_EQ(clock.stamp(kFrame, 0, later), later) << "the backlog is used up: a new frame is timed when read";
}

TEST(FormatUtc, WritesIso8601WithMilliseconds) {
  using namespace std::chrono;
  const auto at = [](sys_days day, milliseconds since_midnight) { return SystemTime(day) + since_midnight; };
  EXPECT_EQ(format_utc(at(1970y / 1 / 1, 0ms)), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(format_utc(at(2024y / 2 / 29, 23h + 59min + 59s + 999ms)), "2024-02-29T23:59:59.999Z");
  EXPECT_EQ(format_utc(at(2026y / 11 / 29, 8h + 53min + 17s + 42ms)), "2026-11-29T08:53:17.042Z");
  EXPECT_EQ(format_utc(at(2026y / 12 / 31, 10h + 5min + 7s + 300ms) + 999us), "2026-12-31T10:05:07.300Z");
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(to_hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(to_hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(to_hex(sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_TRUE(constant_time_equal(sha256("x"), sha256("x")));
  EXPECT_FALSE(constant_time_equal(sha256("x"), sha256("y")));
}

// Runs `job` through the writer and returns what `done` reported.
std::future<bool> submit(GroupCommitWriter& writer, GroupCommitWriter::Job job) {
  auto promise = std::make_shared<std::promise<bool>>();
  auto future = promise->get_future();
  writer.submit(std::move(job), [promise](bool committed) { promise->set_value(committed); });
  return future;
}

// What a restarted server concludes about the process it replaces (cluster take-over).
TEST(LocalProcess, OnlyAProcessSurelyEndedIsGone) {
  const LocalProcess self = this_process();
  ASSERT_FALSE(self.pid_space.empty()) << "this machine's /proc says where we run";
  EXPECT_GT(self.started, 0);
  EXPECT_EQ(liveness(self), Liveness::running);

  const pid_t child = fork();
  if (child == 0) _exit(0);
  LocalProcess ended{self.pid_space, child, self.started};
  waitpid(child, nullptr, 0);
  EXPECT_EQ(liveness(ended), Liveness::gone) << "its pid is free";

  LocalProcess reused = self;  // our pid, but a process that started at another moment
  reused.started = self.started - 1;
  EXPECT_EQ(liveness(reused), Liveness::gone);

  LocalProcess elsewhere = self;
  elsewhere.pid_space = "other-host/" + self.pid_space;
  EXPECT_EQ(liveness(elsewhere), Liveness::unknown) << "another machine's pids say nothing here";
  EXPECT_EQ(liveness(LocalProcess{}), Liveness::unknown);
}

TEST(GroupCommitWriter, AFailingJobIsUndoneAloneAndTheOthersCommit) {
  Histogram latency;
  Database db(":memory:", true);
  db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)");
  GroupCommitWriter writer(std::move(db), latency);
  // Hold the writer busy so that the next three jobs land in one batch.
  std::promise<void> release;
  auto gate = release.get_future().share();
  auto held = submit(writer, [gate](Database&) { gate.wait(); });
  auto first = submit(writer, [](Database& d) { d.prepare("INSERT INTO t VALUES (1)").run(); });
  auto duplicate = submit(writer, [](Database& d) {
    d.prepare("INSERT INTO t VALUES (2)").run();
    d.prepare("INSERT INTO t VALUES (1)").run();  // violates the key: the whole job is undone
  });
  auto third = submit(writer, [](Database& d) { d.prepare("INSERT INTO t VALUES (3)").run(); });
  release.set_value();
  EXPECT_TRUE(held.get());
  EXPECT_TRUE(first.get());
  EXPECT_FALSE(duplicate.get());
  EXPECT_TRUE(third.get());
  std::vector<std::int64_t> rows;
  writer.run_and_wait([&](Database& d) {
    auto select = d.prepare("SELECT x FROM t ORDER BY x");
    while (select.step()) rows.push_back(select.integer(0));
  });
  EXPECT_EQ(rows, (std::vector<std::int64_t>{1, 3}));
}

// A commit that held the writer for 50 ms or more is logged with its size; quick ones are not,
// and a burst of slow ones makes one line a second that counts the rest.
TEST(GroupCommitWriter, ASlowCommitIsLoggedOnceASecond) {
  Histogram latency;
  Database db(":memory:", true);
  db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)");
  // The writer's clock moves only when the test moves it: a slow commit is one during which
  // 60 ms pass on it, and a second passes between two of them without anyone waiting for it.
  std::atomic<std::int64_t> fake_ms{3'600'000};
  const auto pass = [&fake_ms](std::chrono::milliseconds time) { fake_ms += time.count(); };
  GroupCommitWriter writer(std::move(db), latency,
                           [&fake_ms] { return SteadyTime{} + std::chrono::milliseconds(fake_ms.load()); });
  const auto insert = [](int x) {
    return [x](Database& d) { d.prepare("INSERT INTO t VALUES (?1)").bind(1, x).run(); };
  };
  const auto slow_insert = [insert, pass](int x) {
    return [x, insert, pass](Database& d) {
      pass(std::chrono::milliseconds(60));
      insert(x)(d);
    };
  };
  ::testing::internal::CaptureStderr();
  EXPECT_TRUE(submit(writer, insert(1)).get());
  const std::string quick = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(quick.find("slow_commit"), std::string::npos) << quick;

  ::testing::internal::CaptureStderr();
  EXPECT_TRUE(submit(writer, slow_insert(2)).get());
  EXPECT_TRUE(submit(writer, slow_insert(3)).get());  // within the second: counted, not said
  pass(std::chrono::seconds(1));
  EXPECT_TRUE(submit(writer, slow_insert(4)).get());
  const std::string slow = ::testing::internal::GetCapturedStderr();
  std::vector<Json> lines;
  std::istringstream in(slow);
  for (std::string line; std::getline(in, line);)
    if (line.find("slow_commit") != std::string::npos) lines.push_back(Json::parse(line));
  ASSERT_EQ(lines.size(), 2u) << slow;
  EXPECT_EQ(lines[0]["level"], "warn");
  EXPECT_GE(lines[0]["ms"].get<int>(), 60);
  EXPECT_EQ(lines[0]["jobs"], 1);
  EXPECT_EQ(lines[0]["not_logged"], 0);
  EXPECT_EQ(lines[1]["not_logged"], 1);
}

// Issue 46: a line a client can cause at will is written at most once a second of its kind; the
// next one counts those left out, so a flood shows as one line a second that says how big it was.
TEST(LogThrottle, OneLineASecondAndTheNextCountsThoseLeftOut) {
  using namespace std::chrono_literals;
  LogThrottle throttle;
  const LogThrottle::Clock::time_point start{};  // the clock's own zero: the first line is still due
  EXPECT_EQ(throttle.admit(start), 0);
  EXPECT_EQ(throttle.admit(start + 1ms), std::nullopt);
  EXPECT_EQ(throttle.admit(start + 999ms), std::nullopt);
  EXPECT_EQ(throttle.admit(start + 1s), 2) << "a second after the last line written";
  EXPECT_EQ(throttle.admit(start + 1500ms), std::nullopt);
  EXPECT_EQ(throttle.admit(start + 1h), 1);
  EXPECT_EQ(throttle.admit(start + 1h + 1s), 0) << "nothing left out since";
  LogThrottle once_a_minute(1min);
  EXPECT_EQ(once_a_minute.admit(start), 0);
  EXPECT_EQ(once_a_minute.admit(start + 59s), std::nullopt);
  EXPECT_EQ(once_a_minute.admit(start + 60s), 1);
}

TEST(LogThrottle, EachEventHasItsOwnSecondAndItsLinesSayHowManyWereLeftOut) {
  using namespace std::chrono_literals;
  const auto start = LogThrottle::Clock::now();
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 25; ++i) {  // 2.4 s of a refusal every 100 ms, and another kind once
    log_throttled(LogLevel::warn, "test_flood", {{"attempt", i}}, start + i * 100ms);
    if (i == 5) log_throttled(LogLevel::warn, "test_other", {{"attempt", i}}, start + i * 100ms);
  }
  log_throttled(LogLevel::debug, "test_quiet", Json::object(), start);  // below --log-level: not written
  std::istringstream in(::testing::internal::GetCapturedStderr());
  std::vector<Json> flood, other;
  for (std::string line; std::getline(in, line);) {
    const Json parsed = Json::parse(line);
    ASSERT_NE(parsed["event"], "test_quiet");
    (parsed["event"] == "test_flood" ? flood : other).push_back(parsed);
  }
  ASSERT_EQ(flood.size(), 3u);
  EXPECT_EQ(flood[0]["attempt"], 0);
  EXPECT_EQ(flood[0]["not_logged"], 0);
  EXPECT_EQ(flood[1]["attempt"], 10);
  EXPECT_EQ(flood[1]["not_logged"], 9);
  EXPECT_EQ(flood[2]["attempt"], 20);
  EXPECT_EQ(flood[2]["not_logged"], 9);
  EXPECT_EQ(flood[2]["level"], "warn");
  ASSERT_EQ(other.size(), 1u) << "another kind is not held back by the flood";
  EXPECT_EQ(other[0]["attempt"], 5);
}

// The storage rules for both backends are in storage_test.cpp.

// Issue 46: /metrics for the machine itself, by the TCP peer's address, never a forwarded one.
TEST(Metrics, VisibleToLoopbackPeersNotForwardedOrWithTheFlag) {
  for (const std::string peer : {"127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"}) {
    EXPECT_TRUE(metrics_visible(peer, false, false)) << peer;
    EXPECT_FALSE(metrics_visible(peer, true, false)) << peer << " forwarded by a proxy";
  }
  for (const std::string peer : {"203.0.113.9", "10.0.0.1", "::ffff:10.0.0.1", "2001:db8::1", "", "localhost"})
    EXPECT_FALSE(metrics_visible(peer, false, false)) << peer;
  EXPECT_TRUE(metrics_visible("203.0.113.9", true, true)) << "--public-metrics";
}

TEST(StaticFiles, PathsStayInsideTheFolder) {
  const auto dir = std::filesystem::temp_directory_path() / ("mancala-static-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / "web" / "js");
  std::ofstream(dir / "web" / "index.html") << "<html>";
  std::ofstream(dir / "web" / "js" / "app.js") << "1";
  std::ofstream(dir / "secret.txt") << "no";
  std::filesystem::create_symlink(dir / "secret.txt", dir / "web" / "link.txt");
  const auto root = dir / "web";
  EXPECT_EQ(resolve_static_path(root, "/")->filename(), "index.html");
  EXPECT_EQ(resolve_static_path(root, "/js/app.js")->filename(), "app.js");
  EXPECT_EQ(resolve_static_path(root, "/js/%61pp.js")->filename(), "app.js");
  EXPECT_FALSE(resolve_static_path(root, "/../secret.txt"));
  EXPECT_FALSE(resolve_static_path(root, "/js/%2e%2e/%2e%2e/secret.txt"));
  EXPECT_FALSE(resolve_static_path(root, "/link.txt")) << "a symbolic link out of the folder";
  EXPECT_FALSE(resolve_static_path(root, "/js\\..\\..\\secret.txt"));
  EXPECT_FALSE(resolve_static_path(root, "/%zz"));
  EXPECT_EQ(content_type("a.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type("a.svg"), "image/svg+xml");
  std::filesystem::remove_all(dir);
}

TEST(RateLimiter, TwentyASecondWithBurstsOfForty) {
  RateLimiter limiter(20);
  const SteadyTime start{};
  int taken = 0;
  for (int i = 0; i < 100; ++i) taken += limiter.try_take(start) ? 1 : 0;
  EXPECT_EQ(taken, 40);
  EXPECT_FALSE(limiter.try_take(start + std::chrono::milliseconds(10)));
  EXPECT_TRUE(limiter.try_take(start + std::chrono::milliseconds(60)));  // 1.2 tokens back
  EXPECT_FALSE(limiter.try_take(start + std::chrono::milliseconds(60)));
}

}  // namespace
}  // namespace mancala::server
