// policy.cpp: the policy chosen by the config's scheduler.policy.
#include "sim/timing/scheduler/policy.hpp"

namespace simt::timing {

std::unique_ptr<Policy> make_policy(const GpuConfig::Scheduler& spec) {
    switch (spec.policy) {
        case SchedPolicy::Lrr: return make_lrr_policy();
        case SchedPolicy::Gto: return make_gto_policy();
        case SchedPolicy::TwoLevel: return make_two_level_policy(spec.active_set);
    }
    return make_gto_policy();
}

}  // namespace simt::timing
