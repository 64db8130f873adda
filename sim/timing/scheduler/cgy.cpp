// cgy.cpp: compiler-guided, youngest first, oldest block first (scheduler.policy: cgy).
//
// What the H200 shows (calib/kernels/warporder.cu, calib/results/warporder/, calib/README.md
// "Warp order"): of two or more blocks on an SM the older block's warps take the issue slots
// (its younger blocks' warps issue only in the gaps); within a block, warps whose instructions
// yield (a dependent FFMA chain: ptxas clears the yield bit on every FFMA with a stall count of 3
// or more) share the slots evenly, while warps that never yield (independent chains) are served
// youngest first, a few at a time.
//
// The policy: each warp has a rank within its block, youngest first at dispatch. The warp picked
// last goes on while it is eligible and its instruction did not yield (scheduler.greedy). Else, of
// the best-ranked resident warps (the oldest block's first) a window of `scheduler.window` is served
// round robin (the one that issued least recently), and when none of them is eligible the
// best-ranked eligible warp issues. A warp whose issued instruction yields (DecodedInst::yields)
// goes to the back of its block's order until it issues one that does not; such a warp, when it
// belongs to the senior block and has waited `scheduler.starve_cycles`, takes the slot. Huerta et
// al. (arXiv 2503.20481, 2025) describe the issue scheduler as compiler guided, greedy then
// youngest; the window and the block order are our reading of the H200's warp order.
#include "sim/timing/scheduler/policy.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace simt::timing {

namespace {

class Cgy final : public Policy {
public:
    Cgy(uint32_t window, bool yield_demotes, uint32_t starve_cycles, bool greedy)
        : window_(std::max<uint32_t>(1, window)), demote_(yield_demotes), starve_(starve_cycles), greedy_(greedy) {}

    int pick(std::span<const WarpView> warps, uint64_t cycle) override {
        const uint32_t n = uint32_t(std::min<size_t>(warps.size(), kMax));
        uint64_t eligible = 0;
        for (uint32_t i = 0; i < n; ++i) eligible |= uint64_t(warps[i].eligible) << i;
        return choose(eligible, warps, cycle);
    }
    // The same choice without a copy of the views (the sub-partition's call).
    int pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t cycle) override {
        return choose(eligible, warps, cycle);
    }
    std::string_view name() const override { return "cgy"; }

private:
    static constexpr uint32_t kMax = 64;

    // `eligible`: bit i set when warps[i] may issue (the views' own flags are not read; bits from
    // the view count on are ignored).
    int choose(uint64_t eligible, std::span<const WarpView> warps, uint64_t cycle) {
        const uint32_t n = uint32_t(std::min<size_t>(warps.size(), kMax));
        if (n < 64) eligible &= (1ull << n) - 1;
        refresh(warps, n);
        if (!eligible) return -1;
        if (const int s = starved(eligible, warps, cycle); s >= 0) return chose(warps, uint32_t(s));
        // Greedy: the warp picked last goes on while it can and its instruction did not yield.
        if (greedy_ && has_last_ && last_ < n && (eligible >> last_ & 1) && warps[last_].age == last_age_ &&
            !warps[last_].yielded)
            return int(last_);
        auto key_less = [&](uint32_t a, uint32_t b) {
            if (warps[a].block != warps[b].block) return warps[a].block < warps[b].block;
            return rank_[a] < rank_[b];
        };
        // The window: the best-ranked resident warps not in a long wait, eligible or not, in
        // rank order (an insertion into the first `window_`: the keys are all distinct).
        std::array<uint32_t, kMax> order;
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; ++i) {
            if (!warps[i].resident || warps[i].long_wait) continue;
            if (k == window_ && !key_less(i, order[k - 1])) continue;
            uint32_t j = k < window_ ? k++ : k - 1;
            for (; j > 0 && key_less(i, order[j - 1]); --j) order[j] = order[j - 1];
            order[j] = i;
        }
        int best = -1;
        for (uint32_t j = 0; j < k; ++j) {  // round robin among its eligible warps
            const uint32_t i = order[j];
            if ((eligible >> i & 1) && (best < 0 || warps[i].last_issue < warps[best].last_issue)) best = int(i);
        }
        for (uint64_t m = best < 0 ? eligible : 0; m; m &= m - 1) {  // else the best-ranked eligible warp
            const uint32_t i = uint32_t(std::countr_zero(m));
            if (best < 0 || key_less(i, uint32_t(best))) best = int(i);
        }
        return chose(warps, uint32_t(best));
    }

    int chose(std::span<const WarpView> warps, uint32_t i) {
        last_ = i;
        last_age_ = warps[i].age;
        has_last_ = true;
        return int(i);
    }

    // Of the senior block's eligible warps at the back (their last instruction yielded), the one unpicked longest,
    // when that is starve_ cycles or more since its last issue (-1: none). Warps that do not yield
    // wait for their rank (the H200 leaves the older half of 8 independent-chain warps waiting).
    int starved(uint64_t eligible, std::span<const WarpView> warps, uint64_t cycle) const {
        if (!starve_) return -1;
        uint64_t senior = ~0ull;
        for (uint64_t m = eligible; m; m &= m - 1) senior = std::min(senior, warps[std::countr_zero(m)].block);
        int best = -1;
        for (uint64_t m = eligible; m; m &= m - 1) {
            const uint32_t i = uint32_t(std::countr_zero(m));
            const WarpView& w = warps[i];
            if (rank_[i] <= 0 || w.block != senior || cycle + 1 < w.last_issue + starve_) continue;
            if (best < 0 || w.last_issue < warps[best].last_issue) best = int(i);
        }
        return best;
    }

    // New warps in their slots get a rank (youngest first); the warp picked last goes to the back
    // of its block's order when the instruction it issued yields, and back to its own place when
    // it issues one that does not.
    void refresh(std::span<const WarpView> warps, uint32_t n) {
        for (uint32_t i = 0; i < n; ++i) {
            if (!warps[i].resident || age_[i] == warps[i].age + 1) continue;
            age_[i] = warps[i].age + 1;
            rank_[i] = -int64_t(warps[i].age);
        }
        if (!demote_ || !has_last_ || last_ >= n) return;
        const WarpView& w = warps[last_];
        if (!w.resident || w.age != last_age_ || w.last_issue == demoted_at_) return;
        demoted_at_ = w.last_issue;
        rank_[last_] = w.yielded ? ++counter_ : -int64_t(w.age);  // back of the block, or its own place again
    }

    uint32_t window_;
    bool demote_;
    uint32_t starve_;                    // 0: off
    bool greedy_;
    std::array<uint64_t, kMax> age_{};   // age + 1 of the warp whose rank is held (0: none)
    std::array<int64_t, kMax> rank_{};
    int64_t counter_ = 0;
    uint32_t last_ = 0;
    uint64_t last_age_ = 0, demoted_at_ = ~0ull;
    bool has_last_ = false;
};

}  // namespace

std::unique_ptr<Policy> make_cgy_policy(uint32_t window, bool yield_demotes, uint32_t starve_cycles, bool greedy) {
    return std::make_unique<Cgy>(window, yield_demotes, starve_cycles, greedy);
}

}  // namespace simt::timing
