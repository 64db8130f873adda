// assembler.hpp: text -> checked isa::Program.
//
// Two passes over the source (with .include expanded in place): the first
// parses directives, labels and instructions; the second resolves labels,
// derives each instruction's register use and checks whole-program rules
// (a launch is declared, registers fit .regs, labels exist). The first error
// stops assembly with a simt::Error at file:line:col saying what was expected.
#pragma once

#include "isa/isa.hpp"

#include <string>
#include <vector>

namespace simt::isa {

Program assemble_file(const std::string& path);
// A launch file with a `.sass` directive imports a compiled kernel (isa/sass/import.hpp);
// `sass_stubs` ("OP=nop", --sass-stub) runs those SASS opcodes as nops.
Program assemble_file(const std::string& path, const std::vector<std::string>& sass_stubs);
// `name` stands for the file in error messages; .include paths resolve against `dir`.
Program assemble_text(const std::string& text, const std::string& name, const std::string& dir = ".");

// Applies "NAME=VALUE" to a .uniform of the program (the value parsed by the
// uniform's type), for --uniform on the command line. Throws simt::Error.
void override_uniform(Program& program, const std::string& assignment);

// Launch shape and resources given on the command line, as typed (empty: the
// trace's own): --grid X[,Y,Z], --block X[,Y,Z], --fragment WxH, --shared BYTES,
// --regs N. Each goes through its directive's checks and then the program's
// (registers fit .regs, local memory per block); --grid/--block turn a fragment
// trace into a compute launch (both are needed), --fragment a compute trace into
// a fragment launch. Errors are located at the option ("--block 2048: error: ...").
struct LaunchOverrides {
    std::string grid, block, fragment, shared, regs;
    bool any() const { return !grid.empty() || !block.empty() || !fragment.empty() || !shared.empty() || !regs.empty(); }
};
void override_launch(Program& program, const LaunchOverrides& overrides);

}  // namespace simt::isa
