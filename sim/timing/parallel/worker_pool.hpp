// worker_pool.hpp: a persistent pool of threads for the parallel run.
//
// run(job) calls job(k) once on every worker k = 0..size()-1 (worker 0 is
// the calling thread) and returns when all have returned: one barrier per
// call, no thread started per call. Waiting workers spin briefly, then sleep
// on the generation counter (std::atomic::wait), so a machine shared with
// other work is not held busy. The job must not throw (it catches and stores
// what it throws itself).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace simt::timing {

class WorkerPool {
public:
    explicit WorkerPool(unsigned workers);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    unsigned size() const { return unsigned(threads_.size()) + 1; }
    void run(const std::function<void(unsigned)>& job);

private:
    void loop(unsigned k);

    std::vector<std::thread> threads_;
    const std::function<void(unsigned)>* job_ = nullptr;
    std::atomic<uint64_t> generation_{0};
    std::atomic<unsigned> running_{0};  // workers 1.. still in the current job
    std::atomic<bool> stop_{false};
};

}  // namespace simt::timing
