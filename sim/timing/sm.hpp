// sm.hpp: one streaming multiprocessor.
//
// Holds the resident blocks and warp slots (resources: warps, blocks,
// registers, shared memory), the sub-partitions (a block's warps go to
// sub-partition slot % sub_partitions), the SM's L1TEX path and MIO stage.
// Sm::issue executes an instruction functionally and times it: pipe
// occupancy, result latency (fixed, SFU, memory), scoreboard, branches,
// barriers, exit and drain. A warp retires when its drain ends; a block
// retires when its last warp does, freeing its resources from that cycle
// (with sm.warp_release, a warp's slot and registers already when it retires).
//
// Left out: instruction fetch and the instruction cache, the block
// launch pipeline beyond a fixed block_launch_cycles delay.
#pragma once

#include "sim/timing/context.hpp"
#include "sim/timing/memory/lsu.hpp"
#include "sim/timing/resources.hpp"
#include "sim/timing/sub_partition.hpp"
#include "sim/timing/warp.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace simt::timing {

class Sm {
public:
    // `share`: what it writes besides its own state (the Context's in a serial
    // run; its own, with an Outbox, in a parallel one: then its L1TEX requests
    // and global-memory data wait for end_cycle()).
    Sm(uint32_t index, Context& ctx, const SmShare& share);
    Sm(const Sm&) = delete;
    Sm& operator=(const Sm&) = delete;

    bool fits() const;                            // can one more block of the launch be dispatched?
    void dispatch(uint64_t block_index, uint64_t t, uint64_t start);
    // Ticks the sub-partitions whose next event has come (every one when `all`).
    void tick(uint64_t t, bool all);
    // Earliest next event of its sub-partitions (kept up to date by tick and
    // dispatch, the only ways they change): an SM with nothing due is skipped.
    uint64_t next_event() const { return next_event_; }
    // Asks for the state its next tick reads first (a hint: the top loop ticks
    // the SMs in turn, and each one's state has usually left the L1 cache).
    void prefetch() const;
    bool busy() const { return resident_warps_ > 0; }
    // Does its tick at t touch nothing another SM sees (no memory access or unit, no
    // retirement, no held store leaving)? Then it may tick ahead of them (run_ahead.hpp).
    bool local_at(uint64_t t) const {
        if (lsu_.next_held() <= t) return false;  // (kNever when none is held)
        if (outward_warps_)
            for (const auto& sp : sps_)
                if (!sp->outward_quiet_at(t)) return false;
        return true;
    }
    uint64_t warp_instructions() const { return issued_; }  // issued on this SM so far
    uint64_t last_ack() const { return last_ack_; }           // the latest completion of its memory requests
    // Adds its schedulers' register-file counters (kept per scheduler during the run).
    void add_regfile(RegFileStats& s) const {
        for (const auto& sp : sps_) sp->add_regfile(s);
    }
    std::string describe(uint64_t t) const;

    // ---- a parallel run (see sim/timing/parallel/parallel_run.hpp)
    // The end of cycle t, in SM order on one thread: its global-memory data,
    // its L1TEX request through L1 and L2, the rest of that issue, and the
    // wakes that waited for the request's completion.
    void end_cycle(uint64_t t);
    bool has_pending() const { return pend_.w != nullptr || !late_.empty() || flushed_ != kNoFlush; }
    // Is w's issue waiting for end_cycle()? (SubPartition then leaves it alone.)
    bool issue_pending(const TWarp& w) const { return pend_.w == &w; }
    void wake_late(TWarp& w) { late_.push_back(&w); }  // its wake is lsu's accepts_at at the cycle's end

    // ---- used by SubPartition (inline: called for every warp in every tick)
    // Is a candidate whose next instruction is d kept from issuing at t by its
    // pipe or an SM unit? Then `free_at` (> t) is when that may change.
    bool throttled(const DecodedInst& d, const PipeState& pipes, uint64_t t, uint64_t& free_at) {
        free_at = pipes.free_at[int(d.pipe)];
        if (free_at > t) return true;
        free_at = lsu_.lsu_in_free_at(d, t);
        if (free_at > t) return true;
        if (d.unit == Unit::L1tex) {
            if (d.mem == MemKind::Tex && lsu_.tex_free_at() > t) {
                free_at = lsu_.tex_free_at();
                return true;
            }
            const bool store = is_store(d);
            if (lsu_.l1_accepts(t, store)) return false;
            free_at = lsu_.l1_accepts_at(t, store);
            return true;
        }
        if (d.unit == Unit::Mio && lsu_.mio_free_at() > t) {
            free_at = lsu_.mio_free_at();
            return true;
        }
        return false;
    }
    // A blocked warp's wake time came: its next blocked states, or it becomes a
    // candidate (its state at t is then set by the scheduler), or it retires.
    // Until it issues, its stages (no_instruction until launch_ready, then
    // branch_resolving, then no_instruction (pipes.branch_resolve_cycles) until branch_ready,
    // sleeping until sleep_until, then operand_why until
    // operand_ready) cannot change, so they are logged at once and it wakes
    // at the end of the last one; except that it wakes when a long_scoreboard
    // stage starts, which a policy sees (WarpView::long_wait).
    void reevaluate(TWarp& w, uint64_t t) {
        if (w.draining || w.at_barrier) return reevaluate_held(w, t);
        if (t < w.staged_until) return reevaluate_stages(w, t);  // (launch, branch or sleep)
        if (t < w.operand_ready) block(w, w.operand_why, w.operand_ready, t);
        else w.candidate = true;
    }
    // Issues w's next instruction at cycle t, its operands `operand_delay`
    // cycles late (register-bank reads); returns the issue slots it takes.
    uint32_t issue(TWarp& w, uint64_t t, SubPartition& sp, uint32_t operand_delay = 0);
    // The trace instructions after pc that one imported SASS instruction lowered to
    // (DecodedInst::fold), stepped in its issue (sm.cpp).
    void step_folded(TWarp& w, const DecodedInst& d, uint32_t pc, uint64_t t);
    // Whether a diverged warp's two top sides may trade places (scheduler.interleave_paths): only
    // where the code from the sides to their reconvergence writes no uniform register (sm.cpp).
    bool sides_keep_uniforms(const TWarp& w) const;

private:
    struct BlockRec {
        bool used = false;
        uint64_t index = 0;
        std::unique_ptr<func::Block> fblock;
        std::vector<uint32_t> slots;  // warp slots of its warps
        uint32_t live = 0;            // warps not retired
    };

    void block(TWarp& w, StallReason s, uint64_t until, uint64_t t) {
        share_.log->set(w, s, w.pc, t);
        w.wake = until;
    }
    static bool is_store(const DecodedInst& d) { return d.mem == MemKind::GlobalStore || d.mem == MemKind::LocalStore; }
    void reevaluate_held(TWarp& w, uint64_t t);  // at a barrier or draining
    void flush_held(uint64_t t);                  // the held store due at t leaves (memory.stores.wait_in_queue)
    void held_done(TWarp& w, uint64_t done, uint64_t t);  // ... and its completion is known
    void reevaluate_stages(TWarp& w, uint64_t t);  // in block launch or branch resolution
    void after_control(TWarp& w, const func::DynInst& dyn, uint32_t pc, uint64_t t);
    uint64_t unit_issue(TWarp& w, const DecodedInst& d, const IssueCost& c, const func::DynInst& dyn, uint64_t t,
                        SubPartition& sp, uint32_t operand_delay);  // issue's memory and division part
    void read_barriers(TWarp& w, const DecodedInst& d, uint64_t t);  // an L1TEX instruction's unread registers
    void memory_done(TWarp& w, const DecodedInst& d, uint64_t done);  // when the warp may drain, and last_ack_
    void settle_operands(TWarp& w);  // operand_ready and its reason for the next instruction
    void release_barrier_if_ready(BlockRec& b, uint64_t t);
    uint64_t sleep_cycles(uint32_t ns) const;
    void retire(TWarp& w, uint64_t t);
    void count_residency(uint64_t t, int delta);
    void note_outward(TWarp& w);  // after w's pc, draining or residency changed: outward_warps_
    void update_next_event();
    // A warp of sub-partition k got an earlier wake from outside (sync): sp_next_, and synced_
    // for the tick under way (the sub-partition may be that tick's own, its next_event() not
    // yet final: its tick's end takes the wake into account).
    void resync(uint32_t k, uint64_t wake) {
        sp_next_[k] = sps_[k]->next_event();
        synced_ = std::min(synced_, wake);
    }

    // An issue whose L1TEX request waits for end_cycle().
    struct PendingIssue {
        TWarp* w = nullptr;
        SubPartition* sp = nullptr;
        uint32_t pc = 0, operand_delay = 0;
    };

    uint32_t index_;
    Context& ctx_;
    SmShare share_;
    PendingIssue pend_;
    static constexpr uint32_t kNoFlush = ~0u;
    uint32_t flushed_ = kNoFlush;                 // the warp slot of a held store sent this cycle (deferred mode)
    std::vector<TWarp*> late_;                    // throttled warps whose wake end_cycle() sets
    SmResources res_;                             // warp and block slots, registers, shared memory in use
    bool branch_waits_fixed_;                     // pipes.branch_waits_fixed (stall_counts.hpp), kept at hand
    bool sass_stall_counts_;                      // pipes.sass_stall_counts (stall_counts.hpp)
    bool interleave_paths_;                       // scheduler.interleave_paths
    uint32_t branch_fetch_;                       // of a taken branch's latency, the cycles after it resolves
                                                  // (no_instruction; pipes.branch_resolve_cycles, 0 when absent)
    bool drain_acks_;                             // memory.stores.drain_acks: a warp drains until its stores' acks
    uint64_t last_ack_ = 0;                       // the latest completion of a memory request issued here
    std::vector<TWarp> slots_;                    // max_warps, fixed addresses
    std::vector<Scoreboard> scoreboards_;         // one per slot
    const DecodedInst* code_;                     // ctx_.code, ctx_.cost (fixed for the run; one load less per use)
    const IssueCost* cost_;
    std::vector<BlockRec> blocks_;
    std::vector<std::unique_ptr<SubPartition>> sps_;
    std::vector<uint64_t> sp_next_;               // each one's next_event(), kept in step (few cache lines per tick)
    uint64_t synced_ = kNever;                    // the earliest wake resync() set in the current tick
    Lsu lsu_;                                     // the memory path: LSU/MIO -> L1TEX -> crossbar -> L2 -> DRAM
    bool shared_reserved_ = false;                // an L1TEX/MIO request entered in this tick
    bool round_robin_ = false;                    // sm.unit_arbitration: round_robin
    uint32_t first_sp_ = 0;                       // the sub-partition ticked first (served first at L1TEX/MIO)
    uint64_t next_event_ = kNever;
    // residency accounting (SmStats)
    uint64_t issued_ = 0;
    uint32_t resident_warps_ = 0;
    uint64_t residency_since_ = 0;
    uint32_t outward_warps_ = 0;  // resident warps with TWarp::outward set
};

}  // namespace simt::timing
