// parallel_run.cpp: one cycle on the workers, then its settle (see parallel_run.hpp).
#include "sim/timing/parallel/parallel_run.hpp"

#include <algorithm>

namespace simt::timing {

namespace {

// A cycle that follows one of fewer warp instructions than this runs on the
// calling thread alone: waking the workers would cost more than its work.
// (Where a cycle runs changes nothing in it: the settle is the same.)
constexpr uint64_t kFanOutSteps = 64;

}  // namespace

// Chunks of about an eighth of a thread's share: few hand-outs, and little left
// to wait for when a worker is descheduled with one. While SMs run ahead, one SM
// at a time: a cycle's work is then a few SMs' runs ahead, of very different
// lengths (on the H200 checkerboard about 8 SMs tick per visited cycle, and one of
// them often does most of the cycle's warp instructions).
namespace {
size_t chunk(unsigned threads, uint32_t sms, bool ahead) {
    return ahead ? 1 : sms / (8 * std::max(1u, threads));
}
}  // namespace

ParallelRun::ParallelRun(Context& ctx, unsigned threads, uint32_t sms, RunAhead& ahead)
    : ctx_(ctx), ahead_(ahead),
      pool_(std::max(1u, threads), sms, chunk(threads, sms, ahead.on()), [this](size_t i) { tick(i); }) {
    for (uint32_t i = 0; i < sms; ++i) owned_.push_back(std::make_unique<SmOwned>(ctx));
}

void ParallelRun::cycle(std::vector<std::unique_ptr<Sm>>& sms, std::vector<uint64_t>& next, uint64_t t, bool all,
                        bool blocks_left) {
    sms_ = &sms;
    next_ = &next;
    t_ = t;
    all_ = all;
    blocks_left_ = blocks_left;
    budget_far_ = ahead_.budget_far(steps_, Context::limits(ctx_.cfg).max_warp_instructions);
    if (last_steps_ >= kFanOutSteps) pool_.run();
    else
        for (size_t i = 0; i < owned_.size(); ++i) tick(i);
    const uint64_t before = steps_;
    check_errors();
    last_steps_ = steps_ - before;
    settle();
}

// SM i, if due at t (as the serial loop; the next one's state is asked for first),
// then ahead while it stays local and its tick left nothing for the settle.
void ParallelRun::tick(size_t i) {
    std::vector<std::unique_ptr<Sm>>& sms = *sms_;
    std::vector<uint64_t>& next = *next_;
    if (i + 1 < sms.size() && next[i + 1] <= t_) sms[i + 1]->prefetch();
    if (!all_ && next[i] > t_) return;
    Sm& sm = *sms[i];
    if (ahead_.on() && ahead_.fault(uint32_t(i))) {
        owned_[i]->outbox.error = ahead_.fault(uint32_t(i));  // its tick ahead at t threw
        return;
    }
    try {
        sm.tick(t_, all_);
    } catch (...) {
        owned_[i]->outbox.error = std::current_exception();  // (the run ends with this cycle)
        return;
    }
    if (!ahead_.on() || waits_for_settle(i)) {
        next[i] = sm.next_event();
        return;
    }
    next[i] = ahead_.run(sm, uint32_t(i), t_, [&] { return blocks_left_ && sm.fits(); },
                         [this] { return budget_far_; });
}

// Does SM i's tick leave anything for the settle that its state waits for: an L1TEX request,
// a held store or a late wake (Sm::has_pending), or the data of a step (a constant load's
// goes through the MIO, with no request pending: its reader may issue at t + 1)?
bool ParallelRun::waits_for_settle(size_t i) const {
    return (*sms_)[i]->has_pending() || !owned_[i]->outbox.accesses.empty();
}

// The serial run's first error: the instruction budget is crossed at step
// max + 1 (before it runs), a fault at the step that threw.
void ParallelRun::check_errors() {
    const uint64_t max = Context::limits(ctx_.cfg).max_warp_instructions;
    uint64_t n = steps_;
    for (const auto& own : owned_) {
        const Outbox& o = own->outbox;
        if (o.error && n + o.steps.size() <= max) std::rethrow_exception(o.error);
        if (n + o.steps.size() > max) throw ctx_.exec.budget_error(o.steps[max - n]);
        n += o.steps.size();
    }
    steps_ = n;
}

void ParallelRun::settle() {
    std::vector<std::unique_ptr<Sm>>& sms = *sms_;
    for (size_t i = 0; i < owned_.size(); ++i) {
        SmOwned& own = *owned_[i];
        Outbox& o = own.outbox;
        for (const func::DeferredAccess& a : o.accesses) own.exec.apply(a);
        o.accesses.clear();
        o.steps.clear();
        if (sms[i]->has_pending()) {
            sms[i]->end_cycle(t_);
            (*next_)[i] = sms[i]->next_event();
        }
        ctx_.last_retire = std::max(ctx_.last_retire, o.last_retire);
        if (o.done_blocks || o.dispatch_pending) {
            ctx_.done_blocks += o.done_blocks;
            ctx_.dispatch_pending = true;
            o.done_blocks = 0;
            o.dispatch_pending = false;
        }
    }
}

void ParallelRun::add_counters(Stats& stats) const {
    for (const auto& own : owned_) {
        for (size_t pc = 0; pc < stats.per_pc.size(); ++pc) timing::add_counters(stats.per_pc[pc], own->stats.per_pc[pc]);
        timing::add_counters(stats.memory, own->stats.memory);
    }
}

}  // namespace simt::timing
