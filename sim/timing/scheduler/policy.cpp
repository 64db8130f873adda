// policy.cpp: the policy chosen by the config's scheduler.policy, and the
// default pick_mask (for policies without a mask-based pick of their own).
#include "sim/timing/scheduler/policy.hpp"

namespace simt::timing {

int Policy::pick_mask(uint64_t eligible, std::span<const WarpView> warps, uint64_t cycle, uint64_t) {
    scratch_.assign(warps.begin(), warps.end());
    for (size_t i = 0; i < scratch_.size(); ++i) scratch_[i].eligible = i < 64 && (eligible >> i & 1);
    return pick(scratch_, cycle);
}

std::unique_ptr<Policy> make_policy(const GpuConfig::Scheduler& spec) {
    switch (spec.policy) {
        case SchedPolicy::Lrr: return make_lrr_policy();
        case SchedPolicy::Gto: return make_gto_policy();
        case SchedPolicy::TwoLevel: return make_two_level_policy(spec.active_set);
        case SchedPolicy::Gty: return make_gty_policy();
        case SchedPolicy::Gtb: return make_gtb_policy();
        case SchedPolicy::Cgy: return make_cgy_policy(spec.window, spec.yield_demotes, spec.starve_cycles, spec.greedy);
    }
    return make_gto_policy();
}

}  // namespace simt::timing
