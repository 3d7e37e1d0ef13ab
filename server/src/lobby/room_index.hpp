#pragma once
// The rooms this process serves, found by id and by invite, and who sits in which, with the cap
// on the rooms one player may keep waiting. Thread-safe: one mutex, held only for a lookup or
// an update. A template over the room type so that its rules are tested with stand-ins; the
// server uses RoomIndex<Room>. A room type has `id()`, `invite()` and `status()` (RoomStatus).
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "metrics.hpp"
#include "room_status.hpp"

namespace mancala::server {

template <class R>
class RoomIndex {
 public:
  using RoomRef = std::shared_ptr<R>;

  // A new or rebuilt room, with the ids of the players seated in it.
  void add(const RoomRef& room, const std::vector<std::string>& seated) {
    const std::lock_guard lock(mutex_);
    rooms_[room->id()] = room;
    if (!room->invite().empty()) invites_[room->invite()] = room->id();
    for (const auto& player : seated) seated_[player].insert(room->id());
  }

  // Takes the room out (it was emptied or expired); false when it was not here.
  bool remove(const std::string& room_id) {
    const std::lock_guard lock(mutex_);
    const auto it = rooms_.find(room_id);
    if (it == rooms_.end()) return false;
    invites_.erase(it->second->invite());
    rooms_.erase(it);
    if (const auto creator = creator_of_.find(room_id); creator != creator_of_.end()) {
      erase_from(created_, creator->second, room_id);
      creator_of_.erase(creator);
    }
    return true;
  }

  void seat(const std::string& player_id, const std::string& room_id, bool seated) {
    const std::lock_guard lock(mutex_);
    if (seated) seated_[player_id].insert(room_id);
    else erase_from(seated_, player_id, room_id);
  }

  RoomRef find(const std::string& room_id) const {
    const std::lock_guard lock(mutex_);
    return find_locked(room_id);
  }
  RoomRef find_by_invite(const std::string& invite) const {
    const std::lock_guard lock(mutex_);
    const auto it = invites_.find(invite);
    return it == invites_.end() ? nullptr : find_locked(it->second);
  }
  bool seated_in(const std::string& player_id, const std::string& room_id) const {
    const std::lock_guard lock(mutex_);
    const auto it = seated_.find(player_id);
    return it != seated_.end() && it->second.contains(room_id);
  }
  std::vector<RoomRef> rooms_seating(const std::string& player_id) const {
    std::vector<RoomRef> out;
    const std::lock_guard lock(mutex_);
    if (const auto it = seated_.find(player_id); it != seated_.end())
      for (const auto& id : it->second)
        if (auto room = find_locked(id)) out.push_back(std::move(room));
    return out;
  }
  std::vector<std::string> ids() const {
    std::vector<std::string> out;
    const std::lock_guard lock(mutex_);
    for (const auto& [id, room] : rooms_) out.push_back(id);
    return out;
  }
  std::vector<RoomRef> waiting_rooms() const {
    std::vector<RoomRef> out;
    const std::lock_guard lock(mutex_);
    for (const auto& [id, room] : rooms_)
      if (room->status() == RoomStatus::waiting) out.push_back(room);
    return out;
  }
  RoomCounts counts() const {
    RoomCounts counts;
    const std::lock_guard lock(mutex_);
    for (const auto& [id, room] : rooms_) {
      switch (room->status()) {
        case RoomStatus::waiting: ++counts.waiting; break;
        case RoomStatus::playing: ++counts.playing; break;
        case RoomStatus::finished: ++counts.finished; break;
      }
    }
    return counts;
  }

  // Reserves one more waiting room for the player, counting the rooms he created or sits in
  // that still wait and the ones being stored for him, so that requests sent at once cannot
  // all pass the check before the first room exists. False at `cap`.
  bool reserve(const std::string& player_id, int cap) {
    const std::lock_guard lock(mutex_);
    std::set<std::string> held;
    for (const auto* index : {&seated_, &created_})
      if (const auto it = index->find(player_id); it != index->end()) held.insert(it->second.begin(), it->second.end());
    int count = 0;
    for (const auto& id : held)
      if (const auto room = find_locked(id); room && room->status() == RoomStatus::waiting) ++count;
    int& pending = being_created_[player_id];
    if (count + pending >= cap) {
      if (pending == 0) being_created_.erase(player_id);
      return false;
    }
    ++pending;
    return true;
  }
  // The creation `reserve` allowed is over: `created_room` is the room it made (the room now
  // counts by itself), or null when it failed.
  void end_reservation(const std::string& player_id, const std::string* created_room) {
    const std::lock_guard lock(mutex_);
    if (--being_created_[player_id] <= 0) being_created_.erase(player_id);
    if (!created_room) return;
    created_[player_id].insert(*created_room);
    creator_of_[*created_room] = player_id;
  }

 private:
  using IdSets = std::unordered_map<std::string, std::set<std::string>>;

  RoomRef find_locked(const std::string& room_id) const {
    const auto it = rooms_.find(room_id);
    return it == rooms_.end() ? nullptr : it->second;
  }
  static void erase_from(IdSets& sets, const std::string& key, const std::string& room_id) {
    const auto it = sets.find(key);
    if (it != sets.end() && it->second.erase(room_id) && it->second.empty()) sets.erase(it);
  }

  mutable std::mutex mutex_;
  std::unordered_map<std::string, RoomRef> rooms_;
  std::unordered_map<std::string, std::string> invites_;  // invite -> room id
  IdSets seated_;                                         // player -> rooms he sits in
  IdSets created_;                                        // player -> rooms he created
  std::unordered_map<std::string, std::string> creator_of_;    // room -> player
  std::unordered_map<std::string, int> being_created_;         // player -> rooms being stored
};

}  // namespace mancala::server
