// The push sender's guards without a server process: which addresses count as public (the
// table in push_http.cpp), that a name looked up to a non-public address is never connected to,
// and the per-endpoint queues that keep one player's slow endpoints from holding up the others.
#include <gtest/gtest.h>

#include <boost/asio.hpp>

#include "push_http.hpp"
#include "push_queues.hpp"

namespace mancala::server {
namespace {

namespace asio = boost::asio;

TEST(PushAddresses, OnlyThePublicInternetIsPublic) {
  for (const char* refused : {
           "127.0.0.1", "127.255.255.254", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
           "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "255.255.255.255",
           "240.0.0.1", "224.0.0.1", "239.255.255.250", "192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1",
           "198.19.255.255", "192.0.0.8", "192.88.99.1",
           // IPv6, and IPv6 forms of the IPv4 ones
           "::", "::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
           "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::1", "2002:7f00:1::1", "2002:c0a8:101::1",
           "2002:a9fe:a9fe::", "fe80::1", "febf::1", "fec0::1", "fc00::1", "fd12:3456::1", "ff02::1", "ff0e::1",
           "2001:db8::1", "2001:0:4136:e378::1", "2001:2::1", "2001:10::1", "3fff::1", "100::1", "::2"})
    EXPECT_FALSE(is_public_address(asio::ip::make_address(refused))) << refused;
  for (const char* accepted : {"8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "172.15.255.255", "100.128.0.1",
                               "100.63.255.255", "169.255.0.1", "11.0.0.1", "223.255.255.254", "192.169.0.1",
                               "2606:4700:4700::1111", "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8",
                               "64:ff9b::808:808", "2002:808:808::1"})
    EXPECT_TRUE(is_public_address(asio::ip::make_address(accepted))) << accepted;
}

// A listener on 127.0.0.1 that can tell whether anything connected, without waiting.
struct Listener {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor{io, {asio::ip::make_address("127.0.0.1"), 0}};
  asio::ip::tcp::endpoint endpoint() const { return acceptor.local_endpoint(); }
  bool reached() {
    acceptor.non_blocking(true);
    boost::system::error_code error;
    asio::ip::tcp::socket socket(io);
    acceptor.accept(socket, error);  // a completed connection waits in the backlog
    return !error;
  }
};

PushPost post_to(const std::string& endpoint) {
  const PushUrlCheck check = check_push_endpoint(endpoint, {});
  if (!check.url) throw std::runtime_error(check.problem);
  return {*check.url, {}, Bytes{'x'}};
}

TEST(PushHttp, ANameThatLooksUpToLoopbackIsRefusedWithoutConnecting) {
  Listener listener;
  int lookups = 0;
  const PushHttpClient client([&](const std::string& host, const std::string& port) {
    ++lookups;
    EXPECT_EQ(host, "push.rebound.example");
    EXPECT_EQ(port, "443");
    return std::vector<asio::ip::tcp::endpoint>{listener.endpoint()};
  });
  try {
    client.post(post_to("https://push.rebound.example/x"), std::chrono::seconds(5));
    ADD_FAILURE() << "posted to 127.0.0.1";
  } catch (const PushDeliveryError& e) {
    EXPECT_NE(std::string(e.what()).find("127.0.0.1, which is not on the public internet"), std::string::npos) << e.what();
  }
  EXPECT_EQ(lookups, 1) << "looked up once";
  EXPECT_FALSE(listener.reached());
}

TEST(PushHttp, OnePrivateAddressAmongPublicOnesRefusesTheName) {
  Listener listener;
  const PushHttpClient client([&](const std::string&, const std::string&) {
    return std::vector<asio::ip::tcp::endpoint>{listener.endpoint(), {asio::ip::make_address("8.8.8.8"), 443}};
  });
  EXPECT_THROW(client.post(post_to("https://push.example.net/x"), std::chrono::seconds(5)), PushDeliveryError);
  EXPECT_FALSE(listener.reached());
}

PushMessage message(const std::string& endpoint, const std::string& player, const std::string& room) {
  return {{endpoint, player, "", ""}, room, "{}", "topic"};
}

TEST(PushQueues, AFullEndpointDropsItsOwnOldestAndNoOtherEndpointsMessage) {
  PushQueues queues({.per_endpoint = 2, .per_player_sending = 2, .total = 100});
  EXPECT_FALSE(queues.add(message("https://a.example/1", "p", "r1")));
  EXPECT_FALSE(queues.add(message("https://b.example/1", "q", "r1")));
  EXPECT_FALSE(queues.add(message("https://a.example/1", "p", "r2")));
  const auto dropped = queues.add(message("https://a.example/1", "p", "r3"));
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->message.room_id, "r1");
  EXPECT_EQ(dropped->message.subscription.endpoint, "https://a.example/1");
  EXPECT_EQ(queues.waiting(), 3u);
  const auto first = queues.take();
  EXPECT_EQ(first->subscription.endpoint, "https://a.example/1");
  EXPECT_EQ(first->room_id, "r2");
  // a.example is busy: its next message waits for it while b.example's goes.
  const auto second = queues.take();
  EXPECT_EQ(second->subscription.endpoint, "https://b.example/1");
  queues.done(*first);
  EXPECT_EQ(queues.take()->room_id, "r3");
}

TEST(PushQueues, OnePlayersEndpointsTakeAtMostTwoSendersAndOthersGoAhead) {
  PushQueues queues({.per_endpoint = 4, .per_player_sending = 2, .total = 100});
  for (const char* endpoint : {"https://hole.example/1", "https://hole.example/2", "https://hole.example/3"})
    queues.add(message(endpoint, "mallory", "r"));
  queues.add(message("https://push.example/ada", "ada", "r"));
  const auto one = queues.take();
  const auto two = queues.take();
  EXPECT_EQ(one->subscription.player_id, "mallory");
  EXPECT_EQ(two->subscription.player_id, "mallory");
  EXPECT_EQ(queues.take()->subscription.player_id, "ada") << "mallory's third waits for one of his own";
  queues.done(*one);
  EXPECT_EQ(queues.take()->subscription.endpoint, "https://hole.example/3");
}

TEST(PushQueues, AllQueuesFullRefuseTheNewMessageAndAStopEndsTheSenders) {
  PushQueues queues({.per_endpoint = 4, .per_player_sending = 2, .total = 2});
  queues.add(message("https://a.example/1", "p", "r1"));
  queues.add(message("https://b.example/1", "q", "r1"));
  const auto refused = queues.add(message("https://c.example/1", "s", "r1"));
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->message.subscription.endpoint, "https://c.example/1");
  queues.stop();
  EXPECT_FALSE(queues.take());
  EXPECT_TRUE(queues.add(message("https://a.example/1", "p", "r2")));
}

}  // namespace
}  // namespace mancala::server
