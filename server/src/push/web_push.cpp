#include "web_push.hpp"

#include "log.hpp"
#include "log_throttle.hpp"
#include "sha256.hpp"
#include "thread_name.hpp"

namespace mancala::server {
namespace {

constexpr std::size_t kTopicLength = 32;  // RFC 8030, section 5.4
constexpr auto kVapidLifetime = std::chrono::hours(12);  // RFC 8292 allows up to 24 h

}  // namespace

std::string push_payload(const PushNotice& notice) {
  return Json{{"title", notice.title}, {"body", notice.body}, {"url", notice.route.empty() ? "#/room/" + notice.room_id : notice.route}}.dump(
      -1, ' ', false, Json::error_handler_t::replace);
}

std::string push_topic(const std::string& room_id) {
  const Sha256Digest digest = sha256(room_id);
  return base64url(digest.data(), digest.size()).substr(0, kTopicLength);
}

WebPush::WebPush(EcKey vapid_key, WebPushSettings settings, PushSubscriptions& subscriptions)
    : vapid_key_(std::move(vapid_key)),
      settings_(std::move(settings)),
      public_key_(base64url(vapid_key_.public_point())),
      subscriptions_(subscriptions),
      client_(settings_.resolver),
      queues_(settings_.queues),
      notices_(1, settings_.queue_capacity, "web_push") {
  for (int i = 0; i < settings_.senders; ++i)
    senders_.emplace_back([this, i] {
      name_this_thread("push-" + std::to_string(i));
      send_until_stopped();
    });
}

WebPush::~WebPush() { stop(); }

void WebPush::stop() {
  notices_.stop();
  queues_.stop();
  for (auto& sender : senders_)
    if (sender.joinable()) sender.join();
}

void WebPush::notify(PushNotice notice) {
  const std::string room = notice.room_id;
  if (!notices_.push([this, notice = std::move(notice)] { fan_out(notice); }))
    log_warn_throttled("push_dropped", {{"room", room}, {"reason", "the push queue is full or stopped"},
                                        {"capacity", settings_.queue_capacity}});
}

// One message per subscription, each into its endpoint's queue.
void WebPush::fan_out(const PushNotice& notice) {
  std::vector<PushSubscription> subscriptions;
  try {
    subscriptions = subscriptions_.of_player(notice.player_id);
  } catch (const std::exception& e) {
    log_warn("push_not_sent", {{"room", notice.room_id}, {"reason", e.what()}});
    return;
  }
  const std::string payload = push_payload(notice);
  const std::string topic = push_topic(notice.room_id);
  for (auto& subscription : subscriptions) {
    const auto dropped = queues_.add({std::move(subscription), notice.room_id, payload, topic});
    if (!dropped) continue;
    const PushUrlCheck check = check_push_endpoint(dropped->message.subscription.endpoint, settings_.endpoints);
    log_warn_throttled("push_dropped", {{"room", dropped->message.room_id},
                                        {"service", check.url ? check.url->origin() : ""},
                                        {"reason", dropped->reason}});
  }
}

void WebPush::send_until_stopped() {
  while (const auto message = queues_.take()) {
    send(*message);
    queues_.done(*message);
  }
}

void WebPush::send(const PushMessage& message) {
  const PushSubscription& subscription = message.subscription;
  const PushUrlCheck check = check_push_endpoint(subscription.endpoint, settings_.endpoints);
  const std::string service = check.url ? check.url->origin() : "";
  const auto started = std::chrono::steady_clock::now();
  try {
    if (!check.url) return forget_refused(message, check.problem);
    const auto receiver = from_base64url(subscription.p256dh);
    const auto auth = from_base64url(subscription.auth);
    if (!receiver || !auth) throw PushCryptoError("the subscription's keys are not base64url");
    PushPost post{*check.url,
                  {{"Content-Type", "application/octet-stream"},
                   {"Content-Encoding", "aes128gcm"},
                   {"TTL", std::to_string(settings_.ttl.count())},
                   {"Topic", message.topic},
                   {"Urgency", "normal"},
                   {"Authorization", vapid_authorization(vapid_key_, service, settings_.subject,
                                                         std::chrono::system_clock::now() + kVapidLifetime)}},
                  encrypt_push_message(message.payload, EcKey::from_public(*receiver), *auth)};
    const int status = client_.post(post, settings_.timeout);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    if (status == 404 || status == 410) {
      subscriptions_.forget(subscription.endpoint);
      log_info("push_subscription_gone", {{"service", service}, {"status", status}});
    } else if (status < 200 || status >= 300) {
      log_warn_throttled("push_refused", {{"service", service}, {"status", status}, {"ms", took.count()}});
    } else {
      log_debug("push_sent", {{"service", service}, {"status", status}, {"ms", took.count()}});
    }
  } catch (const std::exception& e) {  // this message only; the others are still tried
    log_warn_throttled("push_failed", {{"service", service}, {"room", message.room_id}, {"reason", e.what()}});
  }
}

// A subscription stored before the endpoint rules were what they are (or under a test's looser
// ones) would be refused at every send for ever: it is deleted, as one its push service called
// gone, and the browser subscribes again when its player next asks for notices.
void WebPush::forget_refused(const PushMessage& message, const std::string& problem) {
  subscriptions_.forget(message.subscription.endpoint);
  log_info("push_subscription_refused", {{"room", message.room_id},
                                         {"player", message.subscription.player_id},
                                         {"reason", problem},
                                         {"effect", "the subscription was deleted"}});
}

}  // namespace mancala::server
