#include "http_answers.hpp"

#include "connection.hpp"
#include "log.hpp"
#include "static_files.hpp"
#include "storage.hpp"

namespace mancala::server {

HttpError bad_request(std::string message) { return {http::status::bad_request, "bad_request", std::move(message)}; }

HttpError not_found(std::string message) { return {http::status::not_found, "not_found", std::move(message)}; }

HttpError forbidden_origin(std::string_view what) {
  return {http::status::forbidden, "forbidden", "this Origin may not " + std::string(what) + " here"};
}

HttpError rate_limited(std::string_view what, std::chrono::seconds wait) {
  return {http::status::too_many_requests, "rate_limited",
          "too many " + std::string(what) + "; try again in " + std::to_string(wait.count()) + " s", wait};
}

HttpError method_not_allowed(std::string_view allowed) {
  return {http::status::method_not_allowed, "method_not_allowed", "use " + std::string(allowed) + " here", {},
          std::string(allowed)};
}

StringResponse error_response(const HttpRequest& request, const HttpError& error) {
  const Json body{{"error", {{"code", error.code}, {"message", error.message}}}};
  // `replace`: a message quoting the request (a game id) never makes the answer fail.
  auto response = text_response(request, error.status, "application/json",
                                body.dump(-1, ' ', false, Json::error_handler_t::replace));
  if (error.retry_after) response.set(http::field::retry_after, std::to_string(error.retry_after->count()));
  if (!error.allow.empty()) response.set(http::field::allow, error.allow);
  return response;
}

StringResponse json_response(const HttpRequest& request, http::status status, const Json& body) {
  return text_response(request, status, "application/json", to_json_text(body));
}

StringResponse text_response(const HttpRequest& request, http::status status, std::string_view content_type,
                             std::string body) {
  StringResponse response{status, request.version()};
  response.set(http::field::server, "mancala-server");
  response.set(http::field::content_type, beast::string_view(content_type.data(), content_type.size()));
  response.set(http::field::cache_control, "no-store");
  add_security_headers(response);
  response.keep_alive(request.keep_alive());
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

void answer_safely(const HttpRequest& request, const ApiReply& reply, const std::function<void()>& answer) {
  const auto target = [&] { return std::string(to_std(request.target()).substr(0, 256)); };
  try {
    answer();
  } catch (const HttpError& e) {
    reply(error_response(request, e));
  } catch (const Unavailable& e) {
    log_warn("http_api_unavailable", {{"target", target()}, {"message", e.what()}});
    reply(error_response(request, {http::status::service_unavailable, "unavailable",
                                   "the database cannot be reached right now; try again shortly",
                                   std::chrono::seconds((kRetryAfterMs + 999) / 1000)}));
  } catch (const std::exception& e) {
    log_error("http_api_fault", {{"target", target()}, {"message", e.what()}});
    reply(error_response(request, {http::status::internal_server_error, "internal",
                                   "the server could not answer this request; try again, and tell the operator if "
                                   "it happens again"}));
  }
}

}  // namespace mancala::server
