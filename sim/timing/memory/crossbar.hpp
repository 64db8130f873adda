// crossbar.hpp: the interconnect between the SMs' L1s and the L2 slices.
//
// Address map: a 128 B L2 line goes to slice (line mod S + h(line / S)) mod S,
// with S slices and h a bit mix: consecutive lines spread over all slices and
// each group of S consecutive lines uses every slice once (a permutation), so a
// slice's own line index is line / S. Bandwidth: each SM has a port that carries
// crossbar.sm_sectors_per_cycle sectors per cycle (loads' misses, stores and
// atomics alike); its queueing is per request (server.hpp). The slices' own
// throughput is in l2_slice.hpp. The crossbar's latency is part of the
// end-to-end memory.l2.hit_latency.
//
// Left out: near/far L2 partitions (one hit latency), the response direction
// (each request sector returns one sector, so the request port bounds both).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/server.hpp"

#include <cstdint>
#include <vector>

namespace simt::timing {

class Crossbar {
public:
    explicit Crossbar(const GpuConfig& c)
        : slices_(std::max(c.memory.l2_slices.count, 1u)),
          cost_(c.memory.crossbar.sm_sectors_per_cycle > 0 ? 1.0 / c.memory.crossbar.sm_sectors_per_cycle : 0.0),
          ports_(std::max(c.sm.count, 1u)) {}

    uint32_t slice_of(uint64_t line) const {
        if (slices_ == 1) return 0;
        return uint32_t((line % slices_ + mix_bits(line / slices_) % slices_) % slices_);
    }
    // The global line of a slice's own line index (the inverse of the map).
    uint64_t line_of(uint32_t slice, uint64_t local) const {
        if (slices_ == 1) return local;
        uint64_t h = mix_bits(local) % slices_;
        return local * slices_ + (slice + slices_ - h) % slices_;
    }
    // Queueing delay of one sector of request `req` sent by SM `sm` at t.
    uint64_t send(uint32_t sm, uint64_t t, uint64_t req) { return ports_[sm].take(t, req, cost_); }
    uint32_t slices() const { return slices_; }

private:
    uint32_t slices_;
    double cost_;
    std::vector<RateServer> ports_;
};

}  // namespace simt::timing
