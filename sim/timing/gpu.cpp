// gpu.cpp: the top loop: block dispatch, ticking the SMs, event skipping,
// deadlock detection and the derived statistics.
//
// Each visited cycle t, in this order:
//   1. if a block retired in the previous visited cycle (or at start), blocks
//      are dispatched in launch order to SMs that fit them, round robin from
//      the SM after the last one that received a block;
//   2. every SM whose next event has come ticks its sub-partitions (SM
//      0..n-1, sub-partition 0..k-1), only those whose next event has come,
//      unless event skipping is off (then every SM and sub-partition ticks);
//      an SM may then go on ticking ahead (run_ahead.hpp);
//   3. the next cycle is t + 1 (no skipping) or the earliest next event of any
//      sub-partition (skipping); if nothing can ever happen again while blocks
//      remain, that is a deadlock: simt::Error with every SM's state; a next
//      cycle beyond the config's max_cycles ends the run (the cycle budget:
//      the same error with or without skipping, since it depends only on t).
#include "sim/timing/gpu.hpp"

#include "sim/timing/context.hpp"
#include "sim/timing/distributor.hpp"
#include "sim/timing/parallel/parallel_run.hpp"
#include "sim/timing/run_ahead.hpp"
#include "sim/timing/sm.hpp"

#include <algorithm>
#include <bit>
#include <sstream>
#include <thread>

namespace simt::timing {

class Gpu {
public:
    Gpu(const GpuConfig& config, const isa::Program& program, func::GlobalMemory& memory, RunOptions options)
        : options_(std::move(options)),
          occupancy_(compute_occupancy(config, program)),
          ctx_(config, program, memory, stats_, options_.observer),
          distributor_(program.launch.mode == isa::LaunchDecl::Mode::Compute ? config.launch.block_dispatch_cycles : 0.0),
          ahead_(options_.run_ahead && options_.event_skipping && !options_.observer, config.sm.count,
                 config.sm.sub_partitions, config.max_cycles) {
        check_resident_memory(config, program, occupancy_);
        init_stats();
        uint32_t n = config.sm.count;
        if (n == 0) throw Error("config '" + config.name + "': sm.count is 0");
        const unsigned threads = options_.observer ? 1 : std::min(options_.threads, n);
        if (threads > 1) par_ = std::make_unique<ParallelRun>(ctx_, threads, n, ahead_);
        for (uint32_t i = 0; i < n; ++i)
            sms_.push_back(std::make_unique<Sm>(i, ctx_, par_ ? par_->share(i) : SmShare::of(ctx_)));
        next_.assign(n, kNever);
        total_blocks_ = program.num_blocks();
    }

    Stats run() {
        try {
            loop();
        } catch (...) {
            if (par_) par_->wait_all(next_);  // (no worker may touch an SM once the error leaves)
            throw;
        }
        if (par_) par_->wait_all(next_);
        finish();
        if (options_.progress) options_.progress(stats_.cycles, ctx_.done_blocks, total_blocks_);
        if (ctx_.observer) ctx_.observer->on_finish(stats_);
        return stats_;
    }

private:
    // 1-3 of every visited cycle until every block is done.
    void loop() {
        uint64_t t = 0;
        ctx_.dispatch_pending = true;
        uint64_t progress_mark = 0;
        while (ctx_.done_blocks < total_blocks_) {
            if (ctx_.dispatch_pending) dispatch(t);
            const uint64_t earliest = tick(t, !options_.event_skipping);
            ++visited_;
            if (ctx_.done_blocks >= total_blocks_) break;
            uint64_t next = std::min(ctx_.dispatch_pending ? t + 1 : kNever, earliest);
            if (par_) next = par_->next_cycle(next_, next);  // (SMs out ahead: their progress passes it)
            if (next == kNever) deadlock(std::max(t, ahead_.last_tick()));
            t = options_.event_skipping ? std::max(next, t + 1) : t + 1;
            if (t > ctx_.cfg.max_cycles) cycle_budget_exhausted();
            if (options_.progress && (t >> 14) != progress_mark) {
                progress_mark = t >> 14;
                options_.progress(t, ctx_.done_blocks, total_blocks_);
            }
        }
    }

public:
    uint64_t visited() const { return visited_; }
    // Before run(): start from what a previous launch left in the L2 (RunOptions::warm_launches).
    void carry_l2(const Gpu& warm) { ctx_.l2.carry(warm.ctx_.l2); }

private:
    // 2: the SMs due at t (every one when `all`), on one thread or several;
    // returns the earliest next event of any SM. (An SM's next event changes
    // only in its own tick, its dispatch and, in a parallel run, the settle:
    // next_ keeps them in one array, so a cycle reads one cache line per 8 SMs.)
    // An SM that ticked may go on ahead of the others (run_ahead.hpp), on one
    // thread or on the worker that ticked it.
    uint64_t tick(uint64_t t, bool all) {
        uint64_t earliest = kNever;
        if (par_) {
            par_->cycle(sms_, next_, t, all, next_block_ < total_blocks_);
            for (uint64_t n : next_) earliest = std::min(earliest, n);
            return earliest;
        }
        // The SMs due at t, 64 at a time, found before any ticks (a tick changes only its own SM's
        // next event), then ticked in index order, each prefetching the next due one.
        for (size_t base = 0; base < sms_.size(); base += 64) {
            const size_t end = std::min(sms_.size(), base + 64);
            uint64_t due = 0;
            for (size_t i = base; i < end; ++i) {
                const bool now = all || next_[i] <= t;
                due |= uint64_t(now) << (i - base);
                earliest = std::min(earliest, now ? kNever : next_[i]);
            }
            for (uint64_t m = due; m; m &= m - 1) {
                const size_t i = base + size_t(std::countr_zero(m));
                if (const uint64_t rest = m & (m - 1)) sms_[base + size_t(std::countr_zero(rest))]->prefetch();
                tick_sm(i, t, all);
                earliest = std::min(earliest, next_[i]);
            }
        }
        return earliest;
    }

    // SM i's tick at t on one thread, and its run ahead; next_[i] becomes its next event.
    void tick_sm(size_t i, uint64_t t, bool all) {
        if (ahead_.on()) ahead_.rethrow_if_faulted(uint32_t(i));
        sms_[i]->tick(t, all);
        const Sm& sm = *sms_[i];
        next_[i] = ahead_.on() ? ahead_.run(*sms_[i], uint32_t(i), t,
                                            [&] { return next_block_ < total_blocks_ && sm.fits(); },
                                            [&] { return ahead_.budget_far(ctx_.exec.warp_instructions(),
                                                                           ctx_.exec.budget()); },
                                            [](uint64_t) { return true; })
                               : sms_[i]->next_event();
    }

    void init_stats() {
        const GpuConfig& c = ctx_.cfg;
        const isa::Program& p = ctx_.prog;
        stats_.kernel = p.kernel;
        stats_.config_name = c.name;
        stats_.sms = c.sm.count;
        stats_.sub_partitions = c.sm.sub_partitions;
        stats_.blocks = p.num_blocks();
        stats_.warps = stats_.blocks * p.warps_per_block();
        stats_.clock_mhz = c.clock_mhz;
        stats_.kernel_launch_us = c.launch.kernel_launch_us;
        stats_.per_pc.assign(p.code.size(), PcStats{});
        stats_.per_sm.assign(c.sm.count, SmStats{});
        stats_.occupancy = occupancy_;
    }

    void dispatch(uint64_t t) {
        ctx_.dispatch_pending = false;
        const size_t n = sms_.size();
        while (next_block_ < total_blocks_) {
            bool placed = false;
            for (size_t k = 0; k < n && !placed; ++k) {
                size_t i = (rr_ + k) % n;
                if ((par_ && par_->out(i)) || !sms_[i]->fits()) continue;  // (out ahead: it fits none)
                sms_[i]->dispatch(next_block_++, t, distributor_.hand_out(t));
                next_[i] = sms_[i]->next_event();
                rr_ = (i + 1) % n;
                placed = true;
            }
            if (!placed) break;
        }
    }

    [[noreturn]] void deadlock(uint64_t t) {
        std::ostringstream os;
        os << "deadlock at cycle " << t << " in kernel '" << ctx_.prog.kernel << "': " << ctx_.done_blocks
           << " of " << total_blocks_ << " blocks done and no warp can ever issue again\n";
        for (const auto& sm : sms_)
            if (sm->busy()) os << sm->describe(t);
        throw Error(ctx_.prog.launch.loc, os.str());
    }

    [[noreturn]] void cycle_budget_exhausted() const {
        throw Error(ctx_.prog.launch.loc,
                    "cycle budget of " + std::to_string(ctx_.cfg.max_cycles) + " cycles exhausted with " +
                        std::to_string(ctx_.done_blocks) + " of " + std::to_string(total_blocks_) +
                        " blocks done (max_cycles in the config, or --max-cycles)");
    }

    // The totals of what the model counted per pc and per SM.
    void sum_counts() {
        Stats& s = stats_;
        if (par_) par_->add_counters(s);
        for (size_t pc = 0; pc < s.per_pc.size(); ++pc) {
            const PcStats& ps = s.per_pc[pc];
            const IssueCost& c = ctx_.cost[pc];
            s.warp_instructions += ps.issued;
            s.thread_instructions += ps.thread_instructions;
            s.thread_instructions_pred_on += ps.thread_instructions_pred_on;
            s.issue_slots += ps.issued * c.slots;
            PipeStats& pipe = s.pipes[int(ctx_.code[pc].pipe)];
            pipe.issued += ps.issued;
            pipe.busy_cycles += ps.issued * c.busy;
            for (int r = 0; r < kNumStallReasons; ++r) s.stall_cycles[r] += ps.stall_cycles[r];
        }
        for (size_t i = 0; i < sms_.size(); ++i) {
            s.per_sm[i].warp_instructions = sms_[i]->warp_instructions();
            sms_[i]->add_regfile(s.regfile);
        }
    }

    void finish() {
        sum_counts();
        Stats& s = stats_;
        s.cycles = ctx_.last_retire;  // and at least the last acknowledgement (stores.drain_acks false)
        for (const auto& sm : sms_) s.cycles = std::max(s.cycles, sm->last_ack());
        ctx_.l2.busy(s.memory, s.cycles);
        s.time_us = (s.clock_mhz > 0 ? double(s.cycles) / s.clock_mhz : 0.0) + s.kernel_launch_us;
        uint64_t active = 0, resident = 0;
        for (const SmStats& sm : s.per_sm) {
            active += sm.active_cycles;
            resident += sm.resident_warp_cycles;
        }
        s.ipc = active ? double(s.warp_instructions) / double(active) : 0.0;
        s.simt_efficiency = s.warp_instructions
                                ? double(s.thread_instructions) / (32.0 * double(s.warp_instructions))
                                : 0.0;
        s.occupancy.achieved = active && s.occupancy.max_warps
                                   ? double(resident) / double(active) / double(s.occupancy.max_warps)
                                   : 0.0;
        double slots = double(s.cycles) * s.sms * s.sub_partitions;
        for (PipeStats& p : s.pipes) p.utilisation = slots > 0 ? double(p.busy_cycles) / slots : 0.0;
    }

    RunOptions options_;
    Stats stats_;
    OccupancyStats occupancy_;
    Context ctx_;
    BlockDistributor distributor_;
    RunAhead ahead_;
    std::unique_ptr<ParallelRun> par_;  // null: one thread
    std::vector<std::unique_ptr<Sm>> sms_;
    std::vector<uint64_t> next_;        // sms_[i]->next_event(), kept in step
    uint64_t total_blocks_ = 0;
    uint64_t next_block_ = 0;
    size_t rr_ = 0;
    uint64_t visited_ = 0;
};

unsigned default_threads(const GpuConfig& config, const isa::Program& program) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    if (config.sm.count < kManySms || program.num_blocks() < 2ull * config.sm.count) return 1;
    return std::clamp(std::min(cores, config.sm.count), 1u, kMaxThreads);
}

Simulator::Simulator(const GpuConfig& config, const isa::Program& program, func::GlobalMemory& memory,
                     RunOptions options)
    : config_(config), program_(program), memory_(memory), options_(options),
      gpu_(std::make_unique<Gpu>(config, program, memory, std::move(options))) {
    if (options_.warm_launches > kMaxWarmLaunches)
        throw Error("warm launches: " + std::to_string(options_.warm_launches) + " is more than " +
                    std::to_string(kMaxWarmLaunches));
}

Simulator::~Simulator() = default;

// The warm launches run one after another, each from the L2 the one before left, without the
// observer (their progress is reported: a terminal sees each launch count up); then the timed
// launch from the last one's L2.
Stats Simulator::run() {
    RunOptions quiet = options_;
    quiet.observer = nullptr;
    quiet.warm_launches = 0;
    std::unique_ptr<Gpu> prev;
    for (uint32_t i = 0; i < options_.warm_launches; ++i) {
        auto warm = std::make_unique<Gpu>(config_, program_, memory_, quiet);
        if (prev) warm->carry_l2(*prev);
        warm->run();
        prev = std::move(warm);
    }
    if (prev) gpu_->carry_l2(*prev);
    Stats s = gpu_->run();
    s.warm_launches = options_.warm_launches;
    return s;
}

uint64_t Simulator::cycles_visited() const { return gpu_->visited(); }

}  // namespace simt::timing
