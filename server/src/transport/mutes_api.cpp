#include "mutes_api.hpp"

#include "api_parts.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

constexpr std::size_t kMaxMutes = 200;
constexpr std::size_t kMaxNameBytes = 96;  // 24 characters of up to 4 bytes

void answer_mutes(const ApiCall& call, const std::string& player_id) {
  Json muted = Json::array();
  for (const auto& each : call.context.storage.chat().mutes(player_id))
    muted.push_back({{"player_id", each.player_id}, {"name", each.name}});
  call.reply(json_response(call.http(), http::status::ok, Json{{"muted", std::move(muted)}}));
}

void change(const ApiCall& call, bool muted) {
  const AccountSession session = required_session(call.http(), call.context);
  MutedPlayer other{call.params[0], ""};
  if (other.player_id == session.player_id) throw bad_request("you cannot mute yourself");
  if (muted) {
    other.name = string_field(body_object(call.http()), "name");
    if (other.name.size() > kMaxNameBytes) throw bad_request("'name' is longer than a player's name can be");
    if (call.context.storage.chat().mutes(session.player_id).size() >= kMaxMutes)
      throw HttpError{http::status::conflict, "too_many_mutes",
                      "you muted " + std::to_string(kMaxMutes) + " players already; unmute one first"};
  }
  call.context.storage.chat().set_muted(session.player_id, other, muted);
  answer_mutes(call, session.player_id);
}

void list(const ApiCall& call) { answer_mutes(call, required_session(call.http(), call.context).player_id); }
void mute(const ApiCall& call) { change(call, true); }
void unmute(const ApiCall& call) { change(call, false); }

// Mutes and unmutes each count against the address.
constexpr RouteLimit kMuteRequests{&RequestLimits::mutes_by_address, "mute requests"};

constexpr Route kRoutes[] = {
    {http::verb::get, "/api/account/mutes", {}, list},
    {http::verb::put, "/api/account/mutes/{player_id}", kMuteRequests, mute},
    {http::verb::delete_, "/api/account/mutes/{player_id}", kMuteRequests, unmute},
};

}  // namespace

RouteTable mute_routes() { return {"mutes", kRoutes, count_per_address}; }

}  // namespace mancala::server
