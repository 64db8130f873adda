// two_level.cpp: two-level scheduling (Narasiman et al., MICRO 2011; Gebhart
// et al., ISCA 2011). Only warps of a small active set (scheduler.active_set)
// compete for issue, round robin among them. A warp leaves the active set when
// it waits on a long-latency event (long scoreboard, barrier, drain) or is no
// longer resident; free places are refilled with the oldest pending warps that
// are not in a long wait. Eligible warps outside the active set are not picked
// (the cost of the policy: it may leave the issue slot empty).
#include "sim/timing/scheduler/policy.hpp"

#include <algorithm>
#include <vector>

namespace simt::timing {

namespace {

class TwoLevel final : public Policy {
public:
    explicit TwoLevel(uint32_t active_set) : size_(std::max<uint32_t>(1, active_set)) {
        active_.reserve(size_);
    }

    int pick(std::span<const WarpView> warps, uint64_t) override {
        refresh(warps);
        // Round robin over the active set, after the warp picked last.
        int first = -1, after = -1;
        for (int i = 0; i < int(warps.size()); ++i) {
            if (!warps[i].eligible || !is_active(warps[i].age)) continue;
            if (first < 0) first = i;
            if (after < 0 && (!has_last_ || warps[i].slot > last_slot_)) after = i;
        }
        int chosen = after >= 0 ? after : first;
        if (chosen >= 0) { last_slot_ = warps[chosen].slot; has_last_ = true; }
        return chosen;
    }
    std::string_view name() const override { return "two_level"; }

private:
    bool is_active(uint64_t age) const {
        return std::find(active_.begin(), active_.end(), age) != active_.end();
    }

    // Drops warps that left or wait long; promotes the oldest ready pending warps.
    void refresh(std::span<const WarpView> warps) {
        std::erase_if(active_, [&](uint64_t age) {
            for (const auto& w : warps)
                if (w.resident && w.age == age) return w.long_wait;
            return true;  // no longer resident
        });
        while (active_.size() < size_) {
            const WarpView* best = nullptr;
            for (const auto& w : warps)
                if (w.resident && !w.long_wait && !is_active(w.age) && (!best || w.age < best->age)) best = &w;
            if (!best) break;
            active_.push_back(best->age);
        }
    }

    uint32_t size_;
    std::vector<uint64_t> active_;  // ages of the active warps
    uint32_t last_slot_ = 0;
    bool has_last_ = false;
};

}  // namespace

std::unique_ptr<Policy> make_two_level_policy(uint32_t active_set) {
    return std::make_unique<TwoLevel>(active_set);
}

}  // namespace simt::timing
