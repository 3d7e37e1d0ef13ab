#include "bot_seats.hpp"

#include "bot_pool.hpp"
#include "log.hpp"
#include "log_throttle.hpp"
#include "metrics.hpp"
#include "random.hpp"

namespace mancala::server {
namespace {

constexpr auto kRetryWhenFull = std::chrono::milliseconds(100);

// FNV-1a: a seed that is the same for a room and seat on every build and after a restart.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

// One search, on a pool thread. A search that throws gives way to a random turn, so that the
// room always gets a move to check.
std::string search(bots::Bot& bot, const Game& game, double budget_share, std::uint64_t seed,
                   const std::string& room) {
  try {
    return bot.choose(game, budget_share).tokens;
  } catch (const std::exception& e) {
    log_error("bot_search_failed", {{"room", room}, {"level", bot.level()}, {"message", e.what()}});
  }
  try {
    bots::Bot random(bots::kMinLevel, seed);
    return random.choose(game).tokens;
  } catch (const std::exception& e) {
    log_error("bot_random_failed", {{"room", room}, {"message", e.what()}});
    return "";
  }
}

}  // namespace

BotSeats::BotSeats(BotPool& pool, Metrics& metrics, net::any_io_executor strand,
                   std::string room_id, int seat_count)
    : pool_(pool),
      metrics_(metrics),
      room_id_(std::move(room_id)),
      levels_(static_cast<std::size_t>(seat_count), 0),
      bots_(static_cast<std::size_t>(seat_count)),
      retry_timer_(std::move(strand)) {}

PlayerRef BotSeats::add(int seat, int level) {
  const auto index = static_cast<std::size_t>(seat);
  levels_[index] = level;
  bots_[index] = std::make_shared<bots::Bot>(level, seed(seat));
  return std::make_shared<const Player>(Player{"bot-" + std::to_string(seat), bots::display_name(level), {}});
}

int BotSeats::level(int seat) const {
  return seat >= 0 && static_cast<std::size_t>(seat) < levels_.size() ? levels_[static_cast<std::size_t>(seat)] : 0;
}

std::uint64_t BotSeats::seed(int seat) const {
  return fnv1a(room_id_) ^ (static_cast<std::uint64_t>(seat + 1) * 0x9E3779B97F4A7C15ull);
}

void BotSeats::think(const Game& game, std::int64_t version, const Deliver& deliver, bool random) {
  const Seat seat = game.to_move();
  if (thinking_ || game.phase() != Phase::play || level(seat) == 0) return;
  thinking_ = true;
  auto bot = random ? std::make_shared<bots::Bot>(bots::kMinLevel, seed(seat) + static_cast<std::uint64_t>(version))
                    : bots_[static_cast<std::size_t>(seat)];
  std::shared_ptr<const Game> copy = game.clone();
  const bool queued = pool_.submit([bot, copy, seat, version, deliver, &metrics = metrics_, &pool = pool_,
                                    seed = seed(seat), room = room_id_] {
    const auto started = std::chrono::steady_clock::now();
    const double share = pool.budget_share();
    if (share < 1) ++metrics.bot_searches_shortened;
    Result result{seat, version, search(*bot, *copy, share, seed, room)};
    metrics.bot_think.observe(std::chrono::steady_clock::now() - started);
    deliver(std::move(result));
  });
  if (queued) return;
  // The pool is full (or stopping): an empty result a little later makes the room look again.
  log_warn_throttled("bot_queue_full", {{"room", room_id_}});
  retry_timer_.expires_after(kRetryWhenFull);
  retry_timer_.async_wait([deliver, seat, version](const error_code& error) {
    if (!error) deliver(Result{seat, version, ""});
  });
}

std::vector<std::pair<int, std::chrono::milliseconds>> BotSeats::claim_reactions() const {
  std::vector<std::pair<int, std::chrono::milliseconds>> out;
  for (std::size_t seat = 0; seat < levels_.size(); ++seat)
    if (levels_[seat] > 0) out.emplace_back(static_cast<int>(seat), bots::claim_reaction(levels_[seat], random_u64()));
  return out;
}

}  // namespace mancala::server
