// gty.cpp: greedy then youngest. Keeps issuing from the warp it issued last
// while that warp is eligible; otherwise picks the youngest eligible warp
// (largest dispatch age). Huerta et al., "Analyzing Modern NVIDIA GPU cores"
// (arXiv 2503.20481, 2025) find this order on Turing and Ampere (their
// "compiler-guided greedy then youngest"); the compiler's stall counts and
// yield bits, which end a greedy run on hardware, are left out here: a run
// ends when the warp is no longer eligible.
#include "sim/timing/scheduler/policy.hpp"

#include <bit>

namespace simt::timing {

namespace {

class Gty final : public Policy {
public:
    int pick(std::span<const WarpView> warps, uint64_t) override {
        int youngest = -1;
        for (int i = 0; i < int(warps.size()); ++i) {
            if (!warps[i].eligible) continue;
            if (has_last_ && warps[i].age == last_age_) return i;
            if (youngest < 0 || warps[i].age > warps[youngest].age) youngest = i;
        }
        if (youngest >= 0) { last_age_ = warps[youngest].age; has_last_ = true; }
        return youngest;
    }
    int pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t) override {
        if (warps.size() < 64) eligible &= (1ull << warps.size()) - 1;
        if (!eligible) return -1;
        if (has_last_) {
            // The greedy warp usually keeps its index (ages are unique).
            if (hint_ < warps.size() && warps[hint_].age == last_age_) {
                if (eligible >> hint_ & 1) return int(hint_);
            } else {
                for (uint64_t m = eligible; m; m &= m - 1) {
                    const int i = std::countr_zero(m);
                    if (warps[i].age == last_age_) { hint_ = uint32_t(i); return i; }
                }
            }
        }
        int youngest = std::countr_zero(eligible);
        uint64_t best = warps[youngest].age;
        for (uint64_t m = eligible & (eligible - 1); m; m &= m - 1) {
            const int i = std::countr_zero(m);
            const uint64_t a = warps[i].age;
            const bool younger = a > best;
            best = younger ? a : best;
            youngest = younger ? i : youngest;
        }
        last_age_ = best;
        has_last_ = true;
        hint_ = uint32_t(youngest);
        return youngest;
    }
    std::string_view name() const override { return "gty"; }

private:
    uint64_t last_age_ = 0;
    bool has_last_ = false;
    uint32_t hint_ = 0;  // pick_mask: where the warp of last_age_ was last seen
};

}  // namespace

std::unique_ptr<Policy> make_gty_policy() { return std::make_unique<Gty>(); }

}  // namespace simt::timing
