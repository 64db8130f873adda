// atomic_packet.hpp: how the L1TEX sends one line's share of a warp's global atomic to the L2.
//
// Measured on the H200 with Nsight Compute (calib/kernels/atomprobe.cu, calib/README.md §10):
// the L2 counts one request per line of an instruction when its lanes hit distinct words, and
// one per lane when they hit one word (32 lanes on one word: 32 requests). So a line's lanes
// leave in passes, each holding at most one lane per word: pass k carries one lane of every
// word with more than k lanes, and the line takes as many passes as its busiest word has lanes.
// Each pass is one packet through the crossbar into the slice: a header and 4 B per lane (8 for a
// 64-bit atomic), in
// flits of l2_slices.flit_bytes (ncu's lts__xbar2lts_cycles_active: 1 cycle for one lane, 2 for
// 4 or 8 lanes of one sector, 5 for 32 lanes over 4 sectors: a header of 17..28 B).
// Each pass is also one tag lookup at every slice it passes (l2.hpp).
//
// Left out: 128-bit atomics.
#pragma once

#include "sim/timing/memory/coalescer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace simt::timing {

// The lanes of one line of a request (sector mode): its sectors with their lanes and the lanes
// on each sector's busiest word, the passes (the line's busiest word) and the packets' flits.
struct AtomicLine {
    uint64_t line = 0;
    uint32_t count = 0;  // sectors with lanes
    std::array<uint64_t, 32> sector{}, busiest_word{};  // busiest_word: the address of the sector's busiest word
    std::array<uint8_t, 32> lanes{}, busiest{};
    uint32_t passes = 0, flits = 0;
    bool float_add = false;  // the request's op is a floating-point add (atomic_unit.hpp)
};

// Flits of the passes of a line whose words hold `per_word[0..words)` lanes: pass k carries the
// words with more than k lanes, header_bytes + lane_bytes per lane, rounded up to whole flits.
inline uint32_t atomic_flits(const uint8_t* per_word, uint32_t words, uint32_t header_bytes, uint32_t flit_bytes,
                             uint32_t lane_bytes = 4) {
    std::array<uint32_t, 34> at_least{};  // at_least[k]: words with at least k lanes
    uint32_t passes = 0;
    for (uint32_t i = 0; i < words; ++i) {
        ++at_least[per_word[i]];
        passes = std::max<uint32_t>(passes, per_word[i]);
    }
    for (uint32_t k = passes; k > 1; --k) at_least[k - 1] += at_least[k];
    uint32_t flits = 0;
    const uint32_t f = std::max(flit_bytes, 1u);
    for (uint32_t k = 1; k <= passes; ++k) flits += (header_bytes + lane_bytes * at_least[k] + f - 1) / f;
    return flits;
}

// Fills `out` with the line of group `i` (groups sorted by address) and returns the index of the
// first group of the next line.
inline uint32_t next_atomic_line(const AtomicGroups& g, uint32_t i, uint32_t sector_bytes, uint32_t sectors_per_line,
                                 uint32_t header_bytes, uint32_t flit_bytes, AtomicLine& out) {
    const uint64_t line = g.addr[i] / sector_bytes / sectors_per_line;
    const uint32_t first = i;
    out.line = line;
    out.count = 0;
    out.passes = 0;
    out.float_add = g.float_add;
    for (; i < g.count && g.addr[i] / sector_bytes / sectors_per_line == line; ++i) {
        const uint64_t sector = g.addr[i] / sector_bytes;
        if (!out.count || out.sector[out.count - 1] != sector) {
            out.sector[out.count] = sector;
            out.lanes[out.count] = 0;
            out.busiest[out.count++] = 0;
        }
        out.lanes[out.count - 1] = uint8_t(out.lanes[out.count - 1] + g.lanes[i]);
        if (g.lanes[i] > out.busiest[out.count - 1]) {
            out.busiest[out.count - 1] = g.lanes[i];
            out.busiest_word[out.count - 1] = g.addr[i];
        }
        out.passes = std::max<uint32_t>(out.passes, g.lanes[i]);
    }
    out.flits = atomic_flits(&g.lanes[first], i - first, header_bytes, flit_bytes, g.lane_bytes);
    return i;
}

}  // namespace simt::timing
