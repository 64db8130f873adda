// hotspots.cpp: the twins of the hot-line atomics grid and the L2 capacity sweep
// (calib/kernels/atomgrid.cu and l2cap.cu; results in calib/results/l2atom/calib_h200_l2atom.csv).
// atomgrid: lane operations per clock GPU-wide for every SM sending reductions whose lanes spread
// over `lpr` lines per instruction and hit distinct, the same or hashed words of `hot` lines; the
// rate is the difference of K = 8 and 16 per thread. l2cap: sectors per clock of random 4 B reads
// over F MB, shared by all SMs or private to each: 4 warm passes (from 1 and 2) and the launch, as the CUDA times them.
#include "sim/calibrate/comparisons.hpp"

#include <bit>

namespace simt::calib {
namespace {

using simt::timing::Stats;

struct Grid {
    const char* hot;  // "hot1", "hot8", "hot64", "spread"
    uint32_t hot_lines, lpr;
    int words;  // 0 distinct, 1 same, 2 random
};

const char* word_name(int w) { return w == 0 ? "distinct" : w == 1 ? "same" : "random"; }

// The CUDA times one launch of 64 accesses per thread between two events, its launch included
// (launch.kernel_launch_us): a twin that runs 64 / `scale` per thread adds 1 / scale of the launch.
double launch_share(const Stats& s, double scale) { return s.kernel_launch_us * s.clock_mhz / scale; }

void atomgrid(Context& c) {
    const Grid grid[] = {{"hot1", 1, 1, 0},       {"hot1", 1, 1, 1},      {"hot1", 1, 1, 2},
                         {"hot8", 8, 1, 0},       {"hot8", 8, 1, 1},      {"hot8", 8, 1, 2},
                         {"hot8", 8, 8, 0},       {"hot8", 8, 8, 1},      {"hot8", 8, 8, 2},
                         {"hot64", 64, 1, 0},     {"hot64", 64, 1, 1},    {"hot64", 64, 1, 2},
                         {"hot64", 64, 8, 0},     {"hot64", 64, 8, 1},    {"hot64", 64, 8, 2},
                         {"hot64", 64, 32, 0},    {"spread", 1u << 20, 1, 0}, {"spread", 1u << 20, 1, 1},
                         {"spread", 1u << 20, 1, 2}, {"spread", 1u << 20, 8, 0}, {"spread", 1u << 20, 32, 0}};
    std::optional<Trace> t;
    for (const Grid& g : grid) {
        const std::string k = std::string("atomgrid_red_all_") + g.hot + "_lpr" + std::to_string(g.lpr) + "_" +
                              word_name(g.words);
        if (!c.wants(k)) continue;
        if (!t) t.emplace(c.trace("atomgrid"));
        const Uniforms u = {"words=" + std::to_string(g.words), "lpr=" + std::to_string(g.lpr),
                            "lpr_mask=" + std::to_string(g.lpr - 1),
                            "lpr_shift=" + std::to_string(std::countr_zero(g.lpr)),
                            "hot_mask=" + std::to_string(g.hot_lines - 1)};
        Stats s;
        const double d = delta(c, *t, "K", 8, 16, &s, u);
        c.add("atomgrid", k, "atomics_per_clk", 264.0 * 1024 * 8 / d, "1/clk");
    }
}

// atomtype (calib/kernels/atomtype.cu, results/atomtype/, an H100): lane operations per clock of
// integer and fp reductions, 32- and 64-bit, on one word (all lanes, or lane 0 of every warp) and on 8
// hot lines' hashed words (K = 4 and 8 differenced), and the whole time of a launch whose warps each end with
// one reduction on one word (tail_*: the launch overhead included, as the CUDA event times it).
void atomtype(Context& c) {
    const char* patterns[] = {"same", "lane0", "hot8"};
    const char* ops[] = {"red_add_u32", "red_add_f32", "red_add_u64", "red_add_f64"};
    std::optional<Trace> t;
    std::optional<GpuConfig> h100;
    for (int op = 0; op < 4; ++op)
        for (int p = 0; p < 3; ++p) {
            const std::string k = std::string("atomtype_") + ops[op] + "_" + patterns[p];
            if (!c.wants(k)) continue;
            if (!t) t.emplace(c.trace("atomtype")), h100.emplace(h100_memory(c));
            const Uniforms u = {"pattern=" + std::to_string(p), "fp=" + std::to_string(op % 2), "wide=" + std::to_string(op / 2)};
            const double d = t->per_step(*h100, "K", 4, 8, u);
            c.add("atomtype", k, "atomics_per_clk", 1056.0 * 256 / (p == 1 ? 32 : 1) / d, "1/clk");
        }
    const char* tails[] = {"tail_none", "tail_red_add_u32", "tail_red_add_f32"};
    std::optional<Trace> tail;
    for (int op = 0; op < 3; ++op) {
        if (!c.wants(tails[op])) continue;
        if (!tail) tail.emplace(c.trace("atom_tail")), h100.emplace(h100_memory(c));
        c.add("atomtype", tails[op], "us", tail->run(*h100, {"op=" + std::to_string(op)}).time_us, "us");
    }
}

void l2cap(Context& c) {
    std::optional<Trace> t;
    for (const char* mode : {"random", "private"})
        for (uint32_t mb : {16u, 32u, 48u, 64u, 96u}) {
            const std::string k = std::string("l2cap_") + mode + "_" + std::to_string(mb) + "MB";
            if (!c.wants(k)) continue;
            if (!t) t.emplace(c.trace("l2cap"));
            const bool priv = mode[0] == 'p';
            const uint32_t sectors = mb * 32768u;
            const Uniforms u = {"priv=" + std::to_string(priv ? 1 : 0),
                                "span=" + std::to_string(priv ? sectors / 132 : sectors)};
            Stats s;
            const double d = delta(c, *t, "passes", 1, 2, &s, u);  // 16 per thread a pass: the CUDA's 64 is 4 passes
            c.add("l2cap", k, "sectors_per_clk", 1056.0 * 256 * 64 / (double(s.cycles) + 2 * d + launch_share(s, 1)), "1/clk");
        }
}

// l2dirty: accesses per clock of private random 4 B reads (4 passes of 16 per thread, from 1 and 2
// passes, and the launch, as the CUDA's 64 per thread between two events), and of reads and stores (mode 1: 32 per thread) or stores alone
// (mode 2: 16 per thread) in the launch after a warm launch of the same addresses, as the CUDA
// times it (a pass difference would not do for stores: a simulated warp's stores never wait, so it
// runs both passes back to back and its second pass rewrites the lines its first just wrote).
// The CUDA runs 64 accesses per thread (the twin's launch adds a quarter of launch.kernel_launch_us); 16 cover a 96 MB footprint's sectors 1.4 times, enough to
// leave the L2 as the CUDA's warm-up does (16 and 64 per thread give 21.8 and 22.5 stores per
// clock at 96 MB).
void l2dirty(Context& c) {
    std::optional<Trace> t;
    for (uint32_t mb : {16u, 32u, 40u, 48u, 64u, 96u}) {
        const std::string k = "l2dirty_read_" + std::to_string(mb) + "MB";
        if (!c.wants(k)) continue;
        if (!t) t.emplace(c.trace("l2dirty"));
        const Uniforms u = {"mode=0", "span=" + std::to_string(mb * 32768u / 132)};
        Stats s;
        const double d = delta(c, *t, "passes", 1, 2, &s, u);
        c.add("l2dirty", k, "accesses_per_clk", 1056.0 * 256 * 64 / (double(s.cycles) + 2 * d + launch_share(s, 1)), "1/clk");
    }
    for (uint32_t mode : {1u, 2u})
        for (uint32_t mb : {16u, 40u, 48u, 64u, 96u}) {
            const std::string k = std::string("l2dirty_") + (mode == 1 ? "rmw_" : "write_") + std::to_string(mb) + "MB";
            if (!c.wants(k)) continue;
            if (!t) t.emplace(c.trace("l2dirty"));
            const Uniforms u = {"mode=" + std::to_string(mode), "passes=1",
                                "span=" + std::to_string(mb * 32768u / 132)};
            const Stats s = t->run(c.h200(), u, nullptr, 1);
            c.add("l2dirty", k, "accesses_per_clk",
                  1056.0 * 256 * 16 * (mode == 1 ? 2 : 1) / (double(s.cycles) + launch_share(s, 4)), "1/clk");
        }
}

// l2write: sectors stored (and for rmw_sector loaded too) per clock to a private F MB footprint,
// by the shape of the store (calib/kernels/l2write.cu): 4 B per lane at its own sector (word),
// 8 lanes filling a sector, 32 lanes filling a line, or whole-sector loads and stores; the launch
// after a warm launch, 16 sectors per thread's worth for `word` (the CUDA's 64: the same as
// l2dirty's twin), 8 for the others (the CUDA's 64); at 16 / 48 / 64 / 96 MB (`line`, bound by its
// ALU work at every size on the H200: 16 and 96).
void l2write(Context& c) {
    struct Shape {
        const char* name;
        uint32_t ushift, sshift, groups, rmw;
    };
    const Shape shapes[] = {{"word", 0, 0, 4, 0}, {"sector", 3, 0, 16, 0}, {"line", 5, 2, 16, 0}, {"rmw_sector", 3, 0, 16, 1}};
    std::optional<Trace> t;
    for (const Shape& sh : shapes)
        for (uint32_t mb : {16u, 48u, 64u, 96u}) {
            const std::string k = std::string("l2write_") + sh.name + "_" + std::to_string(mb) + "MB";
            if (!c.wants(k) || (sh.ushift == 5 && (mb == 48 || mb == 64))) continue;
            if (!t) t.emplace(c.trace("l2write"));
            const Uniforms u = {"span=" + std::to_string(mb * 32768u / 132 / 4 * 4), "ushift=" + std::to_string(sh.ushift),
                                "sshift=" + std::to_string(sh.sshift), "groups=" + std::to_string(sh.groups),
                                "rmw=" + std::to_string(sh.rmw)};
            const Stats s = t->run(c.h200(), u, nullptr, 1);
            const double per_thread = sh.groups == 4 ? 16 : 8, sectors = 1056.0 * 256 * per_thread * (sh.rmw ? 2 : 1);
            c.add("l2write", k, "sectors_per_clk", sectors / (double(s.cycles) + launch_share(s, 64 / per_thread)), "1/clk");
        }
}

// mlp: lines loaded per clock per SM from an L2-resident span, by lines per warp load (k) and warps
// per SM (W), as the CUDA's clock64 spans measure them in the steady state: the difference of K = 32
// and 64 loads per thread (calib/kernels/mlp.cu; the DRAM rows are left to gather_dram: the CUDA's
// warm launch leaves the small footprints of its 1 GiB rows in the L2).
void mlp(Context& c) {
    std::optional<Trace> t;
    for (uint32_t k : {1u, 2u, 4u, 32u})
        for (uint32_t w : {4u, 16u, 64u}) {
            const std::string name = "mlp_l2_k" + std::to_string(k) + "_w" + std::to_string(w);
            if (!c.wants(name)) continue;
            if (!t) t.emplace(c.trace("mlp"));
            const uint32_t threads = std::min(1024u, 32 * w);
            set_launch(*t, 132 * (32 * w / threads), threads);
            const Uniforms u = {"gshift=" + std::to_string(std::countr_zero(32 / k)), "mask=131071", "K=32"};
            const double c1 = double(t->run(c.h200(), u, nullptr, 1).cycles);
            Uniforms u2 = u;
            u2.back() = "K=64";
            const double c2 = double(t->run(c.h200(), u2, nullptr, 1).cycles);
            c.add("mlp", name, "lines_per_clk_sm", double(w) * 32 * k / (c2 - c1), "1/clk");
        }
}

}  // namespace

std::vector<Group> hotspot_groups() {
    return {{"atomgrid", "hotspots", atomgrid}, {"atomtype", "hotspots", atomtype}, {"l2cap", "hotspots", l2cap},
            {"l2dirty", "hotspots", l2dirty},   {"l2write", "hotspots", l2write},   {"mlp", "hotspots", mlp}};
}

}  // namespace simt::calib
