// stats.cpp: the names of the enums in stats.hpp (ncu spellings).
#include "sim/timing/stats.hpp"

namespace simt::timing {

const char* stall_name(StallReason r) {
    switch (r) {
        case StallReason::Selected: return "selected";
        case StallReason::NotSelected: return "not_selected";
        case StallReason::Wait: return "wait";
        case StallReason::ShortScoreboard: return "short_scoreboard";
        case StallReason::LongScoreboard: return "long_scoreboard";
        case StallReason::MathPipeThrottle: return "math_pipe_throttle";
        case StallReason::MioThrottle: return "mio_throttle";
        case StallReason::LgThrottle: return "lg_throttle";
        case StallReason::TexThrottle: return "tex_throttle";
        case StallReason::Barrier: return "barrier";
        case StallReason::BranchResolving: return "branch_resolving";
        case StallReason::NoInstruction: return "no_instruction";
        case StallReason::DispatchStall: return "dispatch_stall";
        case StallReason::Drain: return "drain";
        case StallReason::Sleeping: return "sleeping";
        case StallReason::Membar: return "membar";
    }
    return "?";
}

const char* limiter_name(OccupancyLimiter l) {
    switch (l) {
        case OccupancyLimiter::Warps: return "warps";
        case OccupancyLimiter::Blocks: return "blocks";
        case OccupancyLimiter::Registers: return "registers";
        case OccupancyLimiter::SharedMemory: return "shared_memory";
    }
    return "?";
}

}  // namespace simt::timing
