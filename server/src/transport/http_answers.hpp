#pragma once
// What every answer of the HTTP API is made with, and the one shape of its errors (issue 50):
//   {"error": {"code": "<stable snake_case>", "message": "<words a person can act on>"}}
// with the status, `Retry-After` (seconds) when a limit or a full queue refused the request and
// `Allow` on a 405. Every API (http_api, account_api, analysis_api) and the HTTP session answer
// their errors through error_response; protocol/README.md ("Errors of the HTTP API") lists the
// codes.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "mancala/json.hpp"
#include "net.hpp"

namespace mancala::server {

using HttpRequest = http::request<http::string_body>;
using StringResponse = http::response<http::string_body>;
// How an answer is given: at once on the reader thread, or later from a worker.
using ApiReply = std::function<void(StringResponse)>;

// A request refused: thrown by the routes and answered by error_response.
struct HttpError {
  http::status status;
  std::string code;     // for programs: stable, snake_case
  std::string message;  // for people: what went wrong and what to do
  std::optional<std::chrono::seconds> retry_after = {};  // sent as Retry-After
  std::string allow = {};                                // a 405's Allow: the methods the path has
};

// The usual refusals, worded alike everywhere.
HttpError bad_request(std::string message);
HttpError not_found(std::string message);
HttpError forbidden_origin(std::string_view what);  // 403: "this Origin may not <what> here"
// 429 rate_limited: "too many <what>; try again in N s", with Retry-After.
HttpError rate_limited(std::string_view what, std::chrono::seconds wait);
// 405 method_not_allowed with Allow: `allowed` as an Allow field says it ("GET, HEAD").
HttpError method_not_allowed(std::string_view allowed);

// The one function that makes an error answer. Built so that it cannot throw itself: it
// answers from catch blocks.
StringResponse error_response(const HttpRequest& request, const HttpError& error);
StringResponse json_response(const HttpRequest& request, http::status status, const Json& body);
StringResponse text_response(const HttpRequest& request, http::status status, std::string_view content_type,
                             std::string body);

// Runs `answer`, turning what it throws (an HttpError, an unreachable database, a fault) into
// the error answer given to `reply`.
void answer_safely(const HttpRequest& request, const ApiReply& reply, const std::function<void()>& answer);

}  // namespace mancala::server
