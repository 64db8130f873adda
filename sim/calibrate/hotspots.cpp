// hotspots.cpp: the twins of the hot-line atomics grid and the L2 capacity sweep
// (calib/kernels/atomgrid.cu and l2cap.cu; results in calib/results/l2atom/calib_h200_l2atom.csv).
// atomgrid: lane operations per clock GPU-wide for every SM sending reductions whose lanes spread
// over `lpr` lines per instruction and hit distinct, the same or hashed words of `hot` lines; the
// rate is the difference of K = 8 and 16 per thread. l2cap: sectors per clock of random 4 B reads
// over F MB, shared by all SMs or private to each, the time of a warm pass (2 passes minus 1).
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
            const double d = delta(c, *t, "passes", 1, 2, &s, u);
            c.add("l2cap", k, "sectors_per_clk", 1056.0 * 256 * 16 / d, "1/clk");
        }
}

// l2dirty: accesses per clock of private random 4 B reads (one pass of 16 per thread, from the
// difference of 2 passes and 1), and of reads and stores (mode 1: 32 per thread) or stores alone
// (mode 2: 16 per thread) in the launch after a warm launch of the same addresses, as the CUDA
// times it (a pass difference would not do for stores: a simulated warp's stores never wait, so it
// runs both passes back to back and its second pass rewrites the lines its first just wrote).
// The CUDA runs 64 accesses per thread; 16 cover a 96 MB footprint's sectors 1.4 times, enough to
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
        c.add("l2dirty", k, "accesses_per_clk", 1056.0 * 256 * 16 / d, "1/clk");
    }
    for (uint32_t mode : {1u, 2u})
        for (uint32_t mb : {16u, 40u, 48u, 64u, 96u}) {
            const std::string k = std::string("l2dirty_") + (mode == 1 ? "rmw_" : "write_") + std::to_string(mb) + "MB";
            if (!c.wants(k)) continue;
            if (!t) t.emplace(c.trace("l2dirty"));
            const Uniforms u = {"mode=" + std::to_string(mode), "passes=1",
                                "span=" + std::to_string(mb * 32768u / 132)};
            const Stats s = t->run(c.h200(), u, nullptr, 1);
            c.add("l2dirty", k, "accesses_per_clk", 1056.0 * 256 * 16 * (mode == 1 ? 2 : 1) / double(s.cycles), "1/clk");
        }
}

// l2write: sectors stored (and for rmw_sector loaded too) per clock to a private F MB footprint,
// by the shape of the store (calib/kernels/l2write.cu): 4 B per lane at its own sector (word),
// 8 lanes filling a sector, 32 lanes filling a line, or whole-sector loads and stores; the launch
// after a warm launch, 16 sectors per thread's worth (the CUDA's 64: the same as l2dirty's twin).
void l2write(Context& c) {
    struct Shape {
        const char* name;
        uint32_t ushift, sshift, groups, rmw;
    };
    const Shape shapes[] = {{"word", 0, 0, 4, 0}, {"sector", 3, 0, 32, 0}, {"line", 5, 2, 32, 0}, {"rmw_sector", 3, 0, 32, 1}};
    std::optional<Trace> t;
    for (const Shape& sh : shapes)
        for (uint32_t mb : {16u, 32u, 48u, 56u, 64u, 96u}) {
            const std::string k = std::string("l2write_") + sh.name + "_" + std::to_string(mb) + "MB";
            if (!c.wants(k)) continue;
            if (!t) t.emplace(c.trace("l2write"));
            const Uniforms u = {"span=" + std::to_string(mb * 32768u / 132 / 4 * 4), "ushift=" + std::to_string(sh.ushift),
                                "sshift=" + std::to_string(sh.sshift), "groups=" + std::to_string(sh.groups),
                                "rmw=" + std::to_string(sh.rmw)};
            const Stats s = t->run(c.h200(), u, nullptr, 1);
            c.add("l2write", k, "sectors_per_clk", 1056.0 * 256 * 16 * (sh.rmw ? 2 : 1) / double(s.cycles), "1/clk");
        }
}

}  // namespace

std::vector<Group> hotspot_groups() {
    return {{"atomgrid", "hotspots", atomgrid}, {"l2cap", "hotspots", l2cap}, {"l2dirty", "hotspots", l2dirty},
            {"l2write", "hotspots", l2write}};
}

}  // namespace simt::calib
