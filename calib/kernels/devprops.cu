// devprops.cu: device properties (cudaGetDeviceProperties and a few cudaDeviceGetAttribute values
// that CUDA 13 no longer keeps in cudaDeviceProp), as CSV rows on stdout and key: value lines in the
// file named by argv[1].
// Leaves out: MIG and multi-GPU topology.
#include "common.cuh"

int main(int argc, char** argv) {
  FILE* f = argc > 1 ? fopen(argv[1], "a") : stderr;
  if (!f) f = stderr;
  cudaDeviceProp p = props();
  int drv = 0, rt = 0;
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  auto attr = [](cudaDeviceAttr a) {
    int v = -1;
    if (cudaDeviceGetAttribute(&v, a, 0) != cudaSuccess) {
      cudaGetLastError();
      v = -1;
    }
    return v;
  };
  struct KV {
    const char* k;
    double v;
    const char* unit;
  };
  std::vector<KV> kv = {
      {"cc_major", double(p.major), ""},
      {"cc_minor", double(p.minor), ""},
      {"multiProcessorCount", double(p.multiProcessorCount), "SMs"},
      {"clockRate_attr", double(attr(cudaDevAttrClockRate)), "kHz"},
      {"memoryClockRate_attr", double(attr(cudaDevAttrMemoryClockRate)), "kHz"},
      {"memoryBusWidth", double(p.memoryBusWidth), "bit"},
      {"l2CacheSize", double(p.l2CacheSize), "B"},
      {"persistingL2CacheMaxSize", double(p.persistingL2CacheMaxSize), "B"},
      {"totalGlobalMem", double(p.totalGlobalMem), "B"},
      {"regsPerBlock", double(p.regsPerBlock), "regs"},
      {"regsPerMultiprocessor", double(p.regsPerMultiprocessor), "regs"},
      {"sharedMemPerBlock", double(p.sharedMemPerBlock), "B"},
      {"sharedMemPerBlockOptin", double(p.sharedMemPerBlockOptin), "B"},
      {"sharedMemPerMultiprocessor", double(p.sharedMemPerMultiprocessor), "B"},
      {"reservedSharedMemPerBlock", double(p.reservedSharedMemPerBlock), "B"},
      {"maxThreadsPerMultiProcessor", double(p.maxThreadsPerMultiProcessor), "threads"},
      {"maxThreadsPerBlock", double(p.maxThreadsPerBlock), "threads"},
      {"maxBlocksPerMultiProcessor", double(p.maxBlocksPerMultiProcessor), "blocks"},
      {"warpSize", double(p.warpSize), "threads"},
      {"asyncEngineCount", double(p.asyncEngineCount), ""},
      {"concurrentKernels", double(p.concurrentKernels), ""},
      {"ECCEnabled", double(p.ECCEnabled), ""},
      {"l2_access_policy_max_window", double(p.accessPolicyMaxWindowSize), "B"},
      {"singleToDoublePrecisionPerfRatio", double(attr(cudaDevAttrSingleToDoublePrecisionPerfRatio)), ""},
      {"pciBusID", double(p.pciBusID), ""},
      {"driverVersion", double(drv), ""},
      {"runtimeVersion", double(rt), ""},
  };
  fprintf(f, "name: %s\n", p.name);
  for (auto& e : kv) {
    fprintf(f, "%s: %.0f %s\n", e.k, e.v, e.unit);
    row("device", e.k, e.v, e.unit, p.name);
  }
  if (f != stderr) fclose(f);
  return 0;
}
