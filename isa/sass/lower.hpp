// lower.hpp: SASS instructions -> trace-language text, by one table.
//
// Each SASS opcode (its base name, e.g. IMAD) has one row in kRules
// (lower.cpp): the trace instruction(s) it becomes and a note; the row's
// function picks the form by the modifiers (IMAD.WIDE, IMAD.MOV ...). A
// constant-bank operand c[0x0][X] becomes what Env::cbank says (a kernel
// parameter's $uniform, %ntid.x, ...); RZ/URZ become 0, PT pt; a negated
// integer register source is an isub from 0 into a temporary first. Sequences
// that need a temporary use registers above the kernel's own and a predicate
// it never names. Every instruction that has no lowering is collected
// (all of them, not just the first) with the reason.
// 64-bit carry chains (IADD3/LEA/IMAD.HI/IMAD.WIDE/UIADD3 carry-outs into a
// predicate, .X carry-ins), 64-bit compares (ISETP.EX), directed rounding,
// 64-bit conversions, .SAT, PLOP3 of three predicates, SHFL's in-range
// predicate and BRA.DIV's test of the active lanes are exact for the forms the
// compiler emits. The family functions live in lower_int.cpp, lower_fp.cpp and
// lower.cpp (lower_ctx.hpp).
// Left out: tensor cores, TMA, texture, indirect branches (BRX), 8/16-bit
// accesses, the constant banks other than 0.
#pragma once

#include "isa/sass/reader.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace simt::isa::sass {

struct Env {
    // The trace value standing for the 32-bit word at c[0x0][offset], or "" when unknown.
    std::function<std::string(uint32_t offset)> cbank;
    std::map<std::string, std::string> stubs;   // SASS opcode (base or full) -> "nop"
    uint32_t shared_base = 0;   // sm_90: shared addresses built from SR_CgaCtaId start at 0x400
};

struct Line {
    std::string text;    // one trace instruction (or "LABEL:")
    size_t sass = 0;     // index of the SASS instruction it comes from
};

struct Unsupported {
    size_t sass = 0;
    std::string why;
};

struct Lowered {
    std::vector<Line> lines;
    std::vector<Unsupported> unsupported;
    uint32_t regs = 0;   // registers the lowered code needs: the kernel's, + 6 when it uses temporaries
    uint32_t kernel_regs = 0;   // the kernel's own registers (its highest + 1, rounded up to a pair): no temporary
};

Lowered lower(const Kernel& k, const Env& env);

// The mapping table as Markdown rows ("| SASS | trace | notes |"), for isa/README.md.
std::string markdown_rules();

}  // namespace simt::isa::sass
