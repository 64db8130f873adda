// write_back_buffer.hpp: an L2 slice's write-back buffer, the dirty lines on their way to DRAM.
//
// A dirty line the slice evicts or cleans (l2_slice.hpp) leaves through one of
// l2_slices.write_back_entries entries, which it holds until DRAM has written it. When every
// entry is held, the write-back waits for the first to come free, and so does the slice's tag
// pipeline: the fill that pushed the line out cannot finish, so every request behind it in the
// slice waits, reads that hit included. That is what the GH100 shows: beside random stores from
// the other SMs, a chase's L2 hit waits as long as its DRAM miss, 43,240 and 43,315 cycles where
// alone they take 296 and 698 ([CALIB-L1PIPE-2026] storms, calib/results/l1pipe/): the queue is
// in front of the L2's tags, not at DRAM. 0 entries: no limit (no stall).
//
// On the GPU a slice's lines belong to its own memory controller, whose write queue this buffer
// stands for. Here a line's DRAM channel is hashed apart from its slice (dram.hpp), so a
// per-channel queue would stall every slice on the busiest channel; a buffer per slice, freed
// by whichever of its write-backs is written first, keeps the slice's own rate instead.
//
// Timestamps, as the servers (server.hpp): an entry is the cycle it comes free.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace simt::timing {

class WriteBackBuffer {
public:
    explicit WriteBackBuffer(uint32_t entries) : free_at_(entries, 0) {}

    // The cycle a write-back ready at t takes an entry (t while one is free).
    uint64_t room(uint64_t t) const { return free_at_.empty() ? t : std::max(t, *first_free()); }
    // A write-back took the entry that comes free first; `done`: the cycle DRAM has written it.
    void hold(uint64_t done) {
        if (!free_at_.empty()) *first_free() = done;
    }

private:
    std::vector<uint64_t>::const_iterator first_free() const { return std::min_element(free_at_.begin(), free_at_.end()); }
    std::vector<uint64_t>::iterator first_free() { return std::min_element(free_at_.begin(), free_at_.end()); }

    std::vector<uint64_t> free_at_;  // one per entry
};

}  // namespace simt::timing
