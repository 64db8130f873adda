// wbmix.cu: two questions the store and L2-capacity rows leave open (issue 6, calib/README.md,
// twentieth pass).
// Part 1, whole-sector write-backs mixed with random reads: per group of 4 warp accesses, R loads
// from buffer A and 4 - R stores to buffer B (R = 4 .. 0). 8 lanes share one hashed 32 B sector,
// so a warp access is 4 whole sectors: a store leaves a fully written dirty sector in the L2 (no
// DRAM read for ECC), which the L2 writes back when it evicts it. Both buffers are 2 GB (far beyond
// the 60 MB L2) and each thread runs 256 accesses (about 4.6 L2 capacities of dirty sectors at
// R = 0), so the launch runs in steady state. Reads and write-backs reach DRAM in random order: the
// rates give a channel's cost of a read, a write-back and of mixing them.
// Rows: wbmix_r<R>w<W>.{ms, sectors_per_clk} (sector accesses GPU-wide per clock at 1.98 GHz),
// median of 5 after 2 warm launches.
// Part 2, random 4 B reads of a 16 MB footprint that fits in L2, split into P parts, SM s reading
// part s mod P (l2cap's private mode is P = 132, its random mode P = 1): is a private footprint's
// lower rate (68.8 against 75.1 sectors per clock) a matter of the span an SM reads?
// Rows: span_p<P>.{ms, sectors_per_clk}, after a warm launch of the same addresses, median of 5;
// span_i<P>: the same parts interleaved (SM s reads every P-th sector from s mod P).
// `wbmix mix R` and `wbmix span P` run one point once (for ncu).
// The H100 rows of results/wbmix/ were measured with this kernel's lanes per sector a constant 8
// (calib/sass/wbmix.sm_90.sass); mixed_access.cuh takes them as an argument: the loop is the same.
// Leaves out: partial sectors (mixrw.cu measures those), footprints near the L2's size (l2dirty.cu).
#include "mixed_access.cuh"

constexpr int kMixPerThread = 256;

// SM s reads only part (s mod parts) of `sectors` sectors, 4 B per lane at a hashed sector: a span
// of sectors / parts in a row, or (interleaved) every parts-th sector from s mod parts.
__device__ __forceinline__ size_t part_sector(unsigned h, unsigned span, unsigned part, unsigned parts, bool interleaved) {
  return interleaved ? size_t(h % span) * parts + part : size_t(part) * span + h % span;
}

__global__ void span_read(const float* __restrict__ buf, unsigned sectors, unsigned parts, int interleaved, float* out) {
  float s = 0.f;
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned span = sectors / parts, part = smid() % parts;
  const bool il = interleaved != 0;
#pragma unroll 1
  for (int k = 0; k < 64; k += 4) {
    const unsigned h = mix(tid * 4u + unsigned(k) * 0x9e3779b9u + 7u);
    const float a = __ldcg(buf + part_sector(h, span, part, parts, il) * 8);
    const float b = __ldcg(buf + part_sector(mix(h + 1), span, part, parts, il) * 8);
    const float c = __ldcg(buf + part_sector(mix(h + 2), span, part, parts, il) * 8);
    const float d = __ldcg(buf + part_sector(mix(h + 3), span, part, parts, il) * 8);
    s += a + b + c + d;
  }
  if (s == 1234.5f) out[0] = s;
}

int main(int argc, char** argv) {
  const cudaDeviceProp p = props();
  const int blocks = p.multiProcessorCount * 8;
  const size_t bytes = size_t(2) << 30, span_bytes = size_t(16) << 20;
  const unsigned sectors = unsigned(bytes / 32), span_sectors = unsigned(span_bytes / 32);
  const MixBuffers m = mix_buffers(bytes);
  float *a = m.a, *b = m.b, *out = m.out;
  auto mix_launch = [&](int reads) { mixed<kMixPerThread><<<blocks, 256>>>(a, b, sectors, reads, 8, out); };
  auto span_launch = [&](unsigned parts, int il = 0) { span_read<<<blocks, 256>>>(a, span_sectors, parts, il, out); };
  if (argc == 3) {  // one point, for ncu: a warm launch, then the profiled one
    const std::string what = argv[1];
    const int v = atoi(argv[2]);
    if (what == "mix") { mix_launch(v); mix_launch(v); }
    else { span_launch(unsigned(v)); span_launch(unsigned(v)); }
    CK(cudaDeviceSynchronize());
    printf("%s %d done\n", argv[1], v);
    return 0;
  }
  for (int reads = 4; reads >= 0; --reads) {
    const double ms = time_ms([&] { mix_launch(reads); }, 5, 2);
    const double accesses = double(blocks) * 256 * kMixPerThread / 8;  // 8 lanes per sector
    const std::string k = fmt("wbmix_r%dw%d", reads, 4 - reads);
    const std::string n = fmt("kernel=mixed;%d ld.global.cg + %d st.global.cg per group of 4;8 lanes per whole 32 B sector;2 GB buffers at hashed sectors;%d x 256 threads;%d accesses per thread;median of 5",
                              reads, 4 - reads, blocks, kMixPerThread);
    row(k, "ms", ms, "ms", n);
    row(k, "sectors_per_clk", accesses / (ms * 1e-3 * 1.98e9), "1/clk", n);
  }
  for (unsigned parts : {1u, 2u, 4u, 12u, 33u, 66u, 132u}) {
    span_launch(parts);  // warm: the same addresses
    const double ms = time_ms([&] { span_launch(parts); }, 5, 1);
    const std::string k = fmt("span_p%u", parts);
    const std::string n = fmt("kernel=span_read;16 MB in %u parts;SM s reads part s mod %u;%d x 256 threads;64 ld.global.cg.f32 per thread at hashed 32 B sectors;after a warm launch;median of 5",
                              parts, parts, blocks);
    row(k, "ms", ms, "ms", n);
    row(k, "sectors_per_clk", double(blocks) * 256.0 * 64 / (ms * 1e-3 * 1.98e9), "1/clk", n);
  }
  for (unsigned parts : {33u, 66u, 132u}) {  // the same parts, every parts-th sector: no span of its own
    span_launch(parts, 1);
    const double ms = time_ms([&] { span_launch(parts, 1); }, 5, 1);
    const std::string k = fmt("span_i%u", parts);
    const std::string n = fmt("kernel=span_read interleaved;16 MB in %u parts;SM s reads every %u-th sector from s mod %u;%d x 256 threads;64 ld.global.cg.f32 per thread at hashed 32 B sectors;after a warm launch;median of 5",
                              parts, parts, parts, blocks);
    row(k, "ms", ms, "ms", n);
    row(k, "sectors_per_clk", double(blocks) * 256.0 * 64 / (ms * 1e-3 * 1.98e9), "1/clk", n);
  }
  return 0;
}
