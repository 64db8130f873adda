// gto.cpp: greedy then oldest. Keeps issuing from the warp it issued last
// while that warp is eligible; otherwise picks the oldest eligible warp
// (smallest dispatch age). The greedy mechanism is greedy.hpp.
#include "sim/timing/scheduler/greedy.hpp"

#include <functional>

namespace simt::timing {

namespace {

class Gto final : public Greedy<OldestFirst> {
public:
    std::string_view name() const override { return "gto"; }
};

}  // namespace

std::unique_ptr<Policy> make_gto_policy() { return std::make_unique<Gto>(); }

}  // namespace simt::timing
