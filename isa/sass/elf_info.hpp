// elf_info.hpp: what a kernel's launch needs from the cuobjdump -elf text.
//
// From ".nv.info.KERNEL": each parameter's ordinal, offset and size
// (EIATTR_KPARAM_INFO) and where the parameters start in constant bank 0
// (EIATTR_PARAM_CBANK); from ".nv.info": the kernel's register count; from the section table
// the size of ".nv.shared.KERNEL" (its static __shared__ arrays).
// Without a dump, standard_params() gives the ABI's layout for the
// architecture (sm_90: parameters at c[0x0][0x210], sm_70..sm_89: 0x160),
// each parameter aligned to its size. From the module: its initialised __device__ objects
// (.nv.global.init's data and symbols; .nv.global's, zero) and constant bank 4's relocations
// (c[0x4][X] holds such an object's address: sinf's Payne-Hanek table __cudart_i2opi_f).
// Left out: the other attributes, bank 2's jump tables (BRX).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::isa::sass {

struct ParamSlot {
    uint32_t offset = 0;   // bytes from the start of the parameters
    uint32_t size = 0;     // 4 or 8 (pointers, 64-bit values)
};

// A __device__ object of the module: its bytes, and its data (empty: zeros, a .nv.global object).
struct GlobalObject {
    std::string name;
    uint32_t bytes = 0;
    std::vector<uint32_t> words;
};
// c[0x4][offset] holds the address of `symbol` + addend (R_CUDA_64: 8 bytes).
struct BankReloc {
    uint32_t offset = 0;
    std::string symbol;
    uint64_t addend = 0;
};

struct KernelInfo {
    bool from_elf = false;
    uint32_t cbank_base = 0;        // c[0x0][base] holds parameter 0
    std::vector<ParamSlot> params;  // by ordinal
    uint32_t regs = 0;              // EIATTR_REGCOUNT (0: unknown)
    uint32_t shared_bytes = 0;      // the .nv.shared.KERNEL section: static shared memory (0: none)
    std::vector<GlobalObject> globals;   // the module's __device__ objects
    std::vector<BankReloc> bank4;        // constant bank 4's addresses of them
};

// Parses `text` (cuobjdump -elf); false when it has no .nv.info for `kernel`.
bool read_elf_info(const std::string& text, const std::string& kernel, KernelInfo& out);

// The parameter base of the architecture ("sm_90": 0x210, else 0x160).
uint32_t standard_param_base(const std::string& arch);

}  // namespace simt::isa::sass
