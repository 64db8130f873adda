// crossbar.hpp: the interconnect between the SMs' L1s and the L2 slices.
//
// Address map: lines come in groups of l2_slices.interleave_bytes (one line
// by default; 512 B on the H200, where 8 consecutive lines of atomics run on 2
// units, calib/kernels/atomgrid.cu); group g goes to slice (g mod S + h(g / S))
// mod S, with S slices and h a bit mix: consecutive groups spread over all
// slices and each run of S consecutive groups uses every slice once (a
// permutation), so a slice's own line index is (g / S) * lines per group + the
// line's place in its group. Bandwidth: each SM has a port that carries
// crossbar.sm_sectors_per_cycle sectors per cycle (loads' misses, stores and
// atomics alike); its queueing is per request (server.hpp). The slices' own
// throughput is in l2_slice.hpp. The crossbar's latency is part of the
// end-to-end memory.l2.hit_latency.
//
// With L2 partitions (l2.hpp) the map spreads lines over one partition's
// slices; every partition uses the same map.
//
// Left out: the response direction
// (each request sector returns one sector, so the request port bounds both).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/fast_div.hpp"
#include "sim/timing/memory/server.hpp"

#include <cstdint>
#include <vector>

namespace simt::timing {

class Crossbar {
public:
    explicit Crossbar(const GpuConfig& c)
        : slices_(std::max(c.memory.l2_slices.count / std::max(c.memory.l2_slices.partitions, 1u), 1u)),
          cost_(c.memory.crossbar.sm_sectors_per_cycle > 0 ? 1.0 / c.memory.crossbar.sm_sectors_per_cycle : 0.0),
          group_(std::max<uint64_t>(1, c.memory.l2_slices.interleave_bytes / std::max(c.memory.l2.line_bytes, 1u))),
          by_slices_(slices_), ports_(std::max(c.sm.count, 1u)) {}

    // (group_ and by_slices_ divide without a divide instruction: fast_div.hpp)
    uint32_t slice_of(uint64_t line) const {
        if (slices_ == 1) return 0;
        const uint64_t g = group_.div(line);
        const uint64_t run = by_slices_.div(g);
        return uint32_t(by_slices_.mod(g - run * slices_ + by_slices_.mod(mix_bits(run))));
    }
    // slice_of(line) into `slice`, and returns local_of(line) (one division for both).
    uint64_t place(uint64_t line, uint32_t& slice) const {
        if (slices_ == 1) {
            slice = 0;
            return line;
        }
        const uint64_t g = group_.div(line);
        const uint64_t run = by_slices_.div(g);
        slice = uint32_t(by_slices_.mod(g - run * slices_ + by_slices_.mod(mix_bits(run))));
        return run * group_.divisor() + group_.mod(line);
    }
    uint64_t group_of(uint64_t line) const { return group_.div(line); }
    // The slice's own index of a line (its place among the lines that slice holds).
    uint64_t local_of(uint64_t line) const {
        if (slices_ == 1) return line;
        return by_slices_.div(group_.div(line)) * group_.divisor() + group_.mod(line);
    }
    // The global line of a slice's own line index (the inverse of the map).
    uint64_t line_of(uint32_t slice, uint64_t local) const {
        if (slices_ == 1) return local;
        const uint64_t run = group_.div(local);
        const uint64_t h = by_slices_.mod(mix_bits(run));
        return (run * slices_ + (slice + slices_ - h) % slices_) * group_.divisor() + group_.mod(local);
    }
    // Queueing delay of one sector of request `req` sent by SM `sm` at t.
    uint64_t send(uint32_t sm, uint64_t t, uint64_t req) { return ports_[sm].take(t, req, cost_); }
    uint32_t slices() const { return slices_; }

private:
    uint32_t slices_;
    double cost_;
    FastDiv group_;      // lines per interleave group
    FastDiv by_slices_;  // slices_
    std::vector<RateServer> ports_;
};

}  // namespace simt::timing
