// gto.cpp: greedy then oldest. Keeps issuing from the warp it issued last
// while that warp is eligible; otherwise picks the oldest eligible warp
// (smallest dispatch age).
#include "sim/timing/scheduler/policy.hpp"

namespace simt::timing {

namespace {

class Gto final : public Policy {
public:
    int pick(std::span<const WarpView> warps, uint64_t) override {
        int oldest = -1;
        for (int i = 0; i < int(warps.size()); ++i) {
            if (!warps[i].eligible) continue;
            if (has_last_ && warps[i].age == last_age_) return i;
            if (oldest < 0 || warps[i].age < warps[oldest].age) oldest = i;
        }
        if (oldest >= 0) { last_age_ = warps[oldest].age; has_last_ = true; }
        return oldest;
    }
    std::string_view name() const override { return "gto"; }

private:
    uint64_t last_age_ = 0;
    bool has_last_ = false;
};

}  // namespace

std::unique_ptr<Policy> make_gto_policy() { return std::make_unique<Gto>(); }

}  // namespace simt::timing
