// probes.cpp: the twins of the shared-bank, L1TEX-pipe and mixed-DRAM probes (calib/kernels/shbank.cu,
// l1pipe.cu and mixrw.cu; results in calib/results/shbank_mixrw/ and calib/results/l1pipe/).
// shbank: clocks per dependent ld.shared with W lanes on each bank (W = 1..32), from the difference
// of 32 and 16 loop steps of 8 loads. l1pipe (kernels/l1pipe.cu, results/l1pipe/, measured on an H100:
// the same GH100 SM): warp memory instructions per clock per SM of W-way ld.shared, L1-hit ld.global
// of L lines per request, or both interleaved, from the difference of 24 and 8 loop steps.
// mixrw: sector accesses per clock GPU-wide of random 4 B reads
// and partial-sector writes mixed R : 4 - R, from the difference of K = 8 and 4 groups of 4.
// wbmix (kernels/wbmix.cu, results/wbmix/): the same with whole sectors (8 lanes each), so the
// stores leave dirty sectors the L2 writes back without a DRAM read, from K = 32 and 16 groups.
#include "sim/calibrate/comparisons.hpp"

namespace simt::calib {
namespace {

using simt::timing::Stats;

void shared_banks(Context& c) {
    std::optional<Trace> t;
    for (uint32_t w : {1u, 2u, 4u, 8u, 16u, 32u}) {
        const std::string k = "shbank_chase_W" + std::to_string(w);
        if (!c.wants(k)) continue;
        if (!t) t.emplace(c.trace("shbank_chase"));
        Stats s;
        const double d = delta(c, *t, "iters", 16, 32, &s, {"W=" + std::to_string(w)});
        c.add("shared_banks", k, "clk_per_load", d / (16.0 * 8), "clk");
    }
}

void l1_pipe(Context& c) {
    std::optional<Trace> t;
    const char* kinds[] = {"lds", "ldg", "mix"};
    const uint32_t points[][2] = {{1, 1}, {4, 1}, {8, 1}, {32, 1}, {1, 32}, {32, 32}, {8, 8}};
    for (const auto& p : points)
        for (uint32_t k = 0; k < 3; ++k) {
            const std::string name = "l1pipe_" + std::string(kinds[k]) + "_W" + std::to_string(p[0]) + "_L" +
                                     std::to_string(p[1]);
            if (!c.wants(name)) continue;
            if (!t) t.emplace(c.trace("l1pipe"));
            Stats s;
            const double d = delta(c, *t, "iters", 8, 24, &s,
                                   {"W=" + std::to_string(p[0]), "L=" + std::to_string(p[1]), "K=" + std::to_string(k)});
            c.add("l1pipe", name, "warp_inst_per_clk_per_sm", 64.0 * 16 * (k == 2 ? 16 : 8) / d, "1/clk");
        }
}

// One row per mix R : 4 - R of a twin's groups of 4 accesses: sector accesses per clock GPU-wide
// from the difference of k0 and k1 groups (`sectors` per thread and group, over 1056 x 256 threads).
void mix_rows(Context& c, const std::string& group, const std::string& prefix, uint64_t k0, uint64_t k1,
              double sectors) {
    std::optional<Trace> t;
    for (int reads = 4; reads >= 0; --reads) {
        const std::string k = prefix + "r" + std::to_string(reads) + "w" + std::to_string(4 - reads);
        if (!c.wants(k)) continue;
        if (!t) t.emplace(c.trace(group));
        Stats s;
        const double d = delta(c, *t, "K", k0, k1, &s, {"R=" + std::to_string(reads)});
        c.add(group, k, "sectors_per_clk", 1056.0 * 256 * sectors * double(k1 - k0) / d, "1/clk");
    }
}

void mixed_dram(Context& c) { mix_rows(c, "mixrw", "mixrw_word_", 4, 8, 4); }

// Whole sectors: 8 lanes share each of a warp access's sectors.
void write_back_mix(Context& c) { mix_rows(c, "wbmix", "wbmix_", 16, 32, 4.0 / 8); }

}  // namespace

std::vector<Group> probe_groups() {
    return {{"shared_banks", "hotspots", shared_banks},
            {"l1pipe", "hotspots", l1_pipe},
            {"mixrw", "hotspots", mixed_dram},
            {"wbmix", "hotspots", write_back_mix}};
}

}  // namespace simt::calib
