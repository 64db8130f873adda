// server.hpp: a throughput limit as a server with a next-free time.
//
// Work arrives at cycle t and occupies the server `cost` cycles (fractional:
// cost = 1 / rate); it starts at max(t, free_at). Queueing is per warp
// request: every piece of one request (its sectors) waits for the backlog the
// server had when the request's first piece arrived, and its own pieces move
// in parallel, so an unloaded request waits nothing whatever its size and a
// saturated server is bound by its rate (the backlog grows by every piece).
// Completion times are computed when the work arrives (at issue), so event
// skipping stays exact. A cost of 0 makes the server unlimited.
//
// Left out: reordering (FR-FCFS), finite queues (back-pressure shows as
// throttling at the SM's outstanding-request limit instead).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace simt::timing {

struct RateServer {
    double free_at = 0;
    uint64_t request = ~0ull;  // the request whose delay is cached
    uint64_t delay = 0;
    double busy = 0;           // cycles of work taken so far (utilisation = busy / elapsed)

    // Queueing delay of request `req`, one piece of which arrives at t and costs `cost` cycles.
    uint64_t take(uint64_t t, uint64_t req, double cost) {
        if (cost <= 0) return 0;
        if (req != request) {
            request = req;
            delay = free_at > double(t) ? uint64_t(std::ceil(free_at - double(t))) : 0;
        }
        occupy(t, cost);
        return delay;
    }
    // A piece of request `req` that costs nothing of its own (it rides on the request's earlier
    // pieces here): it waits as they did.
    uint64_t follow(uint64_t req) const { return req == request ? delay : 0; }
    // `cost` cycles of work arriving at t, with no queueing delay asked for.
    void occupy(uint64_t t, double cost) {
        free_at = std::max(free_at, double(t)) + cost;
        busy += cost;
    }
};

// Mixes the bits of a line or chunk index for address hashing (deterministic).
inline uint64_t mix_bits(uint64_t x) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 32;
    return x;
}

}  // namespace simt::timing
