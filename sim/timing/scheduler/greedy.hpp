// greedy.hpp: the greedy policies. Each keeps issuing from the warp it issued last while that
// warp is eligible; otherwise it picks by dispatch age: the oldest (smallest age: gto.cpp) or
// the youngest (largest age: gty.cpp). One implementation, the age order a template argument.
#pragma once

#include "sim/timing/scheduler/policy.hpp"

#include <bit>

namespace simt::timing {

// Prefer(a, b): is age a preferred to age b? (std::less: oldest first; std::greater: youngest.)
template <class Prefer>
class Greedy : public Policy {
public:
    int pick(std::span<const WarpView> warps, uint64_t) override {
        int best = -1;
        for (int i = 0; i < int(warps.size()); ++i) {
            if (!warps[i].eligible) continue;
            if (has_last_ && warps[i].age == last_age_) return i;
            if (best < 0 || Prefer{}(warps[i].age, warps[best].age)) best = i;
        }
        if (best >= 0) { last_age_ = warps[best].age; has_last_ = true; }
        return best;
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
                    const int i = std::countr_zero(m);
                    if (warps[i].age == last_age_) { hint_ = uint32_t(i); return i; }
                }
            }
        }
        // The preferred eligible warp (no branch on the ages: they are hard to predict).
        int pick = std::countr_zero(eligible);
        uint64_t best = warps[pick].age;
        for (uint64_t m = eligible & (eligible - 1); m; m &= m - 1) {
            const int i = std::countr_zero(m);
            const uint64_t a = warps[i].age;
            const bool better = Prefer{}(a, best);
            best = better ? a : best;
            pick = better ? i : pick;
        }
        last_age_ = best;
        has_last_ = true;
        hint_ = uint32_t(pick);
        return pick;
    }

private:
    uint64_t last_age_ = 0;
    bool has_last_ = false;
    uint32_t hint_ = 0;  // pick_mask: where the warp of last_age_ was last seen
};

}  // namespace simt::timing
