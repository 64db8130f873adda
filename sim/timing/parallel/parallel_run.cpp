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

// Without run-ahead (no event skipping): chunks of about an eighth of a thread's
// share: few hand-outs, and little left to wait for when a worker is descheduled
// with one.
namespace {
size_t chunk(unsigned threads, uint32_t sms) { return sms / (8 * std::max(1u, threads)); }
}  // namespace

ParallelRun::ParallelRun(Context& ctx, unsigned threads, uint32_t sms, RunAhead& ahead)
    : ctx_(ctx), ahead_(ahead), jobs_(sms) {
    for (uint32_t i = 0; i < sms; ++i) owned_.push_back(std::make_unique<SmOwned>(ctx));
    threads = std::max(1u, threads);
    if (ahead.on())
        tasks_ = std::make_unique<AheadTasks>(threads - 1, sms, [this](size_t i, const AheadTasks::Publish& p) {
            return run_ahead(i, p);
        });
    else
        pool_ = std::make_unique<WorkerPool>(threads, sms, chunk(threads, sms), [this](size_t i) { tick(i); });
}

void ParallelRun::cycle(std::vector<std::unique_ptr<Sm>>& sms, std::vector<uint64_t>& next, uint64_t t, bool all,
                        bool blocks_left) {
    sms_ = &sms;
    next_ = &next;
    t_ = t;
    all_ = all;
    blocks_left_ = blocks_left;
    budget_far_ = ahead_.budget_far(steps_, Context::limits(ctx_.cfg).max_warp_instructions);
    if (tasks_) {
        if (!budget_far_) wait_all(next);
        tick_due();
    } else if (last_steps_ >= kFanOutSteps) pool_->run();
    else
        for (size_t i = 0; i < owned_.size(); ++i) tick(i);
    const uint64_t before = steps_;
    check_errors();
    last_steps_ = steps_ - before;
    settle();
    if (tasks_) post_ahead();
}

// SM i, if due at t (as the serial loop; the next one's state is asked for first).
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
    next[i] = sm.next_event();
}

// With run-ahead: the SMs due at t tick on this thread in SM order (an SM out ahead is not
// due: its entry in next is kNever); those whose tick left nothing for the settle may go ahead.
void ParallelRun::tick_due() {
    may_go_.clear();
    const std::vector<uint64_t>& next = *next_;
    for (size_t i = 0; i < next.size(); ++i) {
        if (next[i] > t_) continue;
        tick(i);
        if (!owned_[i]->outbox.error && !waits_for_settle(i)) may_go_.push_back(uint32_t(i));
    }
}

// After the settle (which did not touch them): the SMs that may run ahead go out as tasks,
// from their next event; their entry in next is kNever until they come back (next_cycle).
void ParallelRun::post_ahead() {
    if (!budget_far_) return;
    for (uint32_t i : may_go_) {
        Sm& sm = *(*sms_)[i];
        if (!ahead_.starts(sm, t_, [&] { return blocks_left_ && sm.fits(); })) continue;
        jobs_[i] = Job{&sm, t_, blocks_left_};
        tasks_->post(i, (*next_)[i]);
        (*next_)[i] = kNever;
        out_.push_back(i);
    }
}

// On a worker (or the top loop, helping): SM i ahead from its job's cycle, as on one thread.
// The budget is far for the whole run: it was when the SM went out (see wait_all's callers).
uint64_t ParallelRun::run_ahead(size_t i, const AheadTasks::Publish& publish) {
    const Job& job = jobs_[i];
    Sm& sm = *job.sm;
    return ahead_.run(sm, uint32_t(i), job.t, [&] { return job.blocks_left && sm.fits(); }, [] { return true; },
                      publish);
}

// SM i is back: its next event, and its steps ahead counted (only their number matters
// while the budget is far).
uint64_t ParallelRun::take_back(size_t i, std::vector<uint64_t>& next) {
    next[i] = tasks_->collect(i);
    Outbox& o = owned_[i]->outbox;
    steps_ += o.steps.size();
    o.steps.clear();
    return next[i];
}

uint64_t ParallelRun::next_cycle(std::vector<uint64_t>& next, uint64_t bound) {
    uint64_t t = bound;
    for (;;) {
        for (size_t k = 0; k < out_.size();) {
            if (!tasks_->done(out_[k])) {
                ++k;
                continue;
            }
            t = std::min(t, take_back(out_[k], next));
            out_[k] = out_.back();
            out_.pop_back();
        }
        auto behind = std::find_if(out_.begin(), out_.end(), [&](uint32_t i) { return tasks_->progress(i) <= t; });
        if (behind == out_.end()) return t;
        tasks_->help(*behind, t);
    }
}

void ParallelRun::wait_all(std::vector<uint64_t>& next) {
    for (uint32_t i : out_) {
        while (!tasks_->done(i)) tasks_->help(i, kNever);
        take_back(i, next);
    }
    out_.clear();
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
    for (size_t i = 0; i < owned_.size(); ++i) {
        if (out(i)) continue;  // (its outbox is its worker's; it stepped nothing at t)
        const Outbox& o = owned_[i]->outbox;
        if (o.error && n + o.steps.size() <= max) std::rethrow_exception(o.error);
        if (n + o.steps.size() > max) throw ctx_.exec.budget_error(o.steps[max - n]);
        n += o.steps.size();
    }
    steps_ = n;
}

void ParallelRun::settle() {
    std::vector<std::unique_ptr<Sm>>& sms = *sms_;
    for (size_t i = 0; i < owned_.size(); ++i) {
        if (out(i)) continue;
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
