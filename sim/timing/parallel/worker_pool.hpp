// worker_pool.hpp: a persistent pool of threads for the parallel run.
//
// run() calls item(i) once for every i in [0, n) and returns when all have
// returned. The items are split into one contiguous range per thread (so an
// item's data stays in its thread's cache from call to call); a thread takes
// chunks of its own range first, then of the others' (a compare-and-swap on
// each range's counter, tagged with the call's generation), so a worker that
// wakes late or is descheduled leaves its share to the others: the call waits
// only for chunks already taken. Threads start once, with the
// pool; waiting workers spin briefly, then sleep on the generation counter
// (std::atomic::wait). item() must not throw (it catches and stores what it
// throws itself); which thread runs an item must not matter.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace simt::timing {

class WorkerPool {
public:
    // `threads` in all (the caller is one); n items per call, taken `chunk` at a time.
    WorkerPool(unsigned threads, size_t n, size_t chunk, std::function<void(size_t)> item);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    unsigned size() const { return unsigned(threads_.size()) + 1; }
    void run();

private:
    void loop(unsigned k);
    void take_chunks(unsigned k, uint32_t generation);
    bool take_chunk(unsigned range, uint32_t generation);  // false: none left there

    struct alignas(64) Range {
        size_t begin = 0, end = 0;
        std::atomic<uint64_t> claim{0};  // generation << 32 | next item not taken
    };

    const size_t n_, chunk_;
    const std::function<void(size_t)> item_;
    std::vector<Range> ranges_;             // one per thread
    std::vector<std::thread> threads_;
    std::atomic<uint32_t> generation_{0};
    std::atomic<size_t> done_{0};           // items finished in the current call
    std::atomic<bool> stop_{false};
};

}  // namespace simt::timing
