// l1keep.cu: what the L1 keeps of a block's data while other data passes through it (issue 6: the
// held-out ho_softmax reads each 16 KB row three times, 8 rows an SM, 128 KB; the model's LRU L1 of
// 224 KB keeps every row (66.7 % sector hits), the H100 hits 29.5 % of its L1TEX sectors and its L2
// sees the second and third passes). Does a global store allocate a line in the L1? Is the L1's
// replacement LRU, FIFO or random? How much of the 256 KB array holds global data beside a 32 KB
// shared carve-out?
// One block of 256 threads per SM (17 KB of dynamic shared memory and a 14 % carve-out preference,
// softmax's 32 KB configuration), each with its own regions of A, B and C:
//   phase 1  read A[0, S)                           (coalesced ld.global.ca: 1 KB a loop step)
//   phase 2  by mode:  none    nothing
//                      st      store B[0, T)
//                      sthalf  store every other word of B[0, T) (byte-masked sectors)
//                      ld      read B[0, T)
//                      lru     read C[0, 64 KB), read A[0, S) again, read B[0, T)
//   phase 3  read A[0, S) again: thread 0 times it (clock64 between barriers)
// With p3 = 0 phase 3 is left out: ncu's L1 load hits with phase 3 minus those without are phase 3's.
// LRU keeps A through `lru` while S + T + 64 KB minus what was refreshed fits; FIFO drops A's
// oldest lines first there. Output rows: l1keep_<mode>_S<kb>_T<kb>.phase3_cycles_per_kb (median over
// blocks of the one launch), and the SM count the blocks used. `l1keep LIST` prints the variants in
// launch order; `CALIB_NCU=1` runs each variant twice (p3 1, then 0) once.
#include "common.cuh"

enum Mode { kNone, kSt, kLd, kLru, kStHalf };
static const char* kModeName[] = {"none", "st", "ld", "lru", "sthalf"};

__device__ __forceinline__ float ld_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ float read_span(const float* a, int floats) {
  float s = 0.f;
  for (int i = threadIdx.x; i < floats; i += blockDim.x) s += ld_ca(a + i);
  return s;
}

__global__ void l1keep(const float* A, float* B, const float* C, int s_floats, int t_floats, int region,
                       int mode, int p3, float* out, long long* cyc, unsigned* sm) {
  extern __shared__ float pad[];
  const float* a = A + (size_t)blockIdx.x * region;
  float* b = B + (size_t)blockIdx.x * region;
  const float* c = C + (size_t)blockIdx.x * region;
  float s = read_span(a, s_floats);
  if (mode == kSt)
    for (int i = threadIdx.x; i < t_floats; i += blockDim.x) b[i] = s;
  if (mode == kStHalf)
    for (int i = 2 * threadIdx.x; i < t_floats; i += 2 * blockDim.x) b[i] = s;
  if (mode == kLd) s += read_span(b, t_floats);
  if (mode == kLru) {
    s += read_span(c, 16384);
    s += read_span(a, s_floats);
    s += read_span(b, t_floats);
  }
  __syncthreads();
  long long t0 = clock64();
  if (p3) s += read_span(a, s_floats);
  __syncthreads();
  long long t1 = clock64();
  pad[threadIdx.x] = s;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s + pad[(threadIdx.x + 1) % blockDim.x];
  if (threadIdx.x == 0) {
    cyc[blockIdx.x] = t1 - t0;
    sm[blockIdx.x] = smid();
  }
}

struct Variant {
  Mode mode;
  int s_kb, t_kb;
};

static std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (int s : {64, 128, 160, 192, 208, 224, 240, 256, 320}) v.push_back({kNone, s, 0});
  for (int t : {64, 128, 160, 192, 256, 512}) v.push_back({kSt, 64, t});
  v.push_back({kSt, 128, 128});
  for (int t : {64, 128, 160, 192, 256}) v.push_back({kLd, 64, t});
  for (int t : {32, 64, 96}) v.push_back({kLru, 128, t});
  for (int t : {128, 160, 192, 256}) v.push_back({kStHalf, 64, t});
  return v;
}

static std::string name(const Variant& v) { return fmt("l1keep_%s_S%d_T%d", kModeName[v.mode], v.s_kb, v.t_kb); }

int main(int argc, char** argv) {
  const std::vector<Variant> vs = variants();
  if (argc > 1 && std::string(argv[1]) == "LIST") {
    for (auto& v : vs) printf("%s\n", name(v).c_str());
    return 0;
  }
  const bool ncu = getenv("CALIB_NCU") != nullptr;
  const cudaDeviceProp p = props();
  const int blocks = p.multiProcessorCount, threads = 256, region = 512 * 256;  // 512 KB of floats
  const int smem = 17 * 1024;
  CK(cudaFuncSetAttribute(l1keep, cudaFuncAttributePreferredSharedMemoryCarveout, 14));
  float *A, *B, *C, *out;
  long long* cyc;
  unsigned* sm;
  CK(cudaMalloc(&A, sizeof(float) * (size_t)blocks * region));
  CK(cudaMalloc(&B, sizeof(float) * (size_t)blocks * region));
  CK(cudaMalloc(&C, sizeof(float) * (size_t)blocks * region));
  CK(cudaMemset(A, 0, sizeof(float) * (size_t)blocks * region));
  CK(cudaMemset(C, 0, sizeof(float) * (size_t)blocks * region));
  CK(cudaMalloc(&out, sizeof(float) * blocks * threads));
  CK(cudaMalloc(&cyc, sizeof(long long) * blocks));
  CK(cudaMalloc(&sm, sizeof(unsigned) * blocks));
  for (auto& v : vs) {
    auto launch = [&](int p3) {
      l1keep<<<blocks, threads, smem>>>(A, B, C, v.s_kb * 256, v.t_kb * 256, region, v.mode, p3, out, cyc, sm);
    };
    if (ncu) {
      launch(1);
      launch(0);
      CKL();
      CK(cudaDeviceSynchronize());
      continue;
    }
    launch(1);
    CKL();
    CK(cudaDeviceSynchronize());
    std::vector<long long> c(blocks);
    std::vector<unsigned> s(blocks);
    CK(cudaMemcpy(c.data(), cyc, sizeof(long long) * blocks, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(s.data(), sm, sizeof(unsigned) * blocks, cudaMemcpyDeviceToHost));
    std::vector<double> per_kb;
    for (long long x : c) per_kb.push_back(double(x) / v.s_kb);
    std::sort(s.begin(), s.end());
    int distinct = int(std::unique(s.begin(), s.end()) - s.begin());
    row(name(v), "phase3_cycles_per_kb", median(per_kb), "cycles",
        fmt("%d blocks on %d SMs;min %.1f;max %.1f", blocks, distinct,
            *std::min_element(per_kb.begin(), per_kb.end()), *std::max_element(per_kb.begin(), per_kb.end())));
  }
  return 0;
}
