// greedy.hpp: the greedy policies. Each keeps issuing from the warp it issued last while that
// warp is eligible; otherwise it picks the eligible warp of the smallest rank: the oldest
// (rank = age: gto.cpp), the youngest (gty.cpp), or the youngest warp of the oldest block
// (gtb.cpp). One implementation, the rank a template argument.
#pragma once

#include "sim/timing/scheduler/policy.hpp"

#include <bit>

namespace simt::timing {

// Rank{}(view): the warp's priority when the greedy warp cannot issue; the smallest rank wins.
template <class Rank>
class Greedy : public Policy {
public:
    int pick(std::span<const WarpView> warps, uint64_t) override {
        int best = -1;
        for (int i = 0; i < int(warps.size()); ++i) {
            if (!warps[i].eligible) continue;
            if (has_last_ && warps[i].age == last_age_) return i;
            if (best < 0 || Rank{}(warps[i]) < Rank{}(warps[best])) best = i;
        }
        if (best >= 0) { last_age_ = warps[best].age; has_last_ = true; }
        return best;
    }
    int pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t, uint64_t) override {
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
        // The preferred eligible warp (no branch on the ranks: they are hard to predict).
        int pick = std::countr_zero(eligible);
        uint64_t best = Rank{}(warps[pick]);
        for (uint64_t m = eligible & (eligible - 1); m; m &= m - 1) {
            const int i = std::countr_zero(m);
            const uint64_t r = Rank{}(warps[i]);
            const bool better = r < best;
            best = better ? r : best;
            pick = better ? i : pick;
        }
        last_age_ = warps[pick].age;
        has_last_ = true;
        hint_ = uint32_t(pick);
        return pick;
    }

private:
    uint64_t last_age_ = 0;  // the greedy warp
    bool has_last_ = false;
    uint32_t hint_ = 0;  // pick_mask: where the warp of last_age_ was last seen
};

// The ranks of the three greedy policies.
struct OldestFirst {
    uint64_t operator()(const WarpView& w) const { return w.age; }
};
struct YoungestFirst {
    uint64_t operator()(const WarpView& w) const { return ~w.age; }
};
// The oldest block first (blocks are dispatched in launch order), its youngest warp first.
struct OldestBlockYoungestWarp {
    uint64_t operator()(const WarpView& w) const { return w.block << 32 | (0xffffffffull - (w.age & 0xffffffffull)); }
};

}  // namespace simt::timing
