// coalescer.hpp: which 32-byte sectors one warp memory instruction touches,
// and how many shared-memory wavefronts (bank passes) it needs.
//
// Global/local/tex: the distinct sectors touched by the exec lanes (a lane's
// `bytes` may span several sectors; aligned 4- and 16-byte accesses never do).
// One request per warp instruction, sectors = distinct sectors
// (REFERENCE.md §3). Shared: banks of 4-byte words; distinct words in one
// bank serialise, the same word broadcasts; wavefronts = the most distinct
// words any bank holds (so a conflict-free 16-byte access takes 4).
// Const: serialised over distinct addresses.
//
// Left out: the 128-byte line grouping of the L1 tag stage beyond sectors per
// cycle, shared-memory phases for 8-byte accesses (not in the ISA).
#pragma once

#include <array>
#include <cstdint>

namespace simt::timing {

using LaneAddrs = std::array<uint64_t, 32>;

struct SectorList {
    uint32_t count = 0;
    std::array<uint64_t, 64> sector{};  // sector index = address / sector_bytes, ascending, distinct
};

// Fills `out` with the distinct sectors of the exec lanes' accesses. True when the access is a full
// warp of consecutive elements (lane l at addr[0] + l * bytes, addr[0] aligned to them, bytes a power
// of two no larger than a sector), which shared_wavefronts may be told.
bool coalesce(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes, SectorList& out);

// For a store: whether each sector of `s` (from coalesce) is written whole
// (bit i of the result set when sector i gets only some of its bytes).
uint64_t partial_sectors(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t sector_bytes,
                         const SectorList& s);

// Atomic lane operations grouped by address: addr ascending, distinct, with the lanes on each.
struct AtomicGroups {
    uint32_t count = 0;
    bool float_add = false;  // a floating-point add (its word's next add waits for its result: atomic_unit.hpp)
    uint32_t lane_bytes = 4;  // each lane's operand: 4 B, or 8 for a 64-bit atomic (atomic_packet.hpp)
    std::array<uint64_t, 32> addr{};
    std::array<uint8_t, 32> lanes{};
};
void group_atomics(uint32_t exec, const LaneAddrs& addr, AtomicGroups& out);

// The most lanes on one word (shared-memory atomics serialise on it); 0 when none executes.
uint32_t max_lanes_per_word(uint32_t exec, const LaneAddrs& addr);

// Wavefronts of a shared-memory access (>= 1 when any lane executes, 0 when none).
// `consecutive`: coalesce() returned true for these lanes and bytes (their test is then skipped).
uint32_t shared_wavefronts(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t banks,
                           bool consecutive = false);

// Wavefronts a shared-memory access needs to return its data when one wavefront carries
// `return_bytes` (a 4 B register of 32 lanes: 128): 32 x bytes / return_bytes, half when the
// active lanes of every pair (n, n ^ 1) or every pair (n, n ^ 2) share an address (the data
// packs); 1 for 4 B accesses and when return_bytes is 0. The bank wavefronts (above) are apart.
uint32_t return_wavefronts(uint32_t exec, const LaneAddrs& addr, uint32_t bytes, uint32_t return_bytes);

// Distinct addresses among the exec lanes (constant-cache serialisation).
uint32_t distinct_addresses(uint32_t exec, const LaneAddrs& addr);

}  // namespace simt::timing
