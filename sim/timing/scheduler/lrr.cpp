// lrr.cpp: loose round robin. Picks the first eligible warp after the slot
// picked last (wrapping), so every eligible warp is served within one round.
#include "sim/timing/scheduler/policy.hpp"

#include <bit>

namespace simt::timing {

namespace {

class Lrr final : public Policy {
public:
    int pick(std::span<const WarpView> warps, uint64_t) override {
        int first = -1, after = -1;
        for (int i = 0; i < int(warps.size()); ++i) {
            if (!warps[i].eligible) continue;
            if (first < 0) first = i;
            if (after < 0 && (!has_last_ || warps[i].slot > last_slot_)) after = i;
        }
        int chosen = after >= 0 ? after : first;
        if (chosen >= 0) { last_slot_ = warps[chosen].slot; has_last_ = true; }
        return chosen;
    }
    int pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t, uint64_t) override {
        if (warps.size() < 64) eligible &= (1ull << warps.size()) - 1;
        if (!eligible) return -1;
        int chosen = std::countr_zero(eligible);  // first
        if (has_last_) {
            for (uint64_t m = eligible; m; m &= m - 1) {
                int i = std::countr_zero(m);
                if (warps[i].slot > last_slot_) { chosen = i; break; }
            }
        }
        last_slot_ = warps[chosen].slot;
        has_last_ = true;
        return chosen;
    }
    std::string_view name() const override { return "lrr"; }

private:
    uint32_t last_slot_ = 0;
    bool has_last_ = false;
};

}  // namespace

std::unique_ptr<Policy> make_lrr_policy() { return std::make_unique<Lrr>(); }

}  // namespace simt::timing
