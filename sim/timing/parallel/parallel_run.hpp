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
// Running ahead (run_ahead.hpp): with it, the SMs due at t tick on the calling
// thread and the cycle is settled; then each SM whose tick left nothing for the
// settle (no L1TEX request, held store, late wake or data of a step) and that
// would tick ahead goes *out*: a task (ahead_tasks.hpp) that a worker runs while
// the top loop goes on. Its ticks touch only its own state; the top loop does not
// tick, settle or dispatch to it, and visits a cycle only once every SM out has
// published progress beyond it (next_cycle), so the SM's final next event, its
// first non-local cycle, is still ahead when it comes back. Without run-ahead the
// SMs of a cycle tick on the worker pool (one barrier per cycle).
// A cycle after one with little work runs on the calling thread alone (the
// same ticks and settle, so the same results): waking the workers costs
// microseconds, more than such a cycle's work.
// Errors: the one the serial run throws first. A tick's exception stops that
// SM's worker for the cycle; the settle rethrows the earliest in (SM, step)
// order, and checks the instruction budget against the steps of each SM in
// order, so a budget crossed before a fault wins, as serially.
// Observers need the serial order of events: Simulator runs them on one thread.
#pragma once

#include "sim/timing/parallel/ahead_tasks.hpp"
#include "sim/timing/parallel/sm_share.hpp"
#include "sim/timing/parallel/worker_pool.hpp"
#include "sim/timing/run_ahead.hpp"
#include "sim/timing/sm.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace simt::timing {

class ParallelRun {
public:
    ParallelRun(Context& ctx, unsigned threads, uint32_t sms, RunAhead& ahead);
    SmShare share(uint32_t sm) { return SmShare::of(*owned_[sm]); }
    // Ticks the SMs due at t by `next` (their next events; every one when `all`),
    // each maybe ahead (blocks_left: not every block is dispatched), and settles
    // the cycle; `next` then holds each SM's next event.
    void cycle(std::vector<std::unique_ptr<Sm>>& sms, std::vector<uint64_t>& next, uint64_t t, bool all,
               bool blocks_left);
    // The next cycle to visit: the earliest of `bound` (the earliest next event of the SMs
    // in, or a dispatch) and the next events of the SMs out ahead that have come back; waits
    // (helping) until every SM still out has progress beyond it. Sets their `next` entries.
    uint64_t next_cycle(std::vector<uint64_t>& next, uint64_t bound);
    // Waits for every SM out ahead and takes it back (before errors, the end, the budget).
    void wait_all(std::vector<uint64_t>& next);
    // Is SM i out ahead (its state is its worker's: not to be ticked, settled or dispatched to)?
    bool out(size_t i) const { return tasks_ && tasks_->out(i); }
    // Adds the SMs' counters to `stats` (per pc and memory), in SM order.
    void add_counters(Stats& stats) const;

private:
    struct Job {  // what an SM out ahead was posted with (written before the post)
        Sm* sm = nullptr;
        uint64_t t = 0;
        bool blocks_left = false;
    };

    void tick(size_t i);
    void tick_due();
    void post_ahead();
    uint64_t take_back(size_t i, std::vector<uint64_t>& next);
    uint64_t run_ahead(size_t i, const AheadTasks::Publish& publish);
    bool waits_for_settle(size_t i) const;
    void check_errors();
    void settle();

    Context& ctx_;
    RunAhead& ahead_;
    std::vector<std::unique_ptr<SmOwned>> owned_;
    std::unique_ptr<WorkerPool> pool_;    // without run-ahead: the cycle's ticks fork-join
    std::unique_ptr<AheadTasks> tasks_;   // with it: the ticks on the calling thread, runs ahead on tasks
    std::vector<Job> jobs_;
    std::vector<uint32_t> out_;           // the SMs out ahead
    std::vector<uint32_t> may_go_;        // this cycle's SMs whose tick left nothing for the settle
    uint64_t steps_ = 0;         // warp instructions stepped before this cycle
    uint64_t last_steps_ = 0;    // in the previous visited cycle (fan out to the workers or not)
    // ---- the current cycle
    std::vector<std::unique_ptr<Sm>>* sms_ = nullptr;
    std::vector<uint64_t>* next_ = nullptr;
    uint64_t t_ = 0;
    bool all_ = false;
    bool blocks_left_ = false;
    bool budget_far_ = false;  // far enough to run ahead (RunAhead::budget_far, steps_)
};

}  // namespace simt::timing
