// config.hpp: the machine description (Spec), loaded once from YAML and validated.
//
// The YAML tree mirrors these structs one to one (section.key). Every field is
// required in the file (no silent defaults for a machine parameter); an unknown
// key, a missing key, a wrong type or an impossible value is a simt::Error
// naming the file, line, column and key path. `--set a.b=c` overrides go
// through the same validation. Nothing GPU-specific is hard-coded elsewhere.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace simt {

enum class SchedPolicy : uint8_t { Lrr, Gto, TwoLevel };

struct PipeSpec {
    uint32_t interval = 1;   // cycles one warp instruction occupies the pipe of its
                             // sub-partition (initiation interval) = 32 / lanes per SMSP:
                             // FMA 1, SFU 8 (4 lanes), FP64 64 on AD107 (1:64), 2 on GH100
    uint32_t latency = 4;    // cycles from issue to result (fixed-latency pipes) or
                             // to the scoreboard release (variable-latency pipes: sfu)
};

struct CacheSpec {
    uint32_t size_bytes = 0;
    uint32_t assoc = 0;
    uint32_t line_bytes = 128;
    uint32_t hit_latency = 0;   // cycles from issue to data for a hit
};

struct GpuConfig {
    std::string name;           // e.g. "NVIDIA GeForce RTX 4060"
    std::string source_file;    // the YAML it came from (filled by the loader)
    double clock_mhz = 0;       // SM clock used to convert cycles to time

    struct Sm {
        uint32_t count = 0;             // SMs on the chip
        uint32_t sub_partitions = 0;    // schedulers (SMSPs) per SM
        uint32_t max_warps = 0;         // resident warps per SM
        uint32_t max_blocks = 0;        // resident blocks per SM
        uint32_t max_threads_per_block = 0;
        uint32_t registers = 0;         // 32-bit registers per SM
        uint32_t reg_alloc_unit = 0;    // registers per warp are rounded up to this (256)
        uint32_t max_regs_per_thread = 0;
        uint32_t shared_bytes = 0;      // shared memory per SM usable by blocks
        uint32_t shared_alloc_unit = 0; // per-block shared memory granularity (bytes)
        uint32_t shared_reserved_per_block = 0;  // bytes the system reserves per block
    } sm;

    struct Scheduler {
        SchedPolicy policy = SchedPolicy::Gto;
        uint32_t active_set = 8;        // two-level: warps in the active set per scheduler
    } scheduler;

    struct RegFile {
        bool model_banks = true;        // false: operand reads never conflict
        uint32_t banks = 2;             // banks per sub-partition
        uint32_t reads_per_bank = 1;    // operand reads per bank per cycle
        bool reuse_cache = true;        // operand reuse cache hides a repeated source register
    } regfile;

    struct Pipes {
        PipeSpec fma, alu, sfu, fp64, lsu, tex, branch;
        uint32_t int_div_instructions = 0;  // issue slots of one emulated integer division
        uint32_t int_div_latency = 0;       // dependent latency of one emulated division
    } pipes;

    struct Memory {
        uint32_t sector_bytes = 32;
        CacheSpec l1;                   // per SM
        CacheSpec l2;                   // shared by all SMs; hit_latency = L2 hit seen from an SM
        uint32_t shared_latency = 0;
        uint32_t shared_banks = 32;
        uint32_t const_latency = 0;     // constant-cache hit
        uint32_t tex_latency = 0;       // texture hit (added filtering cost)
        uint32_t atomic_latency = 0;    // extra cycles of a global atomic at the L2
        uint32_t dram_latency = 0;      // load to use when missing L2 (total, unloaded)
        double dram_bandwidth_gbs = 0;  // GB/s, shared by all SMs
        uint32_t max_outstanding_per_sm = 0;  // in-flight global/local/tex requests per SM
        uint32_t l1_sectors_per_cycle = 4;    // L1TEX tag-stage throughput (a "wavefront")
        uint32_t dram_fetch_bytes = 32;       // an L2 miss reads this many aligned bytes from DRAM
                                              // (a multiple of sector_bytes, at most a line)
    } memory;

    struct Launch {
        uint32_t block_launch_cycles = 0;   // cycles before a new block's warps can issue
        double kernel_launch_us = 0;        // fixed overhead added to the reported time
    } launch;

    uint64_t max_warp_instructions = 0;     // budget that ends runaway traces
    uint64_t max_cycles = ~0ull;            // budget of simulated cycles (timing model)
};

// Loads and validates a config file, then applies overrides ("a.b=c") through
// the same validation. Throws simt::Error.
GpuConfig load_config(const std::string& path,
                      const std::vector<std::string>& overrides = {});

// Same, from YAML text (for tests); `name` is used in error messages.
GpuConfig load_config_text(const std::string& yaml_text, const std::string& name,
                           const std::vector<std::string>& overrides = {});

const char* policy_name(SchedPolicy p);

}  // namespace simt
