// l2write.cu: what a written sector costs the H200 when a private footprint spills out of the L2,
// by the shape of the store (issue 6: l2dirty's byte-masked stores to 64 MB run at 0.94 TB/s of
// DRAM traffic where the model moves the same bytes at 1.85 TB/s; calib/README.md, thirteenth
// pass). Three explanations fit l2dirty alone; each predicts a different row here:
//  - the ECC read of a byte-masked sector (a read among the write-backs: a turnaround) is what
//    costs: whole-sector stores (`sector`) then run far faster per sector than `word`, and read
//    nothing from DRAM;
//  - each written sector opens its own DRAM row (sectors of a line in different banks or
//    pseudo-channels): `line` (four dirty sectors per write-back) costs per sector what `sector`
//    costs;
//  - a write-back opens one row per line: `line` costs per sector about a quarter of `sector`.
// Same shape as l2dirty.cu part 1: F MB in 132 parts (SM s uses part s), 8 blocks x 256 threads
// per SM, every shape writing the same number of sectors per launch (64 per thread's worth: 17.3 M):
//  - word:   each lane stores 4 B to its own hashed 32 B sector (l2dirty write), 64 per thread;
//  - sector: 8 lanes store one hashed sector whole, 512 per thread;
//  - line:   32 lanes store one hashed 128 B line whole, 512 per thread;
//  - rmw_sector: per step 4 whole-sector loads and 4 whole-sector stores to other hashed sectors
//    (l2dirty rmw without byte masks), 512 per thread of each.
// Rows: l2write_<shape>_<F>MB.{ms, sectors_per_clk} (sectors stored, and for rmw_sector loaded too,
// per clock at 1.98 GHz), after one warm launch of the same addresses, median of 5.
// `l2write SHAPE MB [PARTS]` runs one point once (for ncu: DRAM bytes, hit rate, L2 sector operations).
// PARTS (or the environment's L2WRITE_PARTS for the table, rows l2write_p<PARTS>_...) splits the
// footprint in that many parts instead of one per SM: 1 makes it shared (every SM stores and loads all
// of it at random), which tells a private footprint's own cost from the DRAM mix's.
// Leaves out: streams (streams / write_streams measure those).
#include "common.cuh"

__device__ __forceinline__ unsigned mix(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}

enum Shape { kWord = 0, kSector = 1, kLine = 2, kRmwSector = 3 };
static const char* kShapeNames[] = {"word", "sector", "line", "rmw_sector"};

// Lanes per stored unit and 32 B sectors per unit, by shape.
__host__ __device__ inline unsigned lanes_per_unit(int shape) { return shape == kWord ? 1 : shape == kLine ? 32 : 8; }
__host__ __device__ inline unsigned sectors_per_unit(int shape) { return shape == kLine ? 4 : 1; }

// sectors: the footprint in 32 B sectors; parts: SM s uses part s % parts. Unit u of a step is at a
// hashed place of the SM's part, aligned to the unit; lane l writes word l % lanes of it.
__global__ void private_write(float* buf, unsigned sectors, int steps, int shape, unsigned parts, float* out) {
  const unsigned lane = threadIdx.x & 31, lanes = lanes_per_unit(shape), spu = sectors_per_unit(shape);
  const unsigned unit = (blockIdx.x * blockDim.x + threadIdx.x) / lanes, word = lane % lanes;
  const unsigned span = (sectors / parts) & ~3u;  // a whole number of lines per part
  const unsigned units = span / spu, first = (smid() % parts) * span;
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < steps; k += 4) {
    const unsigned h = mix(unit * 4u + unsigned(k) * 0x9e3779b9u + 7u);
    float* p[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) p[j] = buf + (size_t(first) + size_t(mix(h + unsigned(j)) % units) * spu) * 8 + word;
    if (shape == kRmwSector) {
      const unsigned g = mix(h ^ 0x5bd1e995u);
      float v[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) v[j] = __ldcg(p[j]);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        __stcg(buf + (size_t(first) + size_t(mix(g + unsigned(j)) % units) * spu) * 8 + word, v[j] + 1.f);
      s += v[0] + v[1] + v[2] + v[3];
      continue;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) __stcg(p[j], s + float(j));
    s += 1.f;
  }
  if (s == 1234.5f) out[0] = s;
}

// Stores (and loads) per thread so that every shape writes the same sectors per launch.
static int steps_for(int shape) { return shape == kWord ? 64 : 512; }

static double run_point(float* buf, size_t bytes, int blocks, int shape, unsigned parts, float* out, int reps) {
  const unsigned sectors = unsigned(bytes / 32);
  const int steps = steps_for(shape);
  private_write<<<blocks, 256>>>(buf, sectors, steps, shape, parts, out);  // warm: the same addresses
  return time_ms([&] { private_write<<<blocks, 256>>>(buf, sectors, steps, shape, parts, out); }, reps, 1);
}

int main(int argc, char** argv) {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int blocks = p.multiProcessorCount * 8;
  const size_t max_bytes = size_t(256) << 20;
  float *buf, *out;
  CK(cudaMalloc(&buf, max_bytes));
  CK(cudaMemset(buf, 0, max_bytes));
  CK(cudaMalloc(&out, 4));
  auto shape_of = [](const std::string& s) {
    for (int i = 0; i < 4; ++i)
      if (s == kShapeNames[i]) return i;
    fprintf(stderr, "l2write: unknown shape '%s' (word, sector, line, rmw_sector)\n", s.c_str());
    exit(1);
  };
  const char* env_parts = getenv("L2WRITE_PARTS");
  unsigned parts = unsigned(blocks / 8);
  if (argc == 4) parts = unsigned(atoi(argv[3]));
  else if (env_parts) parts = unsigned(atoi(env_parts));
  if (parts < 1 || parts > unsigned(blocks / 8)) {
    fprintf(stderr, "l2write: PARTS must be 1..%d\n", blocks / 8);
    return 1;
  }
  const std::string prefix = argc < 4 && env_parts ? fmt("l2write_p%u", parts) : std::string("l2write");
  if (argc == 3 || argc == 4) {  // one point, for ncu
    const double ms = run_point(buf, size_t(atoi(argv[2])) << 20, blocks, shape_of(argv[1]), parts, out, 1);
    printf("%s %s MB: %.4f ms\n", argv[1], argv[2], ms);
    return 0;
  }
  const double sectors = double(blocks) * 256.0 * 64;  // sectors stored per launch, every shape
  for (int mb : {16, 32, 48, 56, 64, 96, 192})
    for (int shape = 0; shape < 4; ++shape) {
      const double ms = run_point(buf, size_t(mb) << 20, blocks, shape, parts, out, 5);
      const double moved = shape == kRmwSector ? 2 * sectors : sectors;
      const std::string k = fmt("%s_%s_%dMB", prefix.c_str(), kShapeNames[shape], mb);
      const std::string n = fmt("kernel=private_write %s;%d MB in %u parts (SM s uses part s %% parts);%d x 256 threads;"
                                "%d lanes per stored unit of %d sectors;%d steps per thread;after a warm launch;median of 5",
                                kShapeNames[shape], mb, parts, blocks, lanes_per_unit(shape),
                                sectors_per_unit(shape), steps_for(shape));
      row(k, "ms", ms, "ms", n);
      row(k, "sectors_per_clk", moved / (ms * 1e-3 * 1.98e9), "1/clk", n);
    }
  return 0;
}
