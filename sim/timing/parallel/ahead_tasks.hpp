// ahead_tasks.hpp: SMs running ahead on worker threads while the top loop goes on.
//
// The top loop posts an SM (its index) once its tick at t left nothing for the settle
// and it may run ahead (run_ahead.hpp); a worker, or the top loop itself while it waits
// (help), claims it and calls `ahead(i, publish)`, which ticks the SM at its local cycles
// and calls publish(p) after each tick: every cycle of the SM before p has been ticked and
// its next event is at p or later. publish returns false when the task should stop there
// (it then returns early, its next event a cycle the top loop ticks in its place, as it
// would any SM's: an SM may stop ticking ahead after any tick, run_ahead.hpp). The call's
// return value is the SM's next event.
// The top loop may visit a cycle T while SM i is out only if progress(i) > T: a cycle the
// SM reaches later is one it ticks itself (local) or its final next event, both above T.
//
// One slot per SM: Idle -> Queued (post, top loop) -> Running (claim, whoever runs it) ->
// Done (its thread, release) -> Idle (collect, top loop, acquire: it sees every write of the
// run). Only the top loop moves a slot out of or into Idle, so out(i) needs no ordering.
// Workers take slots from a FIFO of posted indices (a slot already claimed by the top loop
// is skipped); they spin about a millisecond for a post, then sleep on the post counter.
// The top loop, waiting for a posted SM, leaves it to a worker that is watching for posts
// (it would take it within a microsecond) and runs it itself only when none is: else it
// would win every race for the SM it has just posted and the workers would stay idle.
// A task the top loop runs itself stops as soon as a worker waits for work and the top
// loop could go on (the SM it waits for has passed the cycle it needs; any other SM after
// a tick): the top loop then visits cycles and posts SMs for that worker, instead of
// ticking up to kWindow cycles of one SM while the worker spins (28 % of its time on the
// H200 checkerboard before).
// Left out: priorities (a queue in post order), stealing order, nested tasks.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace simt::timing {

class AheadTasks {
public:
    using Publish = std::function<bool(uint64_t)>;  // false: stop after this tick
    using Ahead = std::function<uint64_t(size_t, const Publish&)>;

    // `workers` threads besides the caller's; n SMs.
    AheadTasks(unsigned workers, size_t n, Ahead ahead);
    ~AheadTasks();
    AheadTasks(const AheadTasks&) = delete;
    AheadTasks& operator=(const AheadTasks&) = delete;

    // Top loop only. post: SM i runs ahead from progress p (its next event after its tick).
    void post(size_t i, uint64_t p);
    bool out(size_t i) const { return slots_[i].state.load(std::memory_order_relaxed) != kIdle; }
    bool done(size_t i) const { return slots_[i].state.load(std::memory_order_acquire) == kDone; }
    uint64_t progress(size_t i) const { return slots_[i].progress.load(std::memory_order_acquire); }
    // SM i's next event once done(i); the slot becomes idle.
    uint64_t collect(size_t i);
    // While waiting for SM i to pass cycle `need`: run it here if nobody has claimed it, else any
    // posted one, else pause. A task run here stops early once a worker is idle (see above).
    void help(size_t i, uint64_t need);

private:
    enum : uint8_t { kIdle, kQueued, kRunning, kDone };
    struct alignas(64) Slot {
        std::atomic<uint8_t> state{kIdle};
        std::atomic<uint64_t> progress{0};
        uint64_t next = 0;  // the result, written before Done
    };

    bool claim(size_t i);
    // Runs slot i; `need`: on the top loop, the progress after which it stops once a worker is
    // idle (kNoStop on a worker: to the end).
    void execute(size_t i, uint64_t need);
    bool take(size_t& i);           // a posted slot from the FIFO, claimed (false: none)
    bool run_one(uint64_t need);    // one taken and run here (false: none)
    bool worker_idle() const;       // a worker spins or sleeps for want of a post
    static constexpr uint64_t kNoStop = ~uint64_t(0);
    void loop();

    const Ahead ahead_;
    std::vector<Slot> slots_;
    std::mutex mutex_;
    std::deque<uint32_t> queue_;  // posted indices (under mutex_)
    std::atomic<uint32_t> posted_{0};
    std::atomic<uint32_t> sleepers_{0};
    std::atomic<uint32_t> spinning_{0};  // workers watching for a post: the top loop leaves it to them
    std::atomic<bool> stop_{false};
    std::vector<std::thread> threads_;
};

}  // namespace simt::timing
