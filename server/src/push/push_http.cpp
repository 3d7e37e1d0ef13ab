#include "push_http.hpp"

#include <algorithm>
#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>
#include <arpa/inet.h>
#include <cctype>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <unistd.h>

#include "net.hpp"

namespace mancala::server {
namespace {

namespace ssl = net::ssl;
using Deadline = std::chrono::steady_clock::time_point;
constexpr std::size_t kMaxAnswer = 16 * 1024;  // a push service says little; the rest is not read

constexpr std::size_t kMaxHostName = 253;  // RFC 1035, written without the final dot
constexpr std::size_t kMaxLabel = 63;

std::string lower_case(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

std::vector<std::string_view> labels_of(std::string_view host) {
  std::vector<std::string_view> labels;
  for (std::size_t start = 0;;) {
    const auto dot = host.find('.', start);
    labels.push_back(host.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return labels;
    start = dot + 1;
  }
}

// An address written as a name: what inet_aton or a browser would read as IPv4 (127.1,
// 2130706433, 0x7f000001, 0177.0.0.1: the WHATWG URL rule is that a host whose last label is a
// number, decimal or 0x hex, is an address) or an IPv6 literal.
bool is_address_literal(const std::string& host) {
  error_code error;
  net::ip::make_address(host, error);
  if (!error) return true;
  in_addr parsed{};
  if (inet_aton(host.c_str(), &parsed) != 0) return true;
  const std::string_view last = labels_of(host).back();
  const bool decimal = all_digits(last);
  const bool hex = last.size() >= 2 && last[0] == '0' && last[1] == 'x' &&
                   std::all_of(last.begin() + 2, last.end(), [](unsigned char c) { return std::isxdigit(c); });
  return decimal || hex;
}

// Letters, digits and inner hyphens, 1 to 63 of them a label, at least two labels.
bool is_dns_name(std::string_view host) {
  const auto labels = labels_of(host);
  return host.size() <= kMaxHostName && labels.size() >= 2 &&
         std::all_of(labels.begin(), labels.end(), [](std::string_view label) {
           return !label.empty() && label.size() <= kMaxLabel && label.front() != '-' && label.back() != '-' &&
                  std::all_of(label.begin(), label.end(), [](unsigned char c) { return std::isalnum(c) || c == '-'; });
         });
}

// Names that mean this machine or its network, never a push service (RFC 6761, 6762, ICANN's
// .internal; .arpa holds home.arpa, RFC 8375, and the reverse names of addresses).
bool is_local_name(std::string_view host) {
  static constexpr std::string_view kLocal[] = {"localhost", "localdomain", "local", "internal",
                                               "lan",       "home",        "arpa",  "invalid"};
  return std::any_of(std::begin(kLocal), std::end(kLocal), [&](std::string_view name) {
    return host == name || ends_with(host, "." + std::string(name));
  });
}

// This machine's own name (as gethostname gives it, lower case): it resolves to this machine.
const std::string& own_host_name() {
  static const std::string name = [] {
    char buffer[256] = {};
    return gethostname(buffer, sizeof buffer - 1) == 0 ? lower_case(buffer) : std::string();
  }();
  return name;
}

// Why `host` cannot name a push service; empty when it can. `host` is lower case.
std::string host_problem(const std::string& host) {
  if (host.empty()) return "the push endpoint has no host";
  if (host.back() == '.') return "a push endpoint's host is written without a final dot";
  if (is_address_literal(host)) return "a push endpoint names its service by host name, not by address";
  if (!is_dns_name(host)) return "the push endpoint's host is not a host name on the internet";
  if (is_local_name(host) || host == own_host_name())
    return "the push endpoint's host is a local name, not a push service on the internet";
  return "";
}

// A range of addresses, the first one written out and the length of the prefix they share.
struct AddressRange {
  const char* first;
  int prefix_bits;
};

// IANA's IPv4 Special-Purpose Address Registry (RFC 6890 and after), with multicast and the
// reserved 240/4 (which holds the broadcast address): none of them is a push service.
constexpr AddressRange kNotPublicV4[] = {
    {"0.0.0.0", 8},       {"10.0.0.0", 8},      {"100.64.0.0", 10},   {"127.0.0.0", 8},
    {"169.254.0.0", 16},  {"172.16.0.0", 12},   {"192.0.0.0", 24},    {"192.0.2.0", 24},
    {"192.31.196.0", 24}, {"192.52.193.0", 24}, {"192.88.99.0", 24},  {"192.168.0.0", 16},
    {"192.175.48.0", 24}, {"198.18.0.0", 15},   {"198.51.100.0", 24}, {"203.0.113.0", 24},
    {"224.0.0.0", 4},     {"240.0.0.0", 4},
};

// Inside the global unicast 2000::/3 (the only IPv6 allowed at all), IANA's IPv6 Special-Purpose
// Address Registry: the IETF's 2001::/23 (Teredo, benchmarking, ORCHID), documentation, AS112.
// 2002::/16 (6to4) and 64:ff9b::/96 (NAT64) are judged by the IPv4 address they carry.
constexpr AddressRange kNotPublicV6[] = {
    {"2001::", 23}, {"2001:db8::", 32}, {"2620:4f:8000::", 48}, {"3fff::", 20},
};

template <class Bytes>
bool in_range(const Bytes& address, const Bytes& first, int prefix_bits) {
  for (std::size_t i = 0; i < address.size() && prefix_bits > 0; ++i, prefix_bits -= 8) {
    const unsigned mask = prefix_bits >= 8 ? 0xffu : (0xffu << (8 - prefix_bits)) & 0xffu;
    if ((address[i] & mask) != (first[i] & mask)) return false;
  }
  return true;
}

bool in_any(const net::ip::address& address, const AddressRange* begin, const AddressRange* end) {
  return std::any_of(begin, end, [&](const AddressRange& range) {
    const auto first = net::ip::make_address(range.first);
    return address.is_v4() ? in_range(address.to_v4().to_bytes(), first.to_v4().to_bytes(), range.prefix_bits)
                           : in_range(address.to_v6().to_bytes(), first.to_v6().to_bytes(), range.prefix_bits);
  });
}

// The IPv4 address an IPv6 one stands for, when it is a form of one: mapped (::ffff:a.b.c.d),
// compatible (::a.b.c.d, deprecated), NAT64's well-known prefix (64:ff9b::a.b.c.d) or 6to4
// (2002:aabb:ccdd::/48).
std::optional<net::ip::address_v4> embedded_v4(const net::ip::address_v6& address) {
  const auto bytes = address.to_bytes();
  const auto v4_at = [&](std::size_t at) {
    return net::ip::address_v4(net::ip::address_v4::bytes_type{bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]});
  };
  const net::ip::address_v6::bytes_type nat64 = net::ip::make_address_v6("64:ff9b::").to_bytes();
  if (address.is_v4_mapped() || in_range(bytes, net::ip::address_v6::bytes_type{}, 96)) return v4_at(12);
  if (in_range(bytes, nat64, 96)) return v4_at(12);
  if (bytes[0] == 0x20 && bytes[1] == 0x02) return v4_at(2);
  return std::nullopt;
}

// Runs the pending operation until it completes or the deadline passes; then `cancel` ends it.
template <class Cancel>
void finish(net::io_context& io, Deadline deadline, const error_code& error, const char* step, Cancel cancel) {
  io.restart();
  io.run_until(deadline);
  if (!io.stopped()) {
    cancel();
    io.restart();
    io.run();
    throw PushDeliveryError(std::string(step) + " timed out");
  }
  if (error) throw PushDeliveryError(std::string(step) + ": " + error.message());
}

http::request<http::vector_body<unsigned char>> request_of(const PushPost& post) {
  http::request<http::vector_body<unsigned char>> request{http::verb::post, post.url.target, 11};
  request.set(http::field::host, post.url.host);
  request.set(http::field::user_agent, "mancala-server");
  for (const auto& [name, value] : post.fields) request.set(name, value);
  request.body() = post.body;
  request.prepare_payload();
  return request;
}

template <class Stream>
int exchange(net::io_context& io, Stream& stream, const PushPost& post, Deadline deadline) {
  const auto close = [&] { beast::get_lowest_layer(stream).close(); };
  error_code error;
  auto request = request_of(post);
  http::async_write(stream, request, [&](error_code e, std::size_t) { error = e; });
  finish(io, deadline, error, "sending", close);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxAnswer);
  http::async_read(stream, buffer, parser, [&](error_code e, std::size_t) { error = e; });
  finish(io, deadline, error, "reading the answer", close);
  return static_cast<int>(parser.get().result_int());
}

}  // namespace

struct PushHttpClient::Tls {
  ssl::context context{ssl::context::tls_client};
};

// The look-ups under way, each on a thread of its own (getaddrinfo cannot be cancelled): a
// post waits for its name's answer until its deadline and then leaves the thread behind, which
// ends when the resolver gives up. Posts to one name at once share its look-up, so a push
// service that many subscriptions use costs one thread, not one per post.
struct PushHttpClient::LookUps {
  using Answer = std::shared_future<std::vector<tcp::endpoint>>;

  explicit LookUps(PushResolver r) : resolver(std::move(r)) {}

  // The answer for host:port, a look-up already under way or a new one.
  static Answer start(const std::shared_ptr<LookUps>& self, const std::string& host, const std::string& port) {
    const std::string key = host + ":" + port;
    const std::lock_guard lock(self->mutex);
    if (const auto found = self->pending.find(key); found != self->pending.end()) return found->second;
    if (self->pending.size() >= kMaxLookUps)
      throw PushDeliveryError("too many push services' names are being looked up at once (" +
                              std::to_string(kMaxLookUps) + "); not looking up " + host);
    auto promise = std::make_shared<std::promise<std::vector<tcp::endpoint>>>();
    Answer answer = promise->get_future().share();
    try {
      std::thread([self, key, host, port, promise] { self->run(key, host, port, *promise); }).detach();
    } catch (const std::system_error& e) {
      throw PushDeliveryError(std::string("could not start looking up the push service: ") + e.what());
    }
    self->pending.emplace(key, answer);
    return answer;
  }

  void run(const std::string& key, const std::string& host, const std::string& port,
           std::promise<std::vector<tcp::endpoint>>& promise) {
    try {
      promise.set_value(resolver(host, port));
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
    const std::lock_guard lock(mutex);
    pending.erase(key);
  }

  const PushResolver resolver;
  std::mutex mutex;
  std::map<std::string, Answer> pending;  // by host:port
};

std::string PushUrl::origin() const {
  const bool default_port = port == (tls ? "443" : "80");
  return (tls ? "https://" : "http://") + host + (default_port ? "" : ":" + port);
}

bool is_public_address(const net::ip::address& address) {
  if (address.is_v4()) return !in_any(address, std::begin(kNotPublicV4), std::end(kNotPublicV4));
  const net::ip::address_v6 v6 = address.to_v6();
  if (const auto v4 = embedded_v4(v6)) return is_public_address(*v4);
  const bool global_unicast = (v6.to_bytes()[0] & 0xe0) == 0x20;  // 2000::/3
  return global_unicast && !in_any(address, std::begin(kNotPublicV6), std::end(kNotPublicV6));
}

PushUrlCheck check_push_endpoint(const std::string& endpoint, const PushEndpointRules& rules) {
  constexpr std::string_view kHttps = "https://";
  constexpr std::string_view kHttp = "http://";
  PushUrl url;
  std::string_view rest = endpoint;
  if (rest.substr(0, kHttps.size()) == kHttps) {
    rest.remove_prefix(kHttps.size());
  } else if (rules.allow_loopback_http && rest.substr(0, kHttp.size()) == kHttp) {
    rest.remove_prefix(kHttp.size());
    url.tls = false;
  } else {
    return {std::nullopt, "a push endpoint must be an https:// URL"};
  }
  const auto slash = std::min(rest.find('/'), rest.size());
  const std::string_view authority = rest.substr(0, slash);
  url.target = slash < rest.size() ? std::string(rest.substr(slash)) : "/";
  if (authority.find_first_of("@[]\\?#") != std::string_view::npos)
    return {std::nullopt, "a push endpoint names its service by host name alone (no user, no [address])"};
  const auto colon = authority.rfind(':');
  url.host = lower_case(authority.substr(0, colon));
  url.port = colon == std::string_view::npos ? (url.tls ? "443" : "") : std::string(authority.substr(colon + 1));
  if (!url.tls) {  // a test's own push service
    if (url.host != "127.0.0.1" || !all_digits(url.port) || url.port.size() > 5)
      return {std::nullopt, "only http://127.0.0.1:<port> is allowed for tests"};
  } else if (url.port != "443") {
    return {std::nullopt, "a push endpoint uses https's own port, 443"};
  } else if (std::string problem = host_problem(url.host); !problem.empty()) {
    return {std::nullopt, std::move(problem)};
  }
  if (std::any_of(url.target.begin(), url.target.end(), [](unsigned char c) { return c <= ' ' || c >= 0x7f; }))
    return {std::nullopt, "the push endpoint's path has characters a URL may not have"};
  return {std::move(url), ""};
}

std::vector<tcp::endpoint> resolve_with_system(const std::string& host, const std::string& port) {
  net::io_context io;
  tcp::resolver resolver(io);
  std::vector<tcp::endpoint> found;
  for (const auto& entry : resolver.resolve(host, port)) found.push_back(entry.endpoint());
  return found;
}

PushHttpClient::PushHttpClient(PushResolver resolver)
    : tls_(std::make_unique<Tls>()), look_ups_(std::make_shared<LookUps>(std::move(resolver))) {
  tls_->context.set_default_verify_paths();
  tls_->context.set_verify_mode(ssl::verify_peer);
}

PushHttpClient::~PushHttpClient() = default;

// The one look-up of the post: every address must be public, or nothing is tried (a name with
// one private address among public ones could be a rebinding attack's second answer).
std::vector<tcp::endpoint> PushHttpClient::public_addresses(const PushUrl& url, Deadline deadline) const {
  const LookUps::Answer answer = LookUps::start(look_ups_, url.host, url.port);
  if (answer.wait_until(deadline) != std::future_status::ready)
    throw PushDeliveryError("looking up the push service timed out (its name server did not answer)");
  std::vector<tcp::endpoint> addresses;
  try {
    addresses = answer.get();
  } catch (const boost::system::system_error& e) {
    throw PushDeliveryError("looking up the push service: " + e.code().message());
  }
  if (addresses.empty()) throw PushDeliveryError("the push service's name has no address");
  if (!url.tls) return addresses;  // a test's own service on 127.0.0.1 (--test-push-http-loopback)
  for (const auto& address : addresses)
    if (!is_public_address(address.address()))
      throw PushDeliveryError(url.host + " has the address " + address.address().to_string() +
                              ", which is not on the public internet: not connecting");
  return addresses;
}

int PushHttpClient::post(const PushPost& post, std::chrono::milliseconds timeout) const {
  const Deadline deadline = std::chrono::steady_clock::now() + timeout;
  const std::vector<tcp::endpoint> addresses = public_addresses(post.url, deadline);
  net::io_context io;
  error_code error;
  // Exactly the addresses checked above: connecting by name would look it up again.
  const auto connect = [&](beast::tcp_stream& socket) {
    socket.async_connect(addresses, [&](error_code e, const tcp::endpoint&) { error = e; });
    finish(io, deadline, error, "connecting to the push service", [&] { socket.close(); });
  };
  if (!post.url.tls) {
    beast::tcp_stream stream(io);
    connect(stream);
    return exchange(io, stream, post, deadline);
  }
  beast::ssl_stream<beast::tcp_stream> stream(io, tls_->context);
  if (!SSL_set_tlsext_host_name(stream.native_handle(), post.url.host.c_str()))
    throw PushDeliveryError("could not name the push service's host for TLS");
  stream.set_verify_callback(ssl::host_name_verification(post.url.host));
  connect(beast::get_lowest_layer(stream));
  stream.async_handshake(ssl::stream_base::client, [&](error_code e) { error = e; });
  finish(io, deadline, error, "the TLS handshake with the push service", [&] { beast::get_lowest_layer(stream).close(); });
  return exchange(io, stream, post, deadline);
}

}  // namespace mancala::server
