// parallel_run.hpp: ticking the SMs of one cycle on several threads, with the
// serial run's results bit for bit.
//
// Each visited cycle t: the SMs due at t tick on the workers (each takes chunks
// of SMs in turn: which thread ticks an SM changes nothing, its state and
// counters are its own, and a descheduled worker leaves its share to the
// others); then, on the calling thread, in SM order,
// each SM's Outbox is settled (end_cycle): the global-memory data of its
// steps (Executor::apply), its L1TEX request (at most one per SM per cycle:
// the tag stage is busy after it) through its L1, the crossbar, the L2 slices
// and DRAM, and the rest of that issue; then retirements are added up. Why
// this equals the serial run:
//   * within a cycle SMs share only the memory side (L2, DRAM, atomic units,
//     global memory) and the GPU-wide counters; the serial run touches them
//     in SM order, sub-partition order, which is the order the settle uses;
//   * nothing an SM does at t reads what its own request or another SM's
//     will return: every result (data or completion cycle) is used at t + 1
//     at the earliest (a warp issues at most once per cycle, its scoreboard
//     holds a reader until the result, and a throttled warp's wake that
//     needs the request's completion is set at the settle, kLateWake);
//   * the counters each SM keeps apart are integers, summed in SM order.
// A cycle after one with little work runs on the calling thread alone (the
// same ticks and settle, so the same results): waking the workers costs
// microseconds, more than such a cycle's work.
// Errors: the one the serial run throws first. A tick's exception stops that
// SM's worker for the cycle; the settle rethrows the earliest in (SM, step)
// order, and checks the instruction budget against the steps of each SM in
// order, so a budget crossed before a fault wins, as serially.
// Observers need the serial order of events: Simulator runs them on one thread.
#pragma once

#include "sim/timing/parallel/sm_share.hpp"
#include "sim/timing/parallel/worker_pool.hpp"
#include "sim/timing/sm.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace simt::timing {

class ParallelRun {
public:
    ParallelRun(Context& ctx, unsigned threads, uint32_t sms);
    SmShare share(uint32_t sm) { return SmShare::of(*owned_[sm]); }
    // Ticks the SMs due at t (every one when `all`) and settles the cycle.
    void cycle(std::vector<std::unique_ptr<Sm>>& sms, uint64_t t, bool all);
    // Adds the SMs' counters to `stats` (per pc and memory), in SM order.
    void add_counters(Stats& stats) const;

private:
    void tick(size_t i);
    void check_errors();
    void settle();

    Context& ctx_;
    std::vector<std::unique_ptr<SmOwned>> owned_;
    WorkerPool pool_;
    uint64_t steps_ = 0;         // warp instructions stepped before this cycle
    uint64_t last_steps_ = 0;    // in the previous visited cycle (fan out to the workers or not)
    // ---- the current cycle
    std::vector<std::unique_ptr<Sm>>* sms_ = nullptr;
    uint64_t t_ = 0;
    bool all_ = false;
};

}  // namespace simt::timing
