// test_timing_parallel_tasks.cpp: the run-ahead task slots (sim/timing/parallel/ahead_tasks):
// a posted SM runs once, on a worker or on the thread that helps; its progress only grows and
// stays below its result; once done() the caller sees every write the task made; a task the
// helping thread stopped early (publish said stop) has ticked once at least, and posted again
// from its result it goes on where it stopped: every cycle once, in order.
#include "sim/timing/parallel/ahead_tasks.hpp"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

namespace {

using simt::timing::AheadTasks;

// Task i ticks "cycles" start .. end (end = the round's first start + len), writing each into its
// own log, and returns end + 1, or the cycle after the one where publish said stop.
struct Fake {
    std::vector<std::vector<uint64_t>> log;
    std::vector<uint64_t> start, end;
    std::vector<int> runs;
    uint64_t ahead(size_t i, const AheadTasks::Publish& publish) {
        ++runs[i];
        for (uint64_t c = start[i]; c <= end[i]; ++c) {
            log[i].push_back(c);
            if (!publish(c + 1)) return c + 1;
        }
        return end[i] + 1;
    }
};

void check_tasks(unsigned workers) {
    const size_t n = 9;
    Fake f{std::vector<std::vector<uint64_t>>(n), std::vector<uint64_t>(n), std::vector<uint64_t>(n),
           std::vector<int>(n)};
    AheadTasks tasks(workers, n, [&f](size_t i, const AheadTasks::Publish& p) { return f.ahead(i, p); });
    int posts = 0;
    for (int round = 0; round < 50; ++round) {
        for (size_t i = 0; i < n; ++i) {
            f.start[i] = 1000 * round + i;
            f.end[i] = f.start[i] + 100 + 37 * i;
            tasks.post(i, f.start[i]);
            ++posts;
            REQUIRE(tasks.out(i));
        }
        for (size_t i = 0; i < n; ++i) {
            const uint64_t first = f.start[i];
            for (uint64_t need = first + 10;;) {  // waits for the task to pass `need`, 10 cycles at a time
                uint64_t seen = 0;
                while (!tasks.done(i)) {
                    const uint64_t p = tasks.progress(i);
                    REQUIRE(p >= seen);
                    seen = p;
                    tasks.help(i, need);
                }
                const uint64_t next = tasks.collect(i);
                REQUIRE_FALSE(tasks.out(i));
                REQUIRE(seen <= next);
                REQUIRE(f.log[i].back() == next - 1);  // the task's writes, all seen
                if (next == f.end[i] + 1) break;
                REQUIRE(next > f.start[i]);  // stopped after a tick at least (the one waited for: past need)
                need = next + 10;
                f.start[i] = next;  // posted again: goes on where it stopped
                tasks.post(i, next);
                ++posts;
            }
            REQUIRE(f.log[i].size() == f.end[i] - first + 1);  // every cycle once, in order
            for (size_t k = 0; k < f.log[i].size(); ++k) REQUIRE(f.log[i][k] == first + k);
            f.log[i].clear();
        }
    }
    int runs = 0;
    for (int r : f.runs) runs += r;
    REQUIRE(runs == posts);  // once per post
}

}  // namespace

TEST_CASE("parallel tasks: each post runs once, its progress grows below its result, its writes are seen",
          "[timing][parallel]") {
    for (unsigned workers : {0u, 1u, 3u}) {
        INFO("workers " << workers);
        check_tasks(workers);
    }
}
