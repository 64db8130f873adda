// dram.hpp: DRAM as a fixed latency plus one bandwidth server shared by all SMs.
//
// Bytes per cycle = dram_bandwidth_gbs * 1e9 / (clock_mhz * 1e6). Every
// transfer occupies the server bytes / bytes_per_cycle cycles (next-free
// time, fractional cycles). Queueing is per request: all sectors of one
// warp request wait for the backlog the server had when the request arrived
// (its own sectors move in parallel over the channels), so an unloaded miss
// costs exactly dram_latency, and a bandwidth-bound kernel is bound by the
// bandwidth (the backlog grows by every byte).
//
// Left out: channels, banks, row buffers, refresh, read/write turnaround.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace simt::timing {

class Dram {
public:
    Dram(double bytes_per_cycle, uint32_t latency)
        : cycles_per_byte_(bytes_per_cycle > 0 ? 1.0 / bytes_per_cycle : 0.0), latency_(latency) {}

    // A new warp request arrives at cycle t: its sectors wait for the current backlog.
    void begin_request(uint64_t t) {
        delay_ = free_at_ > double(t) ? uint64_t(std::ceil(free_at_ - double(t))) : 0;
    }
    // A read of `bytes` (one sector of the current request) at cycle t: the cycle its data is back.
    uint64_t read(uint64_t t, uint32_t bytes) {
        free_at_ = std::max(double(t), free_at_) + bytes * cycles_per_byte_;
        return t + latency_ + delay_;
    }
    // A write of `bytes` at cycle t (write-back of dirty sectors): only occupies the server.
    void write(uint64_t t, uint32_t bytes) {
        double start = std::max(double(t), free_at_);
        free_at_ = start + bytes * cycles_per_byte_;
    }
    double free_at() const { return free_at_; }

private:
    double cycles_per_byte_;
    uint32_t latency_;
    double free_at_ = 0;
    uint64_t delay_ = 0;  // queueing of the current request
};

}  // namespace simt::timing
