// test_timing_parallel_tasks.cpp: the run-ahead task slots (sim/timing/parallel/ahead_tasks):
// a posted SM runs once, on a worker or on the thread that helps; its progress only grows and
// stays below its result; once done() the caller sees every write the task made.
#include "sim/timing/parallel/ahead_tasks.hpp"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

namespace {

using simt::timing::AheadTasks;

// Task i ticks "cycles" start .. start + len, writing each into its own log, and returns start + len + 1.
struct Fake {
    std::vector<std::vector<uint64_t>> log;
    std::vector<uint64_t> start;
    std::vector<int> runs;
    uint64_t ahead(size_t i, const AheadTasks::Publish& publish) {
        ++runs[i];
        const uint64_t len = 100 + 37 * i;
        for (uint64_t c = start[i]; c <= start[i] + len; ++c) {
            log[i].push_back(c);
            publish(c + 1);
        }
        return start[i] + len + 1;
    }
};

void check_tasks(unsigned workers) {
    const size_t n = 9;
    Fake f{std::vector<std::vector<uint64_t>>(n), std::vector<uint64_t>(n), std::vector<int>(n)};
    AheadTasks tasks(workers, n, [&f](size_t i, const AheadTasks::Publish& p) { return f.ahead(i, p); });
    for (int round = 0; round < 50; ++round) {
        for (size_t i = 0; i < n; ++i) {
            f.start[i] = 1000 * round + i;
            tasks.post(i, f.start[i]);
            REQUIRE(tasks.out(i));
        }
        for (size_t i = 0; i < n; ++i) {
            uint64_t seen = 0;
            while (!tasks.done(i)) {
                const uint64_t p = tasks.progress(i);
                REQUIRE(p >= seen);
                seen = p;
                tasks.help(i);
            }
            const uint64_t next = tasks.collect(i);
            REQUIRE_FALSE(tasks.out(i));
            REQUIRE(next == f.start[i] + 100 + 37 * i + 1);
            REQUIRE(seen <= next);
            REQUIRE(f.log[i].size() == 100 + 37 * i + 1);  // the task's writes, all seen
            REQUIRE(f.log[i].back() == next - 1);
            REQUIRE(f.runs[i] == round + 1);  // once per post
            f.log[i].clear();
        }
    }
}

}  // namespace

TEST_CASE("parallel tasks: each post runs once, its progress grows below its result, its writes are seen",
          "[timing][parallel]") {
    for (unsigned workers : {0u, 1u, 3u}) {
        INFO("workers " << workers);
        check_tasks(workers);
    }
}
