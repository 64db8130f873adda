// reader.hpp: the cuobjdump -sass text of one kernel, as instructions.
//
// Reads the listing cuobjdump prints ("Function : NAME", then one line per
// instruction: /*ADDR*/ [@guard] OPCODE.MODS operands ; /* word0 */ and the next
// line's /* word1 */), for sm_70 ... sm_90 (128-bit instructions). Each
// instruction keeps its file:line, its text and the control bits of word1.
// read_line_info() reads nvdisasm -g's CUDA source lines of the same code.
// Left out: the 64-bit encodings of sm_5x/6x (their control words come once
// per three instructions), nvdisasm's label syntax, reading binaries.
#pragma once

#include "isa/diagnostics.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace simt::isa::sass {

// The compiler's scheduling bits of one instruction (bits 41..61 of word1).
struct Control {
    uint8_t stall = 0;      // cycles before the next instruction may issue (0..15)
    bool yield = false;     // the scheduler may switch warps
    uint8_t write_bar = 7;  // dependence barrier set when the result is written (7: none)
    uint8_t read_bar = 7;   // dependence barrier set when the sources are read (7: none)
    uint8_t wait = 0;       // barriers waited on before issue (bit mask of 6)
    uint8_t reuse = 0;      // operand reuse-cache flags (bit mask of 4)

    static Control from_word1(uint64_t word1);
    uint32_t pack() const;  // the 21 bits as in word1, for isa::Instruction::sass_ctrl
    static Control unpack(uint32_t bits);
};

struct Inst {
    uint32_t addr = 0;           // byte offset in the kernel (the /*0040*/)
    SourceLoc loc;               // the line of the dump, column of the opcode
    std::string guard;           // "P0", "!P0", "PT", or empty
    std::string opcode;          // with its modifiers: "ISETP.GE.AND"
    std::vector<std::string> operands;  // as printed, "desc[UR4][R2.64]", "R3.reuse"
    std::vector<uint32_t> operand_cols; // column of each operand
    std::string text;            // "@P0 ISETP.GE.AND P0, PT, R7, UR4, PT"
    Control control;
    std::string cuda_line;       // "saxpy.cu:4" from nvdisasm -g, or empty
};

struct Kernel {
    std::string name;
    std::string arch;            // "sm_90"
    std::vector<Inst> code;
};

// The kernel `name` of a cuobjdump -sass listing (`text`, read from `file`).
// Throws simt::Error when the kernel is absent (naming those present) or a line is malformed.
Kernel read_kernel(const std::string& text, const std::string& file, const std::string& name, const SourceLoc& asked_at);

// The CUDA source line of each instruction of `kernel` in an `nvdisasm -g` listing (its
// "//## File "F", line N" comments), by address; empty without line info.
std::map<uint32_t, std::string> read_line_info(const std::string& text, const std::string& kernel);

}  // namespace simt::isa::sass
