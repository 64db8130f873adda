// worker_pool.cpp: the pool's threads and the chunked hand-out (see worker_pool.hpp).
#include "sim/timing/parallel/worker_pool.hpp"
#include "sim/timing/parallel/spin.hpp"

#include <algorithm>

namespace simt::timing {

using spin::kSpins;
using spin::relax;

WorkerPool::WorkerPool(unsigned threads, size_t n, size_t chunk, std::function<void(size_t)> item)
    : n_(n), chunk_(std::max<size_t>(1, chunk)), item_(std::move(item)), ranges_(std::max(1u, threads)) {
    const size_t r = ranges_.size();
    for (size_t k = 0; k < r; ++k) {
        ranges_[k].begin = n * k / r;
        ranges_[k].end = n * (k + 1) / r;
    }
    for (unsigned k = 1; k < threads; ++k) threads_.emplace_back([this, k] { loop(k); });
}

WorkerPool::~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void WorkerPool::run() {
    const uint32_t g = generation_.load(std::memory_order_relaxed) + 1;
    done_.store(0, std::memory_order_relaxed);
    for (Range& r : ranges_) r.claim.store(uint64_t(g) << 32 | r.begin, std::memory_order_release);
    generation_.store(g, std::memory_order_release);
    if (!threads_.empty()) generation_.notify_all();
    take_chunks(0, g);
    // What is left is a chunk another thread took: usually microseconds (spin
    // on, rather than give the core to another process for a time slice).
    for (int i = 0; done_.load(std::memory_order_acquire) != n_; ++i) {
        if (i < kSpins) relax();
        else std::this_thread::yield();
    }
}

// Thread k's own range first, then the others'.
void WorkerPool::take_chunks(unsigned k, uint32_t generation) {
    for (size_t j = 0; j < ranges_.size(); ++j)
        while (take_chunk(unsigned((k + j) % ranges_.size()), generation)) {}
}

bool WorkerPool::take_chunk(unsigned range, uint32_t generation) {
    Range& r = ranges_[range];
    uint64_t v = r.claim.load(std::memory_order_acquire);
    for (;;) {
        if (uint32_t(v >> 32) != generation) return false;  // (a later call began)
        const size_t first = size_t(v & 0xffffffffu);
        if (first >= r.end) return false;
        if (r.claim.compare_exchange_weak(v, v + chunk_, std::memory_order_acq_rel, std::memory_order_acquire)) break;
    }
    const size_t first = size_t(v & 0xffffffffu), end = std::min(first + chunk_, r.end);
    for (size_t i = first; i < end; ++i) item_(i);
    done_.fetch_add(end - first, std::memory_order_acq_rel);
    return true;
}

void WorkerPool::loop(unsigned k) {
    uint32_t seen = 0;
    for (;;) {
        uint32_t g = generation_.load(std::memory_order_acquire);
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
        take_chunks(k, g);
    }
}

}  // namespace simt::timing
