// dram.hpp: DRAM channels with row chunks, bandwidth queueing and a load term.
//
// Address map: chunk = address / dram.interleave_bytes goes to channel
// h(chunk) mod channels. Each channel is a server moving dram_bandwidth_gbs / channels
// (gap_server.hpp: work handed to it late but timed early takes the idle cycles before work
// handed earlier, as a controller serves what has arrived); a piece of `bytes` occupies it bytes / rate
// cycles, plus dram.row_miss_bytes / rate when its chunk is not open (a table of
// dram.open_chunks chunks, direct-mapped by chunk over the whole DRAM: a stand-in
// for FR-FCFS scheduling, which serves the requests to an open row together,
// even when warps walking one stream drift apart).
// So sparse access (one sector per line) pays the opening for fewer bytes and
// streams reach less than the nominal rate, as the H200 shows (calib §6).
// Write-backs are drained apart from the reads (a controller batches writes by
// row), so they keep their own table of open rows, of dram.write_row_bytes of
// address space each, and pay dram.write_row_miss_bytes to open one (activation,
// write recovery tWR, precharge). The L2 evicts a stream's lines out of address
// order, so a row of several chunks is what keeps a write stream near the read
// rate (stream_write 4.2-4.3 TB/s) while scattered stores open a row each. The
// read of an ECC read-modify-write (a partial sector) also turns the channel
// around, read to write and back: dram.rmw_turnaround_bytes (strided_write
// stride 32, scatter_dram). A read that opens a chunk takes the same activation
// window (dram.read_activate_bytes), and every read piece a share for its column
// command (dram.read_command_bytes): it waits for what is queued there and holds the
// window for its own, so random reads and random write-backs add up in a channel (the
// H200's mixes, calib/kernels/mixrw.cu), a chunk read in few small pieces (stride 32:
// two 64 B pieces) is bound by the window, and a stream (four pieces per chunk) by the
// bus alone. On the H100 a whole 128 B line costs the same wherever it lies while a lone
// 64 B piece costs 0.78 of one (calib/results/linestride), so opening a read chunk should cost
// window time rather than bus time; h200.yaml still charges the bus (row_miss_bytes) and no
// command share, the better fit on the whole table (calib/README.md, twenty-third pass).
// A write-back to a channel that also served reads in the last load window pays
// dram.mixed_write_bytes more: the controller's share of the turnarounds between its read
// and write batches (a copy reaches 3.64 TB/s of read +
// write where reads alone reach 4.36 and writes alone 4.2). Random traffic cannot be batched
// that way: a row opening whose direction differs from the channel's previous row opening (a
// read after a write-back, or a write-back after a read) holds the data bus dram.switch_bytes
// longer (the write-to-read and read-to-write turnarounds, tWTR / tRTW, that the controller
// cannot fill with other banks' data). A stream's accesses rarely open a row, so rarely
// turn. With random reads and write-backs in proportions p and q, 2pq of the openings turn:
// the H100's DRAM counters on random read-modify-write footprints
// (calib/kernels/probe_l2parts.sh) cost about 90 B per turn beside reads alone and writes alone.
//
// Latency spread: an access's latency varies with the state of its bank (row hit, row miss,
// a conflict with the requests queued there). Each access to a chunk draws a deterministic
// geometric share, dram.latency_spread_cycles x k with probability 2^-(k+1), so the mean stays
// the configured dram_latency (a dependent chase measures the mean) while a warp waiting for
// several lines waits for the slowest: the H200 serves a burst of 8 independent lines per
// warp in ~970 cycles where one dependent line takes 720 (calib stream_read at 4-8 warps),
// and a gather of 32 lines per warp load waits longer still.
//
// A read at t is back at t + dram_latency (minus the mean spread) + its spread + queueing + load term. Queueing is
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
// Left out: refresh, bank groups, command scheduling (turnarounds are costs here, not a schedule).
#pragma once

#include "sim/config/config.hpp"
#include "sim/timing/memory/fast_div.hpp"
#include "sim/timing/memory/gap_server.hpp"
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
    // The read of a read-modify-write at t: occupies the channel like a read (no data returned to an SM),
    // plus the turnaround from reading to writing and back (dram.rmw_turnaround_bytes).
    void read_back(uint64_t t, uint64_t addr, uint32_t bytes, bool turnaround);
    double utilisation() const { return rho_; }
    // The busiest channel's busy cycles and the mean over channels (for the report).
    void busy(double& max, double& mean) const;

private:
    struct Channel {
        GapServer bus;           // gap_server.hpp: work is handed in issue order, not time order
        GapServer activate;      // row activations (tRRD, tFAW)
        uint64_t last_read = 0;  // cycle of its last read + 1 (0: none yet)
        int8_t last_open = -1;   // direction of its last row opening: 0 read, 1 write (-1: none yet)
    };
    // The channel of addr and the cycles it occupies it (opening its chunk if needed, in the
    // table of reads or of write-backs; a write row opened at t also takes the activation window,
    // and `activated` is then the cycle that activation ends).
    Channel& route(uint64_t t, uint64_t addr, uint32_t bytes, bool write, double& cost, bool* opened = nullptr,
                   double* activated = nullptr);
    uint64_t activation_wait(uint64_t t, Channel& ch, double share);  // a read's wait for the activation window
    double turn(Channel& ch, bool write);               // a row opening's turnaround on the bus (dram.switch_bytes)
    uint64_t load_term(uint64_t t, double busy);
    uint64_t spread(uint64_t addr, uint64_t req) const;

    MemoryStats& stats_;
    std::vector<Channel> channels_;
    std::vector<uint64_t> open_;        // open chunks of the reads, direct-mapped by chunk (GPU-wide)
    std::vector<uint64_t> open_write_;  // the same for the write-backs
    uint32_t interleave_, latency_, spread_step_;
    double cycles_per_byte_ = 0;    // per channel
    double row_miss_cycles_ = 0, write_row_miss_cycles_ = 0, write_activate_cycles_ = 0, read_activate_cycles_ = 0, read_command_cycles_ = 0, turnaround_cycles_ = 0, mixed_write_cycles_ = 0, switch_cycles_ = 0;
    uint64_t write_row_ = 0;        // bytes of address space one batch of write-backs opens
    uint32_t write_banks_ = 0;      // banks per channel (0: open_write_ is one GPU-wide table)
    double service_, window_;
    double level_ = 0, rho_ = 0;    // exponentially averaged busy cycles per channel
    uint64_t last_ = 0;
    FastDiv by_interleave_, by_channels_, by_open_;  // interleave_, channels_.size(), open_.size() (fast_div.hpp)
};

}  // namespace simt::timing
