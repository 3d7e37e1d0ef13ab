// The update and updates messages are assembled as text around the state's text
// (protocol::write_state); they must be byte for byte what dumping the whole message as one JSON
// tree wrote before (the tree state of Match::state with the clock as its last key). The state's
// own text is checked against the old trees in tests/engine/state_text_test.cpp.
#include <gtest/gtest.h>

#include "game_log.hpp"
#include "mancala/match.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::server {
namespace {

Json tree_update(const protocol::Update& u, const Json& state) {
  return Json{{"room", u.room},     {"version", u.version}, {"seat", u.seat ? Json(*u.seat) : Json()},
              {"action", u.action}, {"tokens", u.tokens},   {"events", Json::parse(u.events)},
              {"state", state}};
}

TEST(UpdateText, UpdatesAreTheTextOfTheTreeTheyReplaced) {
  const std::pair<const char*, Json> variants[] = {{"cups", Json::object()},
                                                   {"coin_duel", {{"stage", 3}}},
                                                   {"oanquan", Json::object()},
                                                   {"njaka", {{"players", 4}}},
                                                   {"duovallis", Json::object()}};
  for (const auto& [game, options] : variants) {
    SCOPED_TRACE(game);
    Match match = Match::create(game, options, 7);
    Random rng(11);
    const Json clocks[] = {Json(), Json{{"remaining_ms", {1000, 2000}}, {"running", 1}, {"as_of", "2026-01-01T00:00:00.000Z"}}};
    std::vector<protocol::Update> updates;
    Json tree_updates = Json::array();
    for (std::int64_t version = 1; !match.over() && version < 400; ++version) {
      if (match.game().phase() == Phase::claim) {
        match.close_claim_window();
        continue;
      }
      const auto legal = match.legal_tokens();
      const std::string tokens = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      const int seat = match.game().to_move();
      Outcome outcome = match.play(seat, tokens);
      ASSERT_TRUE(outcome.ok());
      const Json& clock = clocks[version % 2];
      const StoredAction action{version, "move", seat, tokens, to_json_text(Json(outcome.events)), "2026-01-01T00:00:00.000Z", clock};
      const protocol::Update update = make_update("r1", action, match);
      Json state = match.state();
      state["clock"] = clock;
      Json whole = {{"type", "update"}, {"id", "m7"}};
      whole.update(tree_update(update, state));
      EXPECT_EQ(protocol::write_update(std::string("m7"), update), whole.dump());
      EXPECT_EQ(protocol::with_id(protocol::write_update({}, update), std::int64_t{9}),
                protocol::write_update(std::int64_t{9}, update));
      if (updates.size() < 20) {
        updates.push_back(update);
        tree_updates.push_back(tree_update(update, state));
      }
    }
    const Json sync = {{"type", "updates"}, {"id", 3}, {"room", "r1"}, {"updates", tree_updates}};
    EXPECT_EQ(protocol::write_updates(std::int64_t{3}, "r1", updates), sync.dump());
  }
}

}  // namespace
}  // namespace mancala::server
