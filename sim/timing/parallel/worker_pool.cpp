// worker_pool.cpp: the pool's threads and its barrier (see worker_pool.hpp).
#include "sim/timing/parallel/worker_pool.hpp"

namespace simt::timing {

namespace {

// Before sleeping (a futex): a cycle's work is some microseconds, but with more
// threads than free cores a spinning waiter holds the core its peer needs.
constexpr int kSpins = 1 << 10;

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

}  // namespace

WorkerPool::WorkerPool(unsigned workers) {
    for (unsigned k = 1; k < workers; ++k) threads_.emplace_back([this, k] { loop(k); });
}

WorkerPool::~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void WorkerPool::run(const std::function<void(unsigned)>& job) {
    job_ = &job;
    running_.store(unsigned(threads_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    job(0);
    unsigned left = running_.load(std::memory_order_acquire);
    for (int i = 0; left != 0 && i < kSpins; ++i) {
        relax();
        left = running_.load(std::memory_order_acquire);
    }
    while (left != 0) {
        running_.wait(left, std::memory_order_acquire);
        left = running_.load(std::memory_order_acquire);
    }
}

void WorkerPool::loop(unsigned k) {
    uint64_t seen = 0;
    for (;;) {
        uint64_t g = generation_.load(std::memory_order_acquire);
        for (int i = 0; g == seen && i < kSpins; ++i) {
            relax();
            g = generation_.load(std::memory_order_acquire);
        }
        if (g == seen) {
            generation_.wait(seen, std::memory_order_acquire);
            continue;
        }
        seen = g;
        if (stop_.load(std::memory_order_relaxed)) return;
        (*job_)(k);
        if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) running_.notify_one();
    }
}

}  // namespace simt::timing
