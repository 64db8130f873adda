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

enum class SchedPolicy : uint8_t { Lrr, Gto, TwoLevel, Gty, Gtb, Cgy };
// What a warp that exits gives back before its block ends (sm.warp_release):
// nothing (block: all at the block's end), its warp slot, or its slot and registers.
enum class WarpRelease : uint8_t { Block, Slot, SlotAndRegisters };
enum class UnitArbitration : uint8_t { Fixed, RoundRobin };

struct PipeSpec {
    uint32_t interval = 1;   // cycles one warp instruction occupies the pipe of its
                             // sub-partition (initiation interval) = 32 / lanes per SMSP:
                             // FMA 1, SFU 8 (4 lanes), FP64 64 on AD107 (1:64), 2 on GH100
    uint32_t latency = 4;    // cycles from issue to result (fixed-latency pipes) or
                             // to the scoreboard release (variable-latency pipes: sfu)
    uint32_t handoff = 0;    // extra cycles before an instruction of this pipe can read a
                             // register that another pipe produced (cross-pipe forwarding)
    uint16_t datapaths = 0;  // bit d: datapath d (GpuConfig::Pipes::datapath_names) executes
                             // this class; a warp instruction takes one free datapath for `interval`
};

struct CacheSpec {
    uint32_t size_bytes = 0;
    uint32_t assoc = 0;
    uint32_t line_bytes = 128;
    uint32_t hit_latency = 0;   // cycles from issue to data for a hit
    bool random_replacement = false;  // replacement: random (a deterministic pseudo-random way of a full set), not lru
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
        WarpRelease warp_release = WarpRelease::Block;  // shared memory and the block slot always wait for the block
        UnitArbitration unit_arbitration = UnitArbitration::Fixed;  // which sub-partition the L1TEX/MIO serve first
    } sm;

    struct Scheduler {
        SchedPolicy policy = SchedPolicy::Gto;
        uint32_t active_set = 8;        // two-level: warps in the active set per scheduler
        uint32_t window = 4;            // cgy: the best-ranked eligible warps served round robin
        bool yield_demotes = true;      // cgy: a yielding instruction sends its warp to the back of its block
        uint32_t starve_cycles = 0;     // cgy: a senior-block warp unpicked this long takes the slot (0: never)
        bool greedy = false;            // cgy: the last warp goes on while eligible and not yielding
        bool interleave_paths = false;  // a diverged warp's two sides alternate at yielding instructions
        bool lg_arrival_order = false;  // lg_order: arrival: the warps waiting for L1TEX go first come, first served
        bool mio_arrival_order = false; // mio_order: arrival: the same for the warps waiting for the MIO
        bool block_by_slot = false;     // block_order: slot: the policies that rank blocks (cgy, gtb) rank them by
                                        // their slot on the SM (the lowest first), not their launch order
    } scheduler;

    struct RegFile {
        bool model_banks = true;        // false: operand reads never conflict
        uint32_t banks = 2;             // banks per sub-partition
        uint32_t reads_per_bank = 1;    // operand reads per bank per cycle
        bool reuse_cache = true;        // operand reuse cache hides a repeated source register
        uint32_t read_queue_cycles = 0; // bank reads that may still be queued behind an issue before the
                                        // scheduler stalls (0: every conflict cycle holds it)
        bool read_ahead = false;        // ready operands are read while the warp waits for the others
    } regfile;

    struct Pipes {
        PipeSpec fma, alu, sfu, fp64, lsu, tex, branch, imad, iadd, uniform;  // per pipe class (isa::Pipe)
        std::vector<std::string> datapath_names;  // the sub-partition's datapaths, in order of first mention
        uint32_t int_div_instructions = 0;  // issue slots of one emulated integer division
        uint32_t int_div_mufu_instructions = 0;  // of which MUFU-class (I2F, RCP, F2I): its SFU occupancy
        uint32_t int_div_latency = 0;       // dependent latency of one emulated division
        uint32_t int_div_dividend_latency = 0;  // from the dividend alone, when the divisor was ready
                                                // earlier (its reciprocal computed off the chain; 0: as int_div_latency)
        uint32_t imad_wide_passes = 1;      // imad.wide / imad.hi / imul.hi (IMAD.WIDE, IMAD.HI): passes through the
                                            // imad pipe (its occupancy per warp, times the pipe's interval)
        uint32_t imad_wide_latency = 0;     // imad.wide's result (the 64-bit product, both words; 0: pipes.imad.latency)
        uint32_t imad_hi_latency = 0;       // imad.hi's / imul.hi's (the product's high word; 0: pipes.imad.latency)
        uint32_t s2r_latency = 4;           // a special register's read (S2R, S2UR: `mov rD, %tid.x`): variable
                                            // latency, its reader waits through the scoreboard
        bool branch_waits_fixed = false;    // a branch waits for the warp's fixed-latency results (stall counts)
        uint32_t branch_resolve_cycles = 0; // of a taken branch's branch.latency, the first cycles (branch_resolving:
                                            // the target computed); the rest is the fetch at the target
                                            // (no_instruction). Absent from the file (0): the whole latency
        bool sass_stall_counts = false;     // an imported SASS instruction holds the warp for its stall count
    } pipes;

    struct Memory {
        uint32_t sector_bytes = 32;
        CacheSpec l1;                   // per SM
        CacheSpec l2;                   // shared by all SMs; hit_latency = L2 hit seen from an SM
        uint32_t shared_latency = 0;
        uint32_t shared_banks = 32;
        uint32_t shared_conflict_latency = 1;  // cycles of a load's latency per wavefront after its first
        uint32_t shared_return_bytes = 0;      // data a shared wavefront carries: a 64 / 128-bit access takes
                                               // 32 x bytes / this (half when lane pairs share addresses); 0: off
        uint32_t const_latency = 0;     // constant-cache hit
        uint32_t tex_latency = 0;       // texture hit (added filtering cost)
        uint32_t atomic_latency = 0;    // extra cycles of a global atomic at the L2
        uint32_t dram_latency = 0;      // load to use when missing L2 (total, unloaded)
        double dram_bandwidth_gbs = 0;  // GB/s, shared by all SMs
        uint32_t max_outstanding_per_sm = 0;  // in-flight global/local/tex requests per SM
        bool slot_wait_in_queue = false;      // a request finding them all in flight waits in the LSU queue (l1.hpp)
        uint32_t l1_miss_lines_in_flight = 0; // lines an SM's loads may have on their way from the L2 (0: no limit)
        uint32_t l1_sectors_per_cycle = 4;    // L1TEX tag-stage throughput (a "wavefront")
        bool l1_line_per_wavefront = false;   // a request takes at least one wavefront per distinct line
        bool l1_hits_share_wavefronts = false; // ...a load's lines ready in L1 excepted: they share wavefronts by sectors
        uint32_t l1_request_cycles = 1;       // tag-stage cycles an L1TEX request takes at least
        bool lsu_in_port = false;             // one shared/global/local instruction enters the SM's LSU per cycle
                                              // (a predicated-off one too), whichever unit it goes on to
        bool l1_data_bank_conflicts = false;  // a global/local request takes l1_data_wavefronts per bank wavefront of its
                                              // lanes' words (the L1 data banks, as shared memory's), not once
        uint32_t l1_data_wavefronts = 0;      // data-stage wavefronts of a global/local request, shared with shared memory's
        double l1_fill_cycles = 0;            // data-stage cycles a load's missing line's fill writes into the L1 (with l1_data_wavefronts)
        bool l1_local_store_allocate = false; // a local store's whole sectors are also written into L1
        bool l1_global_store_allocate = false; // a global store's whole sectors are also written into L1
        uint32_t lg_queue_depth = 0;          // LSU instructions waiting for the L1TEX tag stage (0: none wait)
        uint32_t l1_miss_lines_per_pass = 0;  // missing lines one pass sends to L2 (0: all at once)
        uint32_t l1_miss_pass_cycles = 0;     // how much later each further pass starts
        uint32_t l1_miss_line_cycles = 0;     // a request's k-th missed line's data is back k x this later (l1.hpp)
        uint32_t dram_fetch_bytes = 32;       // an L2 miss reads this many aligned bytes from DRAM
                                              // (a multiple of sector_bytes, at most a line)
        // The defaults below switch each mechanism off (unlimited rates, no penalty), so a
        // config written in C++ (the tests' small_config) keeps the plain latency model.
        struct L2Slices {
            uint32_t count = 1;                 // address-hashed slices, each 1/count of memory.l2
            double sectors_per_cycle = 0;       // tag/data throughput of one slice (0: unlimited)
            double read_lookups_per_cycle = 0;  // a read request's line lookups per cycle (0: sectors_per_cycle)
            double data_sectors_per_cycle = 0;  // read sectors per cycle after a line's lookup (0: each sector a lookup)
            uint32_t interleave_bytes = 0;      // consecutive bytes on one slice (0: one L2 line)
            uint32_t partitions = 1;            // L2 partitions, each caching what its SMs read (l2.hpp)
            uint32_t far_hit_cycles = 0;        // extra latency of a read served by another partition's copy
            uint32_t hit_spread_cycles = 0;     // width of a read hit's latency spread about l2.hit_latency (hit_spread.hpp)
            bool home_copy = false;             // a read filled from DRAM is also held at its home partition
            bool stores_at_home = false;        // a store is written at its line's home partition (l2.hpp)
            std::vector<uint8_t> sm_map;        // partition of SM 0, 1, ... (beyond it: SM s in s mod partitions)
            double input_flits_per_cycle = 0;   // flits one slice takes in from the crossbar per cycle (0: unlimited)
            uint32_t flit_bytes = 32;           // bytes of one crossbar flit (atomic packets, atomic_packet.hpp)
            uint32_t partner_offset = 0;        // a far atomic's near lookup: this many places after its home's
            uint32_t write_back_entries = 0;    // dirty lines on their way to DRAM; full, the slice stalls (0: no limit)
        } l2_slices;
        struct Crossbar {
            double sm_sectors_per_cycle = 0;    // sectors one SM's port carries per cycle (0: unlimited)
        } crossbar;
        struct Dram {
            uint32_t channels = 1;              // independent channels, each dram_bandwidth_gbs / channels
            uint32_t interleave_bytes = 256;    // consecutive bytes on one channel (one "row chunk")
            uint32_t open_chunks = 1;           // row chunks open GPU-wide (direct-mapped by chunk)
            uint32_t open_write_rows = 0;       // rows of write-backs batched GPU-wide (0: open_chunks)
            double row_miss_bytes = 0;          // channel time to open a row chunk not open, in bytes of transfer
            double write_row_miss_bytes = 0;    // the same for a write-back (activate + write recovery + precharge)
            uint32_t write_row_bytes = 0;       // address span of one row of write-backs (0: one chunk)
            double write_activate_bytes = 0;    // a write row's activation window, a channel server of its own
            double read_activate_bytes = 0;     // a read's share of that window when it opens a chunk (0: reads skip it)
            double read_command_bytes = 0;      // every read piece's share of that window (its column command)
            uint32_t write_banks = 0;           // banks per channel with an open write row each (0: the GPU-wide table)
            uint32_t latency_spread_cycles = 0; // mean of an access's geometric latency spread (within dram_latency)
            double rmw_turnaround_bytes = 0;    // channel time of the read-write turnaround of an ECC read-modify-write
            double mixed_write_bytes = 0;       // extra channel time of a write-back while the channel also reads
            double switch_bytes = 0;            // data-bus time of a row opening that turns the channel's
                                                // direction (read <-> write) from its previous row opening
            double bank_service_cycles = 0;     // M/D/1 service time of the load term (0: off)
            uint32_t load_window_cycles = 1000; // averaging window of the channel utilisation
        } dram;
        struct Atomics {
            double same_address_cycles = 0;     // read-modify-write time of one lane op on one address
                                                // (0: one request per sector per cycle, lanes merged)
            double float_add_cycles = 0;        // the same for a floating-point add, whose next add on the
                                                // word (from any request) waits for it (0: as above)
            uint32_t slices_per_unit = 1;       // L2 slices sharing one atomic unit
            double unit_ops_per_cycle = 0;      // lane ops one atomic unit starts per cycle (0: unlimited)
            double sector_cycles = 0;           // unit time of one sector operation (0: per-address groups, above)
            double request_cycles = 0;          // unit time added once per line of a request (with sector_cycles)
            uint32_t l1_ops_per_cycle = 0;      // lane ops the L1TEX tag stage forwards per cycle (0: by sectors)
            uint32_t shared_same_address_cycles = 0;  // MIO cycles per extra lane on one shared word (0: off)
            uint32_t header_bytes = 0;          // an atomic packet's header in front of its 4 B per lane
            bool near_lookup = false;           // an atomic is looked up at its SM's partition first, then
                                                // forwarded to the line's home slice (partitions > 1)
        } atomics;
        struct Stores {
            double partial_sector_cycles = 0;   // extra L2 slice cycles to merge a partial sector (byte mask)
            bool partial_sector_dram_read = false;  // a partial sector written back to DRAM is read first (ECC RMW)
            bool partial_miss_fetch = false;    // a partial store that misses reads its sector first (l2_slice.hpp)
            uint32_t dirty_lines = 0;           // at most this many dirty lines per L2 set (0: any), l2_slice.hpp
            uint32_t write_queue_cycles = 0;    // DRAM write backlog a write-back hides from its store (l2_slice.hpp)
            bool drain_acks = true;             // an exited warp waits for its stores' acks (false: until they leave the SM)
            uint32_t sectors_in_flight = 0;     // an SM's store sectors sent, not yet acked (0: no limit), store_credits.hpp
            bool wait_in_queue = false;         // a store waits for credits in the LSU queue, not at issue (l1.hpp;
                                                // no effect without credits or without a queue)
            uint32_t header_bytes = 0;          // a store packet's header in front of its data (0: stores take no
                                                // flits of the slice's crossbar input), l2.cpp store_input
        } stores;
        struct Carveout {
            uint32_t unified_bytes = 0;         // L1 + shared array per SM (0: L1 is l1.size_bytes for every kernel)
            std::vector<uint32_t> steps_kb;     // shared-memory carve-outs, ascending, in KB
            uint32_t floor_kb_1024 = 0;         // the driver's least carve-out for a block of 1024 threads, in KB;
                                                // a block of T threads gets at least floor_kb_1024 x 1024 / T
                                                // (0: no floor), carveout.hpp
            uint32_t floor_cap_kb = 0;          // that floor's largest value, in KB
            uint32_t shared_headroom = 1;       // a kernel declaring shared memory gets a carve-out for this many
                                                // times its resident blocks' need
        } carveout;
        struct Tex {
            uint32_t line_width = 0;            // texels per 128 B line, x (0: linear, row-major layout)
            uint32_t line_height = 1;           // texels per line, y
            uint32_t sector_width = 0;          // texels per sector, x (sector_height = its area / width)
            uint32_t quads_per_cycle = 0;       // 2x2 quads the TEX stage takes per cycle per SM (0: unlimited)
        } tex;
    } memory;

    struct Launch {
        uint32_t block_launch_cycles = 0;   // cycles before a new block's warps can issue
        double block_dispatch_cycles = 0;   // GPU-wide cycles between two blocks handed to SMs (compute)
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
