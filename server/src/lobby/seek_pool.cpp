#include "seek_pool.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace mancala::server {

std::string SeekKind::key() const {
  // Json dumps objects with sorted keys, so equal options give equal text.
  const Json clock_text = clock ? protocol::clock_json(*clock) : Json();
  return game + '\n' + options.dump() + '\n' + clock_text.dump() + '\n' + (rated ? "rated" : "casual");
}

double rating_range(std::chrono::nanoseconds waited) {
  const auto steps = waited / SeekPool::kRangeStepEvery;
  return std::min(SeekPool::kMaxRange, SeekPool::kStartRange + SeekPool::kRangeStep * static_cast<double>(steps));
}

std::chrono::seconds playban_delay_for(int unplayed) {
  if (unplayed < SeekPool::kPlaybanFrom) return std::chrono::seconds(0);
  return std::min(SeekPool::kPlaybanCap, SeekPool::kPlaybanStep * (unplayed - SeekPool::kPlaybanFrom + 1));
}

SeekPool::SeekPool(Now now, Avoids avoids, std::string id_prefix)
    : now_(std::move(now)), avoids_(std::move(avoids)), id_prefix_(std::move(id_prefix)) {}

std::variant<SeekPool::Added, protocol::Error> SeekPool::add(const std::string& player_id, const SeekKind& kind,
                                                             std::vector<int> seats, double rating,
                                                             const std::string& seek_id) {
  auto& held = by_player_[player_id];
  if (!seek_id.empty() && std::any_of(held.begin(), held.end(), [&](const auto& entry) { return entry.first == seek_id; }))
    return Added{seek_id, std::nullopt};  // sent again twice: held once
  if (held.size() >= static_cast<std::size_t>(protocol::kMaxSeeksPerPlayer))
    return protocol::Error{protocol::Code::too_many_seeks,
                           "you already have " + std::to_string(protocol::kMaxSeeksPerPlayer) +
                               " seeks open; cancel one (cancel_seek) before seeking again",
                           {}};
  const std::string key = kind.key();
  auto [it, fresh] = buckets_.try_emplace(key);
  Bucket& bucket = it->second;
  if (fresh) {
    bucket.kind = kind;
    bucket.order = next_order_++;
  }
  const std::chrono::seconds delayed = playban_delay(player_id);
  const SystemTime since = now_() + delayed;
  Seeker seeker{seek_id.empty() ? id_prefix_ + std::to_string(++next_id_) : seek_id, player_id, std::move(seats), rating, since};
  held.emplace_back(seeker.seek_id, key);
  bucket.seekers.push_back(seeker);
  ++seeks_;
  Added added{seeker.seek_id, std::nullopt, delayed};
  // Only tables around the newcomer are new: every other one was looked for already.
  if (auto indices = best_table(bucket, bucket.seekers.size() - 1, now_())) {
    const int size = static_cast<int>(indices->size());
    added.table = seat(key, std::move(*indices), size);
  }
  return added;
}

bool SeekPool::may_sit(const Seeker& seeker, int size, SystemTime now) const {
  if (now < seeker.since) return false;  // a playban's delay is not over yet
  if (!std::binary_search(seeker.seats.begin(), seeker.seats.end(), size)) return false;
  const auto larger = seeker.seats.end() - std::upper_bound(seeker.seats.begin(), seeker.seats.end(), size);
  return now - seeker.since >= kWaitPerSizeGivenUp * larger;
}

bool SeekPool::compatible(const Bucket& bucket, const Seeker& a, const Seeker& b, SystemTime now) const {
  if (a.player_id == b.player_id) return false;
  if (avoids_ && (avoids_(a.player_id, b.player_id) || avoids_(b.player_id, a.player_id))) return false;
  if (!bucket.kind.rated) return true;
  const auto waited = now - std::max(a.since, b.since);  // the shorter wait of the two
  return std::abs(a.rating - b.rating) <= rating_range(waited);
}

std::optional<std::vector<std::size_t>> SeekPool::find_table(const Bucket& bucket, std::size_t seed, int size,
                                                             SystemTime now) const {
  const auto& seekers = bucket.seekers;
  if (!may_sit(seekers[seed], size, now)) return std::nullopt;
  std::vector<std::size_t> chosen{seed};
  for (std::size_t i = 0; i < seekers.size() && static_cast<int>(chosen.size()) < size; ++i) {
    if (i == seed || !may_sit(seekers[i], size, now)) continue;
    const bool fits = std::all_of(chosen.begin(), chosen.end(),
                                  [&](std::size_t c) { return compatible(bucket, seekers[c], seekers[i], now); });
    if (fits) chosen.push_back(i);
  }
  if (static_cast<int>(chosen.size()) < size) return std::nullopt;
  return chosen;
}

std::optional<std::vector<std::size_t>> SeekPool::best_table(const Bucket& bucket, std::size_t seed,
                                                             SystemTime now) const {
  const auto& sizes = bucket.seekers[seed].seats;
  for (auto size = sizes.rbegin(); size != sizes.rend(); ++size)
    if (auto table = find_table(bucket, seed, *size, now)) return table;
  return std::nullopt;
}

Table SeekPool::seat(const std::string& key, std::vector<std::size_t> indices, int size) {
  Bucket& bucket = buckets_.at(key);
  std::sort(indices.begin(), indices.end());  // oldest seek first
  Table table{bucket.kind, size, {}};
  for (const auto i : indices) table.seekers.push_back(bucket.seekers[i]);
  for (const auto& seeker : table.seekers) cancel_all(seeker.player_id);
  return table;
}

std::vector<Table> SeekPool::pair_waiting() {
  std::vector<Table> tables;
  const auto now = now_();
  std::vector<std::string> keys;
  for (const auto& [key, bucket] : buckets_)
    if (bucket.seekers.size() >= 2) keys.push_back(key);
  for (const auto& key : keys) {
    // Oldest first: whoever has waited longest is seated first. Each table found changes the
    // bucket, so the scan starts over (a bucket emptied by it is gone).
    for (bool found = true; found;) {
      found = false;
      const auto it = buckets_.find(key);
      if (it == buckets_.end()) break;
      for (std::size_t seed = 0; seed < it->second.seekers.size(); ++seed) {
        if (auto indices = best_table(it->second, seed, now)) {
          const int size = static_cast<int>(indices->size());
          tables.push_back(seat(key, std::move(*indices), size));
          found = true;
          break;
        }
      }
    }
  }
  return tables;
}

void SeekPool::note_unplayed(const std::string& player_id) {
  playban_delay(player_id);  // drops what fell out of the window
  unplayed_[player_id].push_back(now_());
}

std::chrono::seconds SeekPool::playban_delay(const std::string& player_id) {
  const auto it = unplayed_.find(player_id);
  if (it == unplayed_.end()) return std::chrono::seconds(0);
  const auto cutoff = now_() - kPlaybanWindow;
  std::erase_if(it->second, [cutoff](SystemTime at) { return at <= cutoff; });
  const int count = static_cast<int>(it->second.size());
  if (count == 0) unplayed_.erase(it);
  return playban_delay_for(count);
}

bool SeekPool::may_pair_later() const {
  for (const auto& [key, bucket] : buckets_) {
    const auto& seekers = bucket.seekers;
    for (std::size_t i = 1; i < seekers.size(); ++i)
      if (seekers[i].player_id != seekers[0].player_id) return true;
  }
  return false;
}

bool SeekPool::cancel(const std::string& player_id, const std::string& seek_id) {
  const auto held = by_player_.find(player_id);
  if (held == by_player_.end()) return false;
  const auto seek = std::find_if(held->second.begin(), held->second.end(),
                                 [&](const auto& entry) { return entry.first == seek_id; });
  if (seek == held->second.end()) return false;
  remove_seek(seek->second, seek_id);
  held->second.erase(seek);
  if (held->second.empty()) by_player_.erase(held);
  return true;
}

int SeekPool::cancel_all(const std::string& player_id) {
  const auto held = by_player_.find(player_id);
  if (held == by_player_.end()) return 0;
  const int ended = static_cast<int>(held->second.size());
  for (const auto& [seek_id, key] : held->second) remove_seek(key, seek_id);
  by_player_.erase(held);
  return ended;
}

std::vector<std::string> SeekPool::cancel_everyone() {
  std::vector<std::string> players;
  for (const auto& [player_id, held] : by_player_) players.push_back(player_id);
  by_player_.clear();
  buckets_.clear();
  seeks_ = 0;
  return players;
}

void SeekPool::remove_seek(const std::string& key, const std::string& seek_id) {
  const auto it = buckets_.find(key);
  if (it == buckets_.end()) return;
  auto& seekers = it->second.seekers;
  const auto removed = std::erase_if(seekers, [&](const Seeker& s) { return s.seek_id == seek_id; });
  seeks_ -= removed;
  if (seekers.empty()) buckets_.erase(it);
}

std::vector<protocol::SeekListing> SeekPool::listings() const {
  std::vector<const Bucket*> ordered;
  for (const auto& [key, bucket] : buckets_) ordered.push_back(&bucket);
  std::sort(ordered.begin(), ordered.end(), [](const Bucket* a, const Bucket* b) { return a->order < b->order; });
  std::vector<protocol::SeekListing> out;
  for (const Bucket* bucket : ordered) {
    std::map<std::vector<int>, int> by_sizes;
    for (const auto& seeker : bucket->seekers) ++by_sizes[seeker.seats];
    const auto& kind = bucket->kind;
    for (const auto& [sizes, waiting] : by_sizes)
      out.push_back({kind.game, kind.options, kind.clock ? protocol::clock_json(*kind.clock) : Json(), kind.rated,
                     sizes, waiting});
  }
  return out;
}

std::map<std::string, int> SeekPool::seekers_by_game() const {
  std::map<std::string, std::set<std::string>> players;
  for (const auto& [key, bucket] : buckets_)
    for (const auto& seeker : bucket.seekers) players[bucket.kind.game].insert(seeker.player_id);
  std::map<std::string, int> out;
  for (const auto& [game, ids] : players) out[game] = static_cast<int>(ids.size());
  return out;
}

}  // namespace mancala::server
