// coverage.hpp: which kernels of a cuobjdump -sass dump can be simulated (simt-sim --sass-check).
//
// Each kernel of a dump is imported through a probe launch (one block of 128 threads; each
// pointer parameter a zeroed buffer of 64 Ki words, each other one the value 8: a mangled C++
// name says which are pointers, else every 8-byte parameter is taken for one; the
// parameter sizes from FILE.elf beside the dump; without one, 8-byte parameters up to the highest
// constant-bank word the kernel reads). A kernel lowers when no instruction is
// unsupported and the lowered code assembles. The tally counts the unsupported instructions by
// opcode and reason over all kernels. Running the probes (do they finish, do both interpreters
// agree) is the caller's: the CLI does it. Left out: binaries (give the text dump).
#pragma once

#include "isa/sass/import.hpp"

#include <map>
#include <string>
#include <vector>

namespace simt::isa::sass {

struct KernelCheck {
    std::string file, kernel;
    size_t instructions = 0;
    std::vector<std::string> unsupported;   // "FILE:LINE: TEXT   (why)", one per instruction
    std::vector<std::string> reasons;       // "OPCODE: why" (register numbers as Rn), parallel to `unsupported`
    std::string error;                      // any other import error (the assembler's), or ""
    std::string launch;                     // the probe launch's text (in the dump's directory)
    bool lowers() const { return unsupported.empty() && error.empty(); }
};

// The names of the kernels ("Function : NAME") of a listing, in order.
std::vector<std::string> kernel_names(const std::string& listing);

// Every kernel of the dump at `path`. Throws simt::Error when the file or its .elf is unreadable.
std::vector<KernelCheck> check_dump(const std::string& path);

// Unsupported instructions counted by "OPCODE: why" over `checks`, and in how many kernels each.
struct TallyEntry {
    size_t instructions = 0, kernels = 0;
};
std::map<std::string, TallyEntry> tally(const std::vector<KernelCheck>& checks);

}  // namespace simt::isa::sass
