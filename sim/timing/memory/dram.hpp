// dram.hpp: DRAM channels with row chunks, bandwidth queueing and a load term.
//
// Address map: chunk = address / dram.interleave_bytes goes to channel
// h(chunk) mod channels. Each channel is a server (server.hpp) moving
// dram_bandwidth_gbs / channels; a piece of `bytes` occupies it bytes / rate
// cycles, plus dram.row_miss_bytes / rate when its chunk is not open (a table of
// dram.open_chunks chunks, direct-mapped by chunk over the whole DRAM: a stand-in
// for FR-FCFS scheduling, which serves the requests to an open row together,
// even when warps walking one stream drift apart).
// So sparse access (one sector per line) pays the opening for fewer bytes and
// streams reach less than the nominal rate, as the H200 shows (calib §6).
//
// A read at t is back at t + dram_latency + queueing + load term. Queueing is
// per warp request (server.hpp). The load term models the random bank
// conflicts that make a dependent load slower when many are in flight, below
// saturation, as an M/D/1 queue: wait = S rho / (2 (1 - rho)), S =
// dram.bank_service_cycles, rho = the channels' mean utilisation averaged
// exponentially over dram.load_window_cycles (capped at 0.9). That is the mean
// wait of random arrivals; the channel's own backlog (deterministic queueing)
// is part of it, so a read waits max(backlog, M/D/1 wait): at saturation the
// backlog takes over. It is computed from the requests issued so far, at
// issue, so event skipping stays exact.
//
// Left out: refresh, read/write turnaround, bank groups, command scheduling.
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/server.hpp"
#include "sim/timing/stats.hpp"

#include <cstdint>
#include <vector>

namespace simt::timing {

class Dram {
public:
    Dram(const GpuConfig& config, MemoryStats& stats);

    // A read of `bytes` at `addr` for request `req` arriving at t: the cycle its data is back.
    uint64_t read(uint64_t t, uint64_t addr, uint32_t bytes, uint64_t req);
    // A write of `bytes` at `addr` at t (a write-back): occupies its channel; returns the
    // cycle it has been written (queueing included).
    uint64_t write(uint64_t t, uint64_t addr, uint32_t bytes);
    double utilisation() const { return rho_; }

private:
    struct Channel {
        RateServer bus;
    };
    // The channel of addr and the cycles it occupies it (opening its chunk if needed).
    Channel& route(uint64_t addr, uint32_t bytes, double& cost);
    uint64_t load_term(uint64_t t, double busy);

    MemoryStats& stats_;
    std::vector<Channel> channels_;
    std::vector<uint64_t> open_;    // open chunks, direct-mapped by chunk (GPU-wide)
    uint32_t interleave_, latency_;
    double cycles_per_byte_ = 0;    // per channel
    double row_miss_cycles_ = 0;
    double service_, window_;
    double level_ = 0, rho_ = 0;    // exponentially averaged busy cycles per channel
    uint64_t last_ = 0;
};

}  // namespace simt::timing
