// memory.hpp: the launch's global memory image: every .buffer of the program
// laid out in one flat byte-addressed space and initialised as declared.
//
// Layout: buffer i starts at base(i); the first buffer starts at kGlobalBase
// and each base is aligned to 256 bytes (as cudaMalloc aligns), so address 0
// and small addresses are never valid. Local memory lives in a separate window
// starting at kLocalBase (see DynInst::addr) and is not part of this image.
#pragma once

#include "isa/isa.hpp"

#include <cstdint>
#include <cstdlib>
#include <iosfwd>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace simt::func {

using isa::kGlobalBase;
constexpr uint64_t kLocalBase = 0x8'0000'0000ull;

// Zeroed storage from calloc: a buffer's pages come zero from the system and
// are touched only where the kernel reads or writes them (a std::vector's own
// zeroing writes every byte first: a second of a 1 GiB gather's set-up).
template <class T>
struct ZeroAllocator {
    using value_type = T;
    ZeroAllocator() = default;
    template <class U>
    ZeroAllocator(const ZeroAllocator<U>&) {}
    T* allocate(size_t n) {
        if (void* p = std::calloc(n ? n : 1, sizeof(T))) return static_cast<T*>(p);
        throw std::bad_alloc();
    }
    void deallocate(T* p, size_t) { std::free(p); }
    template <class U>
    void construct(U*) noexcept {}  // value-initialised: calloc's zeros
    template <class U, class... A>
    void construct(U* p, A&&... a) { ::new (static_cast<void*>(p)) U(std::forward<A>(a)...); }
    template <class U>
    bool operator==(const ZeroAllocator<U>&) const { return true; }
};
using Bytes = std::vector<uint8_t, ZeroAllocator<uint8_t>>;

class GlobalMemory {
public:
    // Lays out and initialises every buffer (zero, iota, const, random, perm,
    // file). `trace_dir` resolves relative file paths. Throws simt::Error
    // (located at the .buffer directive) when a file is missing or malformed.
    GlobalMemory(const isa::Program& program, const std::string& trace_dir);

    uint64_t base(int buffer) const { return bases_[buffer]; }
    // The buffer holding [addr, addr + bytes), or -1.
    int find(uint64_t addr, uint32_t bytes) const;
    uint8_t* data(int buffer) { return bytes_[buffer].data(); }
    const uint8_t* data(int buffer) const { return bytes_[buffer].data(); }

    // Writes every buffer as CSV: "buffer,index,value" (values in the buffer's type).
    void dump_csv(std::ostream& out) const;

private:
    const isa::Program& program_;
    std::vector<uint64_t> bases_;
    std::vector<Bytes> bytes_;
};

}  // namespace simt::func
