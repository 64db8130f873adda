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
#include <cstring>

namespace simt::timing {

namespace {

class Cgy final : public Policy {
public:
    Cgy(uint32_t window, bool yield_demotes, uint32_t starve_cycles, bool greedy)
        : window_(std::max<uint32_t>(1, window)), demote_(yield_demotes), greedy_(greedy), starve_(starve_cycles) {}

    int pick(std::span<const WarpView> warps, uint64_t cycle) override {
        const uint32_t n = uint32_t(std::min<size_t>(warps.size(), kMax));
        uint64_t eligible = 0;
        for (uint32_t i = 0; i < n; ++i) eligible |= uint64_t(warps[i].eligible) << i;
        return choose(eligible, warps, cycle, ~0ull);
    }
    // The same choice without a copy of the views (the sub-partition's call).
    int pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t cycle, uint64_t arrived) override {
        return choose(eligible, warps, cycle, arrived);
    }
    std::string_view name() const override { return "cgy"; }

private:
    static constexpr uint32_t kMax = 64;

    // `eligible`: bit i set when warps[i] may issue (the views' own flags are not read; bits from
    // the view count on are ignored).
    int choose(uint64_t eligible, std::span<const WarpView> warps, uint64_t cycle, uint64_t arrived) {
        const uint32_t n = uint32_t(std::min<size_t>(warps.size(), kMax));
        if (n < 64) eligible &= (1ull << n) - 1;
        refresh(warps, n, arrived);
        if (!eligible) return -1;
        if (const int s = starved(eligible, warps, cycle); s >= 0) return chose(warps, uint32_t(s));
        // Greedy: the warp picked last goes on while it can and its instruction did not yield.
        if (greedy_ && has_last_ && last_ < n && (eligible >> last_ & 1) && warps[last_].age == last_age_ &&
            !warps[last_].yielded)
            return int(last_);
        // The window: the best-ranked resident warps not in a long wait, eligible or not (the
        // first `window_` of them in rank order), served round robin (the one that issued least
        // recently); when none of them is eligible, the best-ranked eligible warp.
        int best = -1;
        for (uint32_t j = 0, k = 0; j < ordered_ && k < window_; ++j) {
            const uint32_t i = order_[j];
            if (i >= n || !warps[i].resident || warps[i].long_wait) continue;
            ++k;
            if ((eligible >> i & 1) && (best < 0 || warps[i].last_issue < warps[best].last_issue)) best = int(i);
        }
        for (uint64_t m = best < 0 ? eligible : 0; m; m &= m - 1) {
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
        uint64_t waited = 0;  // the eligible warps at the back unpicked for starve_ cycles (rarely any)
        for (uint64_t m = eligible & demoted_; m; m &= m - 1) {
            const uint32_t i = uint32_t(std::countr_zero(m));
            if (cycle + 1 >= warps[i].last_issue + starve_) waited |= 1ull << i;
        }
        if (!waited) return -1;
        uint64_t senior = ~0ull;
        for (uint64_t m = eligible; m; m &= m - 1) senior = std::min(senior, warps[std::countr_zero(m)].block);
        int best = -1;
        for (uint64_t m = waited; m; m &= m - 1) {
            const uint32_t i = uint32_t(std::countr_zero(m));
            const WarpView& w = warps[i];
            if (w.block != senior) continue;
            if (best < 0 || w.last_issue < warps[best].last_issue) best = int(i);
        }
        return best;
    }

    // New warps in their slots get a rank (youngest first); the warp picked last goes to the back
    // of its block's order when the instruction it issued yields, and back to its own place when
    // it issues one that does not.
    // `arrived`: the slots that may hold another warp since the last call (pick_mask's); a slot
    // stays to be looked at until it holds a resident warp.
    void refresh(std::span<const WarpView> warps, uint32_t n, uint64_t arrived) {
        pending_ |= arrived;
        for (uint64_t m = n < 64 ? pending_ & ((1ull << n) - 1) : pending_; m; m &= m - 1) {
            const uint32_t i = uint32_t(std::countr_zero(m));
            const WarpView& w = warps[i];
            if (!w.resident) continue;
            pending_ &= ~(1ull << i);
            if (key_[i].age == w.age + 1 && key_[i].block == w.block) continue;
            if (key_[i].age != w.age + 1) key_[i].rank = -int64_t(w.age);
            key_[i].age = w.age + 1;
            key_[i].block = w.block;
            place(i);
        }
        if (!demote_ || !has_last_ || last_ >= n) return;
        const WarpView& w = warps[last_];
        if (!w.resident || w.age != last_age_ || w.last_issue == demoted_at_) return;
        demoted_at_ = w.last_issue;
        const int64_t rank = w.yielded ? ++counter_ : -int64_t(w.age);  // back of the block, or its own place again
        if (rank == key_[last_].rank) return;
        key_[last_].rank = rank;
        place(last_);
    }

    bool key_less(uint32_t a, uint32_t b) const {
        const Key &x = key_[a], &y = key_[b];
        return x.block != y.block ? x.block < y.block : x.rank < y.rank;
    }
    // Slot i's key changed: it moves to its place in order_ (the keys are all distinct).
    void place(uint32_t i) {
        const uint64_t bit = 1ull << i;
        demoted_ = key_[i].rank > 0 ? demoted_ | bit : demoted_ & ~bit;
        uint8_t* o = order_.data();
        if (placed_ & bit) {
            const uint8_t* at = static_cast<const uint8_t*>(std::memchr(o, int(i), ordered_));
            const size_t p = size_t(at - o);
            std::memmove(o + p, o + p + 1, ordered_ - p - 1);
            --ordered_;
        }
        uint32_t lo = 0, hi = ordered_;  // the first entry whose key is greater
        while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            if (key_less(i, o[mid])) hi = mid;
            else lo = mid + 1;
        }
        std::memmove(o + lo + 1, o + lo, ordered_ - lo);
        o[lo] = uint8_t(i);
        ++ordered_;
        placed_ |= bit;
    }

    // (The state a pick reads first; then the per-slot keys.)
    uint32_t window_;
    bool demote_;
    bool greedy_;
    bool has_last_ = false;
    uint32_t starve_;                    // 0: off
    uint32_t last_ = 0;
    uint32_t ordered_ = 0;
    uint64_t last_age_ = 0, demoted_at_ = ~0ull;
    uint64_t placed_ = 0;                // bit i: slot i is in order_
    uint64_t demoted_ = 0;               // bit i: its rank > 0 (at the back of its block)
    uint64_t pending_ = 0;               // bit i: slot i's age and block are to be looked at
    int64_t counter_ = 0;
    // The slots ranked, by (block, rank): kept sorted as keys change (a new warp, a demotion),
    // so a pick reads the best-ranked warps first instead of sorting every slot.
    std::array<uint8_t, kMax> order_{};
    struct Key {
        uint64_t block = 0;              // the block of the warp whose rank is held
        int64_t rank = 0;
        uint64_t age = 0;                // its age + 1 (0: none)
    };
    std::array<Key, kMax> key_{};
};

}  // namespace

std::unique_ptr<Policy> make_cgy_policy(uint32_t window, bool yield_demotes, uint32_t starve_cycles, bool greedy) {
    return std::make_unique<Cgy>(window, yield_demotes, starve_cycles, greedy);
}

}  // namespace simt::timing
