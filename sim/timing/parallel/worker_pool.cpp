// worker_pool.cpp: the pool's threads and its barrier (see worker_pool.hpp).
#include "sim/timing/parallel/worker_pool.hpp"

namespace simt::timing {

namespace {

constexpr int kSpins = 1 << 12;  // before sleeping: a cycle's work is a few microseconds

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
    for (int i = 0; running_.load(std::memory_order_acquire) != 0; ++i) {
        if (i < kSpins) relax();
        else std::this_thread::yield();
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
        running_.fetch_sub(1, std::memory_order_acq_rel);
    }
}

}  // namespace simt::timing
