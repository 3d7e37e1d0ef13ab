#include "table.hpp"

#include <gtest/gtest.h>

namespace mancala::testing {

Table open_table(unsigned short port, const std::string& game, const Json& options, int seats,
                 const Json& create_extra) {
  Table table;
  for (int seat = 0; seat < seats; ++seat) {
    table.clients.push_back(std::make_unique<Client>(port));
    const Json welcome = table.clients.back()->hello("Seat " + std::to_string(seat));
    table.tokens.push_back(welcome.at("token"));
  }
  Json create = {{"type", "create_room"}, {"game", game}, {"options", options}, {"private", true}};
  create.update(create_extra);
  const Json created = table.clients[0]->request(create);
  if (created.value("type", "") != "room") throw std::runtime_error("create_room failed: " + created.dump());
  table.room = created["room"]["id"];
  table.invite = created["room"]["invite"];
  Json started;
  for (int seat = 1; seat < seats; ++seat) {
    const Json joined = table.clients[static_cast<std::size_t>(seat)]->request(
        {{"type", "join_room"}, {"invite", table.invite}});
    if (joined.value("type", "") != "room" || joined["room"]["seats"][seat]["player_id"].is_null())
      throw std::runtime_error("join_room failed: " + joined.dump());
    started = joined;
  }
  // Everybody else hears of the start through an unsolicited room message.
  for (int seat = 0; seat + 1 < seats; ++seat) {
    started = table.clients[static_cast<std::size_t>(seat)]->wait_for([](const Json& m) {
      return m.value("type", "") == "room" && m["room"]["status"] == "playing";
    });
  }
  if (started["room"]["status"] != "playing" || started["room"]["version"] != 0)
    throw std::runtime_error("the game did not start: " + started.dump());
  table.state = started["room"]["state"];
  table.states.push_back(table.state);
  table.events.emplace_back();  // version 0 came with no update
  return table;
}

Json wait_update(Client& client, std::int64_t version) {
  return client.wait_for([version](const Json& m) {
    return m.value("type", "") == "update" && m.value("version", std::int64_t{-1}) == version;
  });
}

void reconnect_all(Table& table, unsigned short port) {
  for (std::size_t seat = 0; seat < table.clients.size(); ++seat) {
    table.clients[seat] = std::make_unique<Client>(port);
    const Json welcome = table.clients[seat]->request({{"type", "hello"}, {"token", table.tokens[seat]}});
    ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
    const Json room = table.clients[seat]->wait_for_type("room");
    EXPECT_EQ(room["room"]["id"], table.room);
    EXPECT_EQ(room["room"]["version"], table.version) << "resumes at the exact version";
    EXPECT_EQ(room["room"]["state"], table.state) << "in the exact state";
  }
}

namespace {

// Every client got `version`; their copies agree with `expected` (the id aside).
void expect_everyone_saw(Table& table, std::int64_t version, const Json& expected, int except) {
  for (std::size_t i = 0; i < table.clients.size(); ++i) {
    if (static_cast<int>(i) == except) continue;
    Json seen = wait_update(*table.clients[i], version);
    EXPECT_FALSE(seen.contains("id")) << "an update for others carries no id";
    Json reference = expected;
    reference.erase("id");
    EXPECT_EQ(seen, reference) << "client " << i << " saw another update " << version;
  }
}

void accept(Table& table, const Json& update) {
  table.version = update["version"];
  table.state = update["state"];
  table.states.push_back(table.state);
  table.events.push_back(update["events"]);
}

void resolve_plex(Table& table, Random& rng, PlexPolicy policy) {
  if (policy == PlexPolicy::leave_open) return;  // the caller deals with the window
  std::string window;
  int mover = -1;
  for (auto& client : table.clients) {
    const Json open = client->wait_for_type("plex_open");
    EXPECT_EQ(open["room"], table.room);
    if (window.empty()) window = open["window"], mover = open["mover"];
    EXPECT_EQ(open["window"], window) << "every member sees the same window";
    EXPECT_GE(open["window"].get<std::string>().size(), 26u) << "at least 128 random bits";
  }
  const std::int64_t next = table.version + 1;
  Json resolution;
  if (policy == PlexPolicy::nobody_claims) {
    resolution = wait_update(*table.clients[0], next);
    EXPECT_TRUE(resolution["events"][0]["fallback"].get<bool>());
    EXPECT_EQ(resolution["events"][0]["winner"], mover);
    expect_everyone_saw(table, next, resolution, 0);
  } else if (policy == PlexPolicy::one_claims) {
    // A random seat claims; a seat that has left the match (resigned, eliminated) is refused
    // with not_allowed and the next one tries.
    const auto first = rng.below(static_cast<std::uint32_t>(table.clients.size()));
    std::size_t claimer = first;
    for (std::size_t tries = 0; tries < table.clients.size(); ++tries) {
      claimer = (first + tries) % table.clients.size();
      resolution = table.clients[claimer]->request({{"type", "plex"}, {"room", table.room}, {"window", window}});
      if (resolution["type"] == "update") break;
      ASSERT_EQ(resolution["code"], "not_allowed") << resolution.dump();
    }
    ASSERT_EQ(resolution["type"], "update") << resolution.dump();
    EXPECT_EQ(resolution["events"][0]["event"], "plex_result");
    EXPECT_EQ(resolution["events"][0]["winner"], static_cast<int>(claimer));
    EXPECT_FALSE(resolution["events"][0]["fallback"].get<bool>());
    EXPECT_TRUE(resolution["events"][0].contains("latency_ms"));
    expect_everyone_saw(table, next, resolution, static_cast<int>(claimer));
  } else {
    // Everybody claims before anybody reads: exactly one wins, the others lose.
    for (std::size_t i = 0; i < table.clients.size(); ++i)
      table.clients[i]->send({{"type", "plex"}, {"id", "claim"}, {"room", table.room}, {"window", window}});
    int winners = 0;
    int winner = -1;
    for (std::size_t i = 0; i < table.clients.size(); ++i) {
      const Json reply = table.clients[i]->wait_for([](const Json& m) { return m.value("id", "") == "claim"; });
      if (reply["type"] == "update") {
        ++winners;
        winner = static_cast<int>(i);
        resolution = reply;
      } else {
        EXPECT_TRUE(reply["code"] == "plex_lost" || reply["code"] == "not_allowed") << reply.dump();
      }
    }
    EXPECT_EQ(winners, 1);
    EXPECT_EQ(resolution["events"][0]["winner"], winner);
    expect_everyone_saw(table, next, resolution, winner);
  }
  accept(table, resolution);
}

}  // namespace

Json play_one(Table& table, Random& rng, PlexPolicy plex) {
  const int seat = table.state["to_move"].get<int>();
  const auto& legal = table.state["legal"];
  if (legal.empty()) throw std::runtime_error("nothing legal: " + table.state.dump());
  const std::string token = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
  Client& mover = *table.clients[static_cast<std::size_t>(seat)];
  const Json update = mover.request(
      {{"type", "move"}, {"room", table.room}, {"expected_version", table.version}, {"tokens", token}});
  if (update.value("type", "") != "update") throw std::runtime_error("move refused: " + update.dump());
  EXPECT_EQ(update["version"], table.version + 1);
  EXPECT_EQ(update["seat"], seat);
  EXPECT_EQ(update["tokens"], token);
  expect_everyone_saw(table, table.version + 1, update, seat);
  accept(table, update);
  if (table.state["phase"] == "plex") resolve_plex(table, rng, plex);
  return update;
}

std::vector<std::string> stored_moves(unsigned short port, const Table& table) {
  std::string body;
  EXPECT_EQ(http_get(port, "/api/games/" + table.room, &body, table.tokens[0]), 200) << body;
  const Json record = Json::parse(body);  // kept: a range-for over a temporary's member dangles
  std::vector<std::string> stored;
  for (const auto& turn : record["turns"])
    if (turn.contains("tokens")) stored.push_back(turn["tokens"]);
  return stored;
}

int play_to_end(Table& table, std::uint64_t seed, PlexPolicy plex, int limit) {
  Random rng(seed);
  int updates = 0;
  while (table.state["result"].is_null() && updates < limit) {
    play_one(table, rng, plex);
    ++updates;
    if (::testing::Test::HasFatalFailure()) break;
  }
  return updates;
}

}  // namespace mancala::testing
