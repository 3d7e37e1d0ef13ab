#pragma once
// std::visit over a variant with one lambda per alternative: Overloaded{[](A&) {…}, [](B&) {…}}.

namespace mancala::server {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace mancala::server
