#include "http_api.hpp"

#include <optional>

#include "api_routes.hpp"
#include "metrics.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

// /healthz and /metrics: plain text, for a load balancer and a scraper.
bool answer_service(const HttpRequest& request, const HttpContext& context, const ApiReply& reply) {
  const std::string_view target = to_std(request.target());
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == "/healthz")  // a load balancer sends no new clients to a degraded process
    reply(context.storage.healthy()
              ? text_response(request, http::status::ok, "text/plain; charset=utf-8", "ok\n")
              : text_response(request, http::status::service_unavailable, "text/plain; charset=utf-8",
                              "degraded: the database does not answer\n"));
  else if (path == "/metrics")  // who may see it is decided before (metrics_visible)
    reply(text_response(request, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                        context.metrics.render()));
  else
    return false;
  return true;
}

void answer(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context, const std::string& address,
            const ApiReply& reply, bool wait_here) {
  if (answer_service(*request, context, reply)) return;
  dispatch_api(ApiCall{request, context, address, reply, wait_here});
}

}  // namespace

// An address in one spelling (IPv4 seen through an IPv6 socket, ::ffff:a.b.c.d, as a.b.c.d);
// nothing for text that is no address, which must never become a rate limit's key.
static std::optional<net::ip::address> address_of(std::string_view text) {
  error_code error;
  const auto address = net::ip::make_address(std::string(text), error);
  if (error) return std::nullopt;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    return net::ip::address(net::ip::make_address_v4(net::ip::v4_mapped, address.to_v6()));
  return address;
}

bool is_trusted_proxy(const std::string& peer, const std::vector<std::string>& trusted) {
  const auto address = address_of(peer);
  return address && std::any_of(trusted.begin(), trusted.end(),
                                [&](const std::string& proxy) { return address_of(proxy) == address; });
}

// X-Forwarded-For is one list however many field lines carry it (RFC 9110, 5.3): each proxy
// appends the address it saw, so only the entries on the right were written by proxies we
// trust. Read from the right, the client is the first entry that is not itself a trusted proxy;
// an entry that is no address stops the walk at the last hop known to be real.
std::string client_address(const HttpRequest& request, const std::string& peer, const std::vector<std::string>& trusted) {
  if (!is_trusted_proxy(peer, trusted)) return peer;
  std::vector<std::string_view> hops;
  const auto [first, last] = request.equal_range("X-Forwarded-For");
  for (auto field = first; field != last; ++field) {
    std::string_view rest = to_std(field->value());
    for (;;) {
      const auto comma = rest.find(',');
      std::string_view hop = rest.substr(0, comma);
      while (!hop.empty() && (hop.front() == ' ' || hop.front() == '\t')) hop.remove_prefix(1);
      while (!hop.empty() && (hop.back() == ' ' || hop.back() == '\t')) hop.remove_suffix(1);
      hops.push_back(hop);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  std::string client = address_of(peer)->to_string();
  for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
    const auto address = address_of(*hop);
    if (!address) break;
    client = address->to_string();
    if (!is_trusted_proxy(client, trusted)) break;
  }
  return client;
}

bool metrics_visible(const std::string& peer, bool forwarded, bool public_metrics) {
  if (public_metrics) return true;
  if (forwarded) return false;
  error_code error;
  auto address = net::ip::make_address(peer, error);
  if (error) return false;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    address = net::ip::make_address_v4(net::ip::v4_mapped, address.to_v6());
  return address.is_loopback();
}

bool is_api_target(std::string_view path) {
  return path == "/healthz" || path == "/metrics" || path.substr(0, 5) == "/api/" || path == "/api";
}

StringResponse handle_api(const HttpRequest& request, const HttpContext& context, const std::string& address) {
  std::optional<StringResponse> out;
  answer(std::make_shared<const HttpRequest>(request), context, address,
         [&out](StringResponse response) { out = std::move(response); }, /*wait_here=*/true);
  if (out) return std::move(*out);
  return error_response(request, {http::status::internal_server_error, "internal",
                                  "this request is answered by a worker; ask through handle_api_async"});
}

void handle_api_async(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                      const std::string& address, const ApiReply& reply) {
  answer(request, context, address, reply, /*wait_here=*/false);
}

}  // namespace mancala::server
