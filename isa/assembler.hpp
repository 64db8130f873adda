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

namespace simt::isa {

Program assemble_file(const std::string& path);
// `name` stands for the file in error messages; .include paths resolve against `dir`.
Program assemble_text(const std::string& text, const std::string& name, const std::string& dir = ".");

// Applies "NAME=VALUE" to a .uniform of the program (the value parsed by the
// uniform's type), for --uniform on the command line. Throws simt::Error.
void override_uniform(Program& program, const std::string& assignment);

}  // namespace simt::isa
