// gap_server.hpp: a throughput limit whose work may arrive out of time order.
//
// The memory units compute a request's times when it is issued (server.hpp), so the work a
// DRAM channel is handed comes in the order the SMs issued it, not in the order of the cycles
// it arrives at: a write-back that waited in an L2 slice (write_back_buffer.hpp) arrives with
// a cycle far ahead of the reads issued after it. A RateServer (one next-free time) makes those
// later-handed, earlier-timed pieces queue behind it, leaving the channel idle until then,
// which no controller does: it serves what is there. A GapServer keeps the cycles it is
// booked for as a sorted list of busy intervals, and a piece arriving at t takes the first
// idle gap at or after t long enough for it. Pieces handed in time order never leave gaps, so
// then it is the RateServer exactly (one interval).
//
// The list is bounded (kMaxIntervals): when it is full, the earliest gap is given up (its two
// intervals become one), the oldest history first. Deterministic: the result depends on the
// order work is handed in, which is the serial run's order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace simt::timing {

class GapServer {
public:
    double busy = 0;  // cycles of work taken so far

    // Queueing delay of request `req`, one piece of which arrives at t and costs `cost` cycles
    // (the request's later pieces wait what its first waited, as RateServer::take).
    uint64_t take(uint64_t t, uint64_t req, double cost) {
        if (cost <= 0) return 0;
        const double start = book(double(t), cost);
        if (req != request_) {
            request_ = req;
            delay_ = uint64_t(std::ceil(start - double(t)));
        }
        return delay_;
    }
    // `cost` cycles of work arriving at t: the cycle it starts (its end: start + cost).
    double occupy(uint64_t t, double cost) { return cost > 0 ? book(double(t), cost) : double(t); }
    // The cycle the last booked interval ends (0: nothing booked yet).
    double last_end() const { return busy_.empty() ? 0.0 : busy_.back().end; }

private:
    struct Interval {
        double start, end;
    };
    static constexpr size_t kMaxIntervals = 32;

    double book(double t, double cost) {
        busy += cost;
        // The first interval that ends after t; the gaps before it are all in the past.
        auto it = std::upper_bound(busy_.begin(), busy_.end(), t, [](double v, const Interval& i) { return v < i.end; });
        double start = t;
        while (it != busy_.end() && start + cost > it->start) {
            start = std::max(start, it->end);
            ++it;
        }
        insert(it, Interval{start, start + cost});
        return start;
    }
    // Inserts `iv` before `it` (iv ends at or before it's start), merging touching neighbours.
    void insert(std::vector<Interval>::iterator it, Interval iv) {
        const bool joins_next = it != busy_.end() && it->start <= iv.end;
        const bool joins_prev = it != busy_.begin() && std::prev(it)->end >= iv.start;
        if (joins_prev && joins_next) {
            std::prev(it)->end = it->end;
            busy_.erase(it);
        } else if (joins_prev) {
            std::prev(it)->end = iv.end;
        } else if (joins_next) {
            it->start = iv.start;
        } else {
            busy_.insert(it, iv);
            if (busy_.size() > kMaxIntervals) forget_first_gap();
        }
    }
    void forget_first_gap() {
        busy_[1].start = busy_[0].start;
        busy_.erase(busy_.begin());
    }

    std::vector<Interval> busy_;  // disjoint, sorted by start
    uint64_t request_ = ~0ull;    // the request whose delay is cached
    uint64_t delay_ = 0;
};

}  // namespace simt::timing
