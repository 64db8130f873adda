// sm_share.hpp: what an SM writes while it ticks, apart from its own state.
//
// Counters (Stats), the state log, the functional executor, the register-bank
// memo and scratch. In a serial run every SM uses the Context's (SmShare
// points there). In a parallel run (parallel_run.hpp) each SM owns an
// SmOwned, so SMs ticked by different threads write nothing in common: the
// counters are integers, summed in SM order at the end (exact), and what must
// happen in the serial order (global-memory data, the L2, retirements) waits
// in the SM's Outbox until the end of the cycle.
#pragma once

#include "sim/timing/context.hpp"

#include <exception>
#include <vector>

namespace simt::timing {

// What one SM of a parallel run leaves for the end of the cycle (Gpu, in SM order).
struct Outbox {
    std::vector<func::DeferredAccess> accesses;  // global-memory data of this cycle's steps, in issue order
    std::vector<uint32_t> steps;                 // pcs stepped this cycle (the instruction budget)
    uint64_t done_blocks = 0;                    // blocks retired this cycle
    uint64_t last_retire = 0;
    bool dispatch_pending = false;
    std::exception_ptr error;                    // what its tick threw (the run stops at the cycle's end)
};

struct SmOwned {
    explicit SmOwned(Context& ctx)
        : log(stats, nullptr), exec(ctx.prog, ctx.exec_memory, Context::limits(ctx.cfg)), banks(ctx.code, ctx.cfg.regfile) {
        stats.per_pc.assign(ctx.code.size(), PcStats{});
        exec.unlimited();
    }
    Stats stats;   // per_pc and memory counters only
    StateLog log;
    func::Executor exec;
    BankModel banks;
    func::DynInst dyn;
    SectorList sectors;
    Outbox outbox;
};

struct SmShare {
    Stats* stats;
    StateLog* log;
    func::Executor* exec;
    BankModel* banks;
    func::DynInst* dyn;
    SectorList* sectors;
    Outbox* outbox;  // null in a serial run

    static SmShare of(Context& c) { return {&c.stats, &c.log, &c.exec, &c.banks, &c.dyn, &c.sectors, nullptr}; }
    static SmShare of(SmOwned& o) { return {&o.stats, &o.log, &o.exec, &o.banks, &o.dyn, &o.sectors, &o.outbox}; }
};

}  // namespace simt::timing
