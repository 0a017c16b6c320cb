// overloaded{...}: one visitor from several lambdas, for std::visit over a
// variant. Each alternative needs its own case, so a new alternative (a new
// density model, say) fails to compile wherever it is not handled yet.
#pragma once

namespace trainloop {

template <typename... Cases>
struct overloaded : Cases... {
    using Cases::operator()...;
};
template <typename... Cases>
overloaded(Cases...) -> overloaded<Cases...>;

}  // namespace trainloop
