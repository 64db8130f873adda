// import.hpp: the `.sass "FILE" KERNEL` directive: a launch file whose code is a compiled kernel.
//
// A launch file is an ordinary trace with .grid/.block/.buffer, a `.sass`
// line naming a cuobjdump -sass text dump (or a binary, read through
// cuobjdump when it is on the PATH) and the kernel, and a `.param` line giving
// the kernel's parameters in order (a buffer name stands for its flat
// address; a $uniform in an 8-byte slot is zero-extended). The kernel is read (reader.hpp), its parameters placed in
// constant bank 0 as the ABI does (elf_info.hpp: FILE.elf beside the dump,
// else the architecture's standard layout), lowered (lower.hpp) and assembled
// with the launch file; without .regs/.shared lines the .elf's register count and
// static shared memory size apply. Each instruction's location is its SASS line and its
// report text the SASS text; its control bits travel in sass_ctrl.
// Unsupported opcodes are all reported at once, before anything runs.
// Left out: several kernels per launch, other constant banks than 0.
#pragma once

#include "isa/isa.hpp"
#include "isa/sass/lower.hpp"

#include <string>
#include <vector>

namespace simt::isa::sass {

struct ImportOptions {
    std::vector<std::string> stubs;   // "OP=nop" (--sass-stub): run OP (base or full opcode) as a nop
};

// Whether `text` holds a .sass directive (a line whose first word is .sass).
bool has_sass_directive(const std::string& text);

// A launch's kernel and its lowering, unassembled, unsupported instructions included (--sass-check).
struct Probe {
    Kernel kernel;
    Lowered lowered;
};
Probe probe_launch(const std::string& text, const std::string& name, const std::string& dir, const ImportOptions& options);

Program import_launch(const std::string& text, const std::string& name, const std::string& dir, const ImportOptions& options);

}  // namespace simt::isa::sass
