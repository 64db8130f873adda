// gto.cpp: greedy then oldest. Keeps issuing from the warp it issued last
// while that warp is eligible; otherwise picks the oldest eligible warp
// (smallest dispatch age).
#include "sim/timing/scheduler/policy.hpp"

#include <bit>

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
    int pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t) override {
        if (warps.size() < 64) eligible &= (1ull << warps.size()) - 1;
        if (!eligible) return -1;
        if (has_last_) {
            // The greedy warp usually keeps its index (ages are unique, so if it
            // is there and not eligible, no other eligible warp is it).
            if (hint_ < warps.size() && warps[hint_].age == last_age_) {
                if (eligible >> hint_ & 1) return int(hint_);
            } else {
                for (uint64_t m = eligible; m; m &= m - 1) {
                    int i = std::countr_zero(m);
                    if (warps[i].age == last_age_) { hint_ = uint32_t(i); return i; }
                }
            }
        }
        // The oldest eligible warp (no branch on the ages: they are hard to predict).
        int oldest = std::countr_zero(eligible);
        uint64_t best = warps[oldest].age;
        for (uint64_t m = eligible & (eligible - 1); m; m &= m - 1) {
            int i = std::countr_zero(m);
            uint64_t a = warps[i].age;
            bool older = a < best;
            best = older ? a : best;
            oldest = older ? i : oldest;
        }
        last_age_ = best;
        has_last_ = true;
        hint_ = uint32_t(oldest);
        return oldest;
    }
    std::string_view name() const override { return "gto"; }

private:
    uint64_t last_age_ = 0;
    bool has_last_ = false;
    uint32_t hint_ = 0;  // pick_mask: where the warp of last_age_ was last seen
};

}  // namespace

std::unique_ptr<Policy> make_gto_policy() { return std::make_unique<Gto>(); }

}  // namespace simt::timing
