// ahead_tasks.cpp: the slots, the FIFO and the workers (see ahead_tasks.hpp).
#include "sim/timing/parallel/ahead_tasks.hpp"
#include "sim/timing/parallel/spin.hpp"

namespace simt::timing {

using spin::kSpins;
using spin::relax;

AheadTasks::AheadTasks(unsigned workers, size_t n, Ahead ahead) : ahead_(std::move(ahead)), slots_(n) {
    for (unsigned k = 0; k < workers; ++k) threads_.emplace_back([this] { loop(); });
}

AheadTasks::~AheadTasks() {
    stop_.store(true, std::memory_order_seq_cst);
    posted_.fetch_add(1, std::memory_order_seq_cst);
    posted_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void AheadTasks::post(size_t i, uint64_t p) {
    Slot& s = slots_[i];
    s.progress.store(p, std::memory_order_relaxed);
    s.state.store(kQueued, std::memory_order_release);
    if (threads_.empty()) return;  // the top loop runs it when it waits (help)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(uint32_t(i));
    }
    posted_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst)) posted_.notify_one();
}

uint64_t AheadTasks::collect(size_t i) {
    Slot& s = slots_[i];
    s.state.store(kIdle, std::memory_order_relaxed);
    return s.next;
}

bool AheadTasks::claim(size_t i) {
    uint8_t q = kQueued;
    return slots_[i].state.compare_exchange_strong(q, kRunning, std::memory_order_acq_rel);
}

void AheadTasks::execute(size_t i, uint64_t need) {
    Slot& s = slots_[i];
    s.next = ahead_(i, [&](uint64_t p) {
        s.progress.store(p, std::memory_order_release);
        return p <= need || !worker_idle();  // (kNoStop: always on)
    });
    s.state.store(kDone, std::memory_order_release);
}

bool AheadTasks::worker_idle() const {
    return spinning_.load(std::memory_order_relaxed) + sleepers_.load(std::memory_order_relaxed) > 0;
}

bool AheadTasks::take(size_t& i) {
    for (;;) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (queue_.empty()) return false;
            i = queue_.front();
            queue_.pop_front();
        }
        if (claim(i)) return true;
    }
}

bool AheadTasks::run_one(uint64_t need) {
    size_t i;
    if (!take(i)) return false;
    execute(i, need);
    return true;
}

// (Another SM than the one waited for: `need` 0, it may stop after any tick.)
void AheadTasks::help(size_t i, uint64_t need) {
    const bool queued = slots_[i].state.load(std::memory_order_relaxed) == kQueued;
    if (queued && spinning_.load(std::memory_order_seq_cst)) relax();  // a worker is about to take one
    else if (claim(i)) execute(i, need);
    else if (!run_one(0)) relax();
}

void AheadTasks::loop() {
    for (;;) {
        const uint32_t seen = posted_.load(std::memory_order_seq_cst);
        if (stop_.load(std::memory_order_relaxed)) return;
        if (run_one(kNoStop)) continue;
        spinning_.fetch_add(1, std::memory_order_seq_cst);
        int k = 0;
        while (k < kSpins && posted_.load(std::memory_order_relaxed) == seen) {
            relax();
            ++k;
        }
        size_t i = 0;
        const bool got = k < kSpins && take(i);  // (claimed before the top loop stops leaving it)
        spinning_.fetch_sub(1, std::memory_order_seq_cst);
        if (got) execute(i, kNoStop);
        if (k < kSpins) continue;
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        if (posted_.load(std::memory_order_seq_cst) == seen) posted_.wait(seen, std::memory_order_seq_cst);
        sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    }
}

}  // namespace simt::timing
