// holdout.cpp: the held-out kernels (calib/kernels/holdout.cu; calib/README.md, "Held-out kernels"):
// application-like kernels that no parameter of the configs was fitted to, written after the model's
// mechanisms were, and run here from their compiled SASS (calib/sass/ho_*.launch.isa; they have no hand
// twin): how close the model gets on kernels it was not tuned on. Each row is the whole launch's time as
// the CUDA event times it (the launch overhead included, launch.kernel_launch_us), and its top warp state
// beside Nsight Compute's.
// Measured on the H200 since 2026-12-07 (calib_h200_holdout.csv, blocktimes and ncu of one device call;
// results/holdout/README.md), so the rows run on configs/h200.yaml itself. The first measurements were of
// H100s (kept there); h100_memory() below is the H200 config with the H100's memory side, which the
// atomtype rows (measured on an H100) still use.
#include "sim/calibrate/comparisons.hpp"

#include "sim/config/config.hpp"

namespace simt::calib {

GpuConfig h100_memory(const Context& c) {
    Uniforms sets = c.config_sets;
    for (const char* s : {"memory.l2.size_bytes=52428800", "memory.l2_slices.count=80", "memory.dram_bandwidth_gbs=3352",
                          "memory.dram.channels=80"})
        sets.push_back(s);
    return simt::load_config(c.config_path.empty() ? c.root + "/configs/h200.yaml" : c.config_path, sets);
}

namespace {

void holdout(Context& c) {
    const char* kernels[] = {"ho_matvec_warp", "ho_matvec_thread", "ho_softmax", "ho_conv3x3", "ho_gemm_naive",
                             "ho_reduce_atomic", "ho_hist256", "ho_gather"};
    bool any = false;
    for (const char* k : kernels) any |= c.wants(k);
    if (!any) return;
    const GpuConfig& config = c.h200();
    for (const char* k : kernels) {
        if (!c.wants(k)) continue;
        Trace t(c.root + "/calib/sass/" + k + ".launch.isa");
        const simt::timing::Stats s = t.run(config);
        c.add("holdout", k, "us", double(s.cycles) / s.clock_mhz + s.kernel_launch_us, "us");
        // blocktimes.cu: the span from the first warp's start to the last one's end (globaltimer), no launch
        if (c.hw.has(k, "span_ns")) c.add("holdout", k, "span_ns", double(s.cycles) / s.clock_mhz * 1000.0, "ns");
        compare_states(c, k, s);
    }
}

}  // namespace

std::vector<Group> holdout_groups() { return {{"holdout", "holdout", holdout}}; }

}  // namespace simt::calib
