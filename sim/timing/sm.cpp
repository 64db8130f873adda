// sm.cpp: block dispatch and retirement, warp state evaluation, and the
// timing of one issued instruction (see sm.hpp).
#include "sim/timing/sm.hpp"

#include "sim/timing/sub_partition_tick.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>

namespace simt::timing {

Sm::Sm(uint32_t index, Context& ctx, const SmShare& share)
    : index_(index), ctx_(ctx), share_(share), res_(ctx.cfg.sm, ctx.footprint),
      branch_waits_fixed_(ctx.cfg.pipes.branch_waits_fixed), sass_stall_counts_(ctx.cfg.pipes.sass_stall_counts),
      interleave_paths_(ctx.cfg.scheduler.interleave_paths),
      branch_fetch_(ctx.cfg.pipes.branch_resolve_cycles
                        ? ctx.cfg.pipes.branch.latency - ctx.cfg.pipes.branch_resolve_cycles : 0),
      drain_acks_(ctx.cfg.memory.stores.drain_acks),
      slots_(ctx.cfg.sm.max_warps), scoreboards_(ctx.cfg.sm.max_warps), code_(ctx.code.data()),
      cost_(ctx.cost.data()), lsu_(index, ctx, share) {
    lsu_.set_deferred(share.outbox != nullptr);
    round_robin_ = ctx.cfg.sm.unit_arbitration == UnitArbitration::RoundRobin;
    uint32_t n = std::max(ctx.cfg.sm.sub_partitions, 1u);
    for (uint32_t i = 0; i < n; ++i) sps_.push_back(std::make_unique<SubPartition>(*this, i, ctx, share));
    sp_next_.assign(n, kNever);
}

// ---------------------------------------------------------------- dispatch

bool Sm::fits() const { return res_.fits(); }

void Sm::count_residency(uint64_t t, int delta) {
    SmStats& s = ctx_.stats.per_sm[index_];
    if (resident_warps_ > 0) {
        s.active_cycles += t - residency_since_;
        s.resident_warp_cycles += uint64_t(resident_warps_) * (t - residency_since_);
    }
    residency_since_ = t;
    resident_warps_ = uint32_t(int64_t(resident_warps_) + delta);
}

void Sm::dispatch(uint64_t block_index, uint64_t t, uint64_t start) {
    res_.take_block();

    size_t bi = 0;
    while (bi < blocks_.size() && blocks_[bi].used) ++bi;
    if (bi == blocks_.size()) blocks_.emplace_back();
    BlockRec& b = blocks_[bi];
    b.used = true;
    b.index = block_index;
    b.fblock = ctx_.exec.make_block(block_index);
    b.slots.clear();
    b.live = uint32_t(b.fblock->warps.size());
    if (ctx_.observer) ctx_.observer->on_block_dispatched(t, block_index, index_);
    ++ctx_.stats.per_sm[index_].blocks;

    count_residency(t, int(b.fblock->warps.size()));
    uint32_t next_slot = 0;
    for (func::Warp& fw : b.fblock->warps) {
        while (slots_[next_slot].resident) ++next_slot;
        TWarp& w = slots_[next_slot];
        w = TWarp{};
        w.resident = true;
        w.id = WarpId{fw.global_id, block_index, index_, next_slot % uint32_t(sps_.size()), next_slot};
        w.lslot = next_slot / uint32_t(sps_.size());
        w.block_slot = uint32_t(bi);
        w.fblock = b.fblock.get();
        w.fwarp = &fw;
        w.age = ctx_.next_age++;
        w.pc = fw.done() ? 0 : fw.next_pc();
        w.launch_ready = start + ctx_.cfg.launch.block_launch_cycles;
        w.staged_until = w.launch_ready;
        w.wake = t;
        w.sb = &scoreboards_[next_slot];
        w.sb->reset();
        w.reuse_pc = kNoPc;
        if (!fw.done()) w.operand_ready = w.sb->ready_for(ctx_.code[w.pc], w.operand_why, ctx_.cost[w.pc].handoff);
        else { w.draining = true; w.hold_pc = 0; }
        share_.log->open(w, StallReason::NoInstruction, w.pc, w.launch_ready);  // not counted before its launch
        b.slots.push_back(next_slot);
        ctx_.stats.per_sm[index_].launch_wait_warp_cycles += w.launch_ready - t;
        if (ctx_.observer) {
            ctx_.observer->on_warp_dispatched(t, w.id);
            ctx_.observer->on_warp_launched(w.launch_ready, w.id);
        }
        note_outward(w);
        sps_[w.id.sub_partition]->add(&w);
        sp_next_[w.id.sub_partition] = sps_[w.id.sub_partition]->next_event();
    }
    update_next_event();
}

void Sm::retire(TWarp& w, uint64_t t) {
    share_.log->close(w, t);
    if (ctx_.observer) ctx_.observer->on_warp_retired(t, w.id);
    w.resident = false;
    w.candidate = false;
    note_outward(w);
    count_residency(t, -1);
    // (a parallel run: into the outbox, which the Gpu adds up at the cycle's end)
    uint64_t& last_retire = share_.outbox ? share_.outbox->last_retire : ctx_.last_retire;
    bool& dispatch_pending = share_.outbox ? share_.outbox->dispatch_pending : ctx_.dispatch_pending;
    last_retire = std::max(last_retire, t);
    BlockRec& b = blocks_[w.block_slot];
    if (res_.release_warp()) {
        // Its slot leaves the block's list: another block's warp may take it.
        std::erase(b.slots, w.id.slot);
        dispatch_pending = true;
    }
    if (--b.live > 0) return;
    res_.release_block();
    if (ctx_.observer) ctx_.observer->on_block_retired(t, b.index, index_);
    b.used = false;
    b.fblock.reset();
    ++(share_.outbox ? share_.outbox->done_blocks : ctx_.done_blocks);
    dispatch_pending = true;
}

// ---------------------------------------------------------------- ticking

// A sub-partition that reserves one of the SM's shared units (L1TEX, MIO) can
// turn another one's eligible warps into throttled ones: the sub-partitions
// after it re-evaluate their candidates in this cycle, all of them in the next.
// The first one ticked is served first: sub-partition 0 (sm.unit_arbitration:
// fixed), or the one after the last to reserve a unit (round_robin).
void Sm::tick(uint64_t t, bool all) {
    if (lsu_.next_held() <= t) flush_held(t);
    shared_reserved_ = false;
    const size_t n = sps_.size();
    const std::unique_ptr<SubPartition>* sps = sps_.data();  // (fixed: no reload after each tick)
    uint64_t* next = sp_next_.data();
    synced_ = kNever;
    uint64_t earliest = kNever;  // the sub-partitions' next events as the loop leaves them
    for (size_t j = 0, k = first_sp_; j < n; ++j, k = k + 1 == n ? 0 : k + 1) {
        if (all || next[k] <= t || (shared_reserved_ && sps[k]->has_candidates())) {
            sps[k]->tick(t);
            next[k] = sps[k]->next_event();
        }
        earliest = std::min(earliest, next[k]);
    }
    if (shared_reserved_) {
        for (size_t k = 0; k < n; ++k) {
            if (!sps[k]->has_candidates()) continue;
            sps[k]->wake_at(t + 1);
            next[k] = sps[k]->next_event();
            earliest = std::min(earliest, next[k]);
        }
    }
    // A barrier release or a held store's completion in a tick may have woken a sub-partition the
    // loop had passed (resync: synced_); a next event only moves earlier outside its own tick.
    next_event_ = std::min({earliest, synced_, lsu_.next_held()});
}

void Sm::prefetch() const {
    for (size_t k = 0; k < sps_.size(); ++k)
        if (sp_next_[k] != kNever) sps_[k]->prefetch();
}

void Sm::update_next_event() {
    uint64_t n = lsu_.next_held();  // (kNever when none is held)
    for (uint64_t v : sp_next_) n = std::min(n, v);
    next_event_ = n;
}

void Sm::reevaluate_stages(TWarp& w, uint64_t t) {
    if (t < w.launch_ready) {
        block(w, StallReason::NoInstruction, w.launch_ready, t);
        t = w.launch_ready;
    }
    if (t < w.branch_ready) {  // the target computed, then fetched (branch_ready = issue + latency >= the fetch)
        const uint64_t resolved = w.branch_ready - branch_fetch_;
        if (t < resolved) {
            block(w, StallReason::BranchResolving, resolved, t);
            t = resolved;
        }
        if (t < w.branch_ready) {
            block(w, StallReason::NoInstruction, w.branch_ready, t);
            t = w.branch_ready;
        }
    }
    if (t < w.sleep_until) {
        block(w, StallReason::Sleeping, w.sleep_until, t);
        t = w.sleep_until;
    }
    // Then the operands, unless that is a long_scoreboard stage: it wakes at
    // its start (w.wake = t), when a policy sees it.
    if (t < w.operand_ready && w.operand_why != StallReason::LongScoreboard)
        block(w, w.operand_why, w.operand_ready, t);
}

void Sm::reevaluate_held(TWarp& w, uint64_t t) {
    if (w.draining) {
        if (t < w.mem_done || w.held_stores) {
            share_.log->set(w, StallReason::Drain, w.hold_pc, t);
            w.wake = w.held_stores ? kNever : w.mem_done;  // (a held store's completion wakes it: held_done)
        } else {
            retire(w, t);
        }
        return;
    }
    share_.log->set(w, StallReason::Barrier, w.hold_pc, t);
    w.wake = kNever;
}

// ---------------------------------------------------------------- issue

// One imported SASS instruction's trace instructions after its first (decode.cpp, fold_sass_bundles),
// stepped in its issue. Where the last is the SASS instruction's own access or branch, whose operands
// the ones before build (LDS [UR4+0x4], BRA on two predicates), that step's lanes and addresses stand;
// else the first's lanes (a carry-in's guard is not the instruction's).
void Sm::step_folded(TWarp& w, const DecodedInst& d, uint32_t pc, uint64_t t) {
    func::DynInst& dyn = *share_.dyn;
    Outbox* const out = share_.outbox;
    const func::LaneMask active = dyn.active, exec = dyn.exec;
    for (uint32_t k = 1; k <= d.fold; ++k) {
        if (out) out->steps.push_back(pc + k);
        share_.exec->step_inline(*w.fblock, *w.fwarp, dyn, func::StepEnv{true, t, index_, out ? &out->accesses : nullptr});
    }
    if (d.unit == Unit::Math) {
        dyn.active = active;
        dyn.exec = exec;
    }
}

// A uniform register is one per warp, not per side: two sides that interleave would share it. ptxas
// keeps a loop counter in a uniform register inside a side (the compiled div_ffma: UMOV UR4, URZ and
// UIADD3 UR4 on each side), which only works if the sides run one after the other, so the sides trade
// places only where the code between them and their reconvergence point writes none (interleaved, the
// compiled div_ffma's sides shared UR4 and lost half their iterations).
bool Sm::sides_keep_uniforms(const TWarp& w) const {
    const auto& st = w.fwarp->stack;
    if (st.size() < 2) return false;
    const std::vector<uint32_t>& u = ctx_.uniform_writes;
    const size_t lo = std::min<size_t>(std::min(st.back().pc, st[st.size() - 2].pc), u.size() - 1);
    const size_t hi = std::min<size_t>(st.back().rpc, u.size() - 1);
    return lo >= hi || u[hi] == u[lo];
}

// The result time of an instruction that is not plain (IssueCost::plain): a division's, or a
// memory access's through the LSU; an L1TEX or MIO instruction reserves its unit.
uint64_t Sm::unit_issue(TWarp& w, const DecodedInst& d, const IssueCost& c, const func::DynInst& dyn, uint64_t t,
                        SubPartition& sp, uint32_t operand_delay) {
    uint64_t done = t + c.latency + operand_delay;
    if (c.dividend_latency)  // the divisor's reciprocal started when the divisor was ready
        done = std::max(t + c.dividend_latency, w.sb->ready(d.divisor) + c.latency) + operand_delay;
    if (d.mem != MemKind::None) {
        done = lsu_.access(d, dyn, t, w.id.slot);
        if (done == kPendingDone) pend_ = PendingIssue{&w, &sp, w.pc, operand_delay};  // (deferred mode)
        else if (done == kHeldDone) ++w.held_stores;  // (a store: no result; held_done once it leaves)
        else done += operand_delay, memory_done(w, d, done);
    }
    if (d.unit == Unit::L1tex && d.mem != MemKind::None) read_barriers(w, d, t);
    if (d.unit == Unit::L1tex || d.unit == Unit::Mio) {
        shared_reserved_ = true;
        if (round_robin_) first_sp_ = (w.id.sub_partition + 1) % uint32_t(sps_.size());
    }
    return done;
}

// A warp may leave (drain ends) once its loads are back and its stores have left the SM (the
// tag stage has sent their sectors: ncu's drain frees the warp's resources, a store's registers
// are read by then), or with memory.stores.drain_acks once its stores are acknowledged too. A
// reduction (an atomic that returns nothing) leaves once it has left the SM, whatever drain_acks
// says: on an H100 a kernel whose warps each end with one red.add.f32 on one word shows no drain
// (ncu 0.04 per instruction) while its L2 works through them for 14 us after the SMs went idle
// (calib/results/atomtype/, holdout ho_reduce_atomic). The launch ends at its last
// acknowledgement either way (Gpu::finish).
void Sm::memory_done(TWarp& w, const DecodedInst& d, uint64_t done) {
    last_ack_ = std::max(last_ack_, done);
    const bool store = d.mem == MemKind::GlobalStore || d.mem == MemKind::LocalStore;
    const bool reduction = d.mem == MemKind::GlobalAtomic && d.ndst == 0;
    w.mem_done = std::max(w.mem_done, reduction || (store && !drain_acks_) ? lsu_.l1_tag_free() : done);
}

// The first held store leaves at t (its tag-stage start, an event of this SM): its sectors go to
// the L2 now (at the cycle's end in a parallel run), and its warp learns its completion.
void Sm::flush_held(uint64_t t) {
    const L1Tex::Sent sent = lsu_.flush_held(t);
    if (sent.done == kPendingDone) flushed_ = sent.token;
    else held_done(slots_[sent.token], sent.done, t);
}

void Sm::held_done(TWarp& w, uint64_t done, uint64_t t) {
    last_ack_ = std::max(last_ack_, done);
    w.mem_done = std::max(w.mem_done, drain_acks_ ? done : lsu_.l1_tag_free());
    --w.held_stores;
    if (!w.draining || w.held_stores || w.wake != kNever) return;
    w.wake = t + 1;  // (draining, it waited for this one: its drain now ends at mem_done)
    sps_[w.id.sub_partition]->sync(w);
    resync(w.id.sub_partition, w.wake);
}

// An L1TEX instruction still waiting in the LSU queue reads its registers when the tag stage
// takes it: until then a writer of one of them waits (memory/lg_queue.hpp). Its guard predicate
// was read at issue (it fixed the lanes), so it carries none.
void Sm::read_barriers(TWarp& w, const DecodedInst& d, uint64_t t) {
    const uint64_t read = lsu_.l1_last_start();
    if (read <= t) return;
    for (int i = 0; i < d.nsrc; ++i)
        if (d.check[i] >= isa::kNumPreds) w.sb->set_read_barrier(d.check[i], read);
}

// nanosleep's duration in cycles at the config's clock, rounded up.
uint64_t Sm::sleep_cycles(uint32_t ns) const {
    return uint64_t(std::ceil(double(ns) * ctx_.cfg.clock_mhz / 1000.0));
}

void Sm::release_barrier_if_ready(BlockRec& b, uint64_t t) {
    bool anyone = false;
    for (uint32_t slot : b.slots) anyone |= slots_[slot].resident && slots_[slot].at_barrier;
    if (!anyone || !b.fblock->barrier_ready()) return;
    b.fblock->release_barrier();
    for (uint32_t slot : b.slots) {
        TWarp& o = slots_[slot];
        if (!o.resident || !o.at_barrier) continue;
        o.at_barrier = false;
        if (o.wake == kNever) {
            o.wake = t + 1;
            sps_[o.id.sub_partition]->sync(o);
            resync(o.id.sub_partition, o.wake);
        }
    }
}

// ---------------------------------------------------------------- end of a parallel cycle

// What the serial run did at issue, in the same order: the request's sectors
// (the L1, the L2 units), the scoreboard and memory done, the next
// instruction's operands, the warp's next state; then the throttled warps
// whose wake is the first completion of an outstanding request.
void Sm::end_cycle(uint64_t t) {
    if (flushed_ != kNoFlush) {
        const uint32_t slot = flushed_;
        flushed_ = kNoFlush;
        held_done(slots_[slot], lsu_.complete(), t);
    }
    if (pend_.w) {
        TWarp& w = *pend_.w;
        const DecodedInst& d = ctx_.code[pend_.pc];
        const uint64_t done = lsu_.complete() + pend_.operand_delay;
        memory_done(w, d, done);
        for (int i = 0; i < d.ndst; ++i) w.sb->set(d.dst[i], done, d.produces, d.pipe);
        SubPartition& sp = *pend_.sp;
        pend_ = PendingIssue{};
        if (!w.draining) settle_operands(w);
        sp.finish_issue(w, t);
        sp_next_[w.id.sub_partition] = sp.next_event();
    }
    for (TWarp* w : late_) {
        w->wake = lsu_.l1_accepts_at(t, is_store(ctx_.code[w->pc]));
        sps_[w->id.sub_partition]->sync(*w);
        sp_next_[w->id.sub_partition] = sps_[w->id.sub_partition]->next_event();
    }
    late_.clear();
    update_next_event();
}

std::string Sm::describe(uint64_t t) const {
    std::ostringstream os;
    os << "sm " << index_ << ": " << resident_warps_ << " resident warps, " << res_.blocks() << " blocks; "
       << lsu_.describe() << '\n';
    for (const auto& sp : sps_)
        if (!sp->empty()) os << sp->describe(t);
    return os.str();
}

}  // namespace simt::timing
