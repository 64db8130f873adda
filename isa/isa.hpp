// isa.hpp: the checked, decoded form of a simt-sim program.
//
// The assembler (assembler.hpp) turns text into a Program; everything
// downstream (functional executor, per-thread reference, timing model,
// reports) reads only this. Opcodes come from the single table opcodes.def.
//
// Deliberately left out: types beyond 32-bit words (fp64 uses register pairs),
// an instruction cache model, indirect branches.
#pragma once

#include "diagnostics.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace simt::isa {

constexpr uint32_t kWarpSize = 32;
constexpr uint32_t kMaxRegs = 255;   // r0 .. r254
constexpr uint32_t kNumPreds = 7;    // p0 .. p6; "pt" is the constant true
constexpr uint32_t kPredTrue = 7;    // index used for pt
constexpr uint16_t kPredRegBase = 256;  // scoreboard id of p0 (general registers are 0..254)
constexpr uint32_t kNumURegs = 63;      // uniform registers ur0 .. ur62 (one value per warp)
constexpr uint16_t kURegBase = 272;     // scoreboard id of ur0

// The pipe class an instruction issues to; which datapaths of a sub-partition
// execute each class is the config's per-architecture table (pipes.<class>.datapaths).
enum class Pipe : uint8_t { Fma, Alu, Sfu, Fp64, Lsu, Tex, Branch, Imad, Iadd, Uniform };
constexpr int kNumPipes = 10;
enum class Lat : uint8_t { Fixed, Mio, L1tex, L2, Emul, Ctrl };
enum class Space : uint8_t { None, Global, Shared, Local, Const };
enum class Access : uint8_t { None, Load, Store, Atomic };

enum class Op : uint8_t {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc) e,
#include "opcodes.def"
#undef OP
};

struct OpInfo {
    Op op;
    std::string_view mnemonic;
    Pipe pipe;
    Lat lat;
    std::string_view signature;  // e.g. "R,V,V"
    Space space;
    Access access;
    uint8_t bytes;               // bytes per lane for memory instructions
    std::string_view doc;
};

// Columns of the table known at compile time (for `if constexpr` dispatch).
namespace detail {
inline constexpr Access kAccess[] = {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc) Access::acc,
#include "opcodes.def"
#undef OP
};
inline constexpr std::string_view kMnemonic[] = {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc) m,
#include "opcodes.def"
#undef OP
};
}  // namespace detail
constexpr Access access_of(Op op) { return detail::kAccess[static_cast<size_t>(op)]; }
constexpr std::string_view mnemonic_of(Op op) { return detail::kMnemonic[static_cast<size_t>(op)]; }

// One row per opcode, indexed by static_cast<size_t>(Op).
const std::vector<OpInfo>& op_table();
inline const OpInfo& info(Op op) { return op_table()[static_cast<size_t>(op)]; }
std::string_view pipe_name(Pipe p);   // "fma", "alu", "sfu", "fp64", "lsu", "tex", "branch", "imad", "iadd", "uniform"

enum class Cmp : uint8_t { None, Lt, Le, Gt, Ge, Eq, Ne };
// The compares, whose mnemonic takes a .CMP suffix (isetp.lt, dsetp.ge, ...).
constexpr bool takes_cmp(Op op) { return op == Op::Isetp || op == Op::Usetp || op == Op::Fsetp || op == Op::Dsetp; }

enum class Special : uint8_t {
    LaneId, WarpId,                      // %laneid, %warpid (warp index within the block)
    TidX, TidY, TidZ,                    // %tid.x ...
    CtaidX, CtaidY, CtaidZ,              // %ctaid.x ...
    NtidX, NtidY, NtidZ,                 // %ntid.x ... (block size)
    NctaidX, NctaidY, NctaidZ,           // %nctaid.x ... (grid size)
    PixelX, PixelY,                      // %pixel.x, %pixel.y (fragment launches)
    Clock, Clock64,                      // %clock, %clock64: the SM's cycle counter at issue (functional
                                         // runs: the warp's count of instructions issued before this one)
    SmId,                                // %smid: the SM the block runs on (functional runs: 0)
};

enum class OperandKind : uint8_t { None, Reg, Pred, Imm, Special, Uniform, Mem, Label, Buffer, UReg };

// A memory operand [base + rI*scale + offset]; base is a buffer for the
// global/const spaces (required there) and absent for shared/local.
struct MemRef {
    int32_t buffer = -1;   // index into Program::buffers, or -1
    int16_t index_reg = -1;
    uint8_t scale = 1;     // 1, 2, 4, 8 or 16
    int32_t offset = 0;    // bytes
    bool flat = false;     // [rN.64 + offset]: rN:rN+1 holds a 64-bit address in the flat global
                           // space every buffer lives in (SASS's [R2.64]); buffer stays -1
};

struct Operand {
    OperandKind kind = OperandKind::None;
    bool negate = false;   // for predicate sources: !pN
    bool fp = false;       // Imm written as a float literal (for printing)
    bool fneg = false;     // fp32 source modifier -x (signature 'F'; applied after fabs)
    bool fabs = false;     // fp32 source modifier |x|
    bool wide = false;     // Imm of an fp64 source (signature 'G'): 64 bits, high word in `hi`
    uint32_t hi = 0;
    uint32_t value = 0;    // Reg: index; Pred: index (kPredTrue = pt); Imm: 32 bits (fp64: the low word);
                           // Special: Special; Uniform: index into Program::uniforms; UReg: N of urN;
                           // Label: target pc; Buffer: index into Program::buffers
    MemRef mem;            // Mem only
};

// Registers an instruction reads and writes, for the scoreboard and the bank
// model. General registers are 0..254, predicates kPredRegBase + p, uniform
// registers kURegBase + n.
struct RegUse {
    std::array<uint16_t, 8> src{};
    std::array<uint16_t, 4> dst{};
    uint8_t nsrc = 0;
    uint8_t ndst = 0;
};

struct Instruction {
    Op op = Op::Nop;
    Cmp cmp = Cmp::None;
    int8_t guard = -1;          // predicate index guarding the instruction, -1 = none
    bool guard_negate = false;  // @!pN
    uint8_t nops = 0;
    std::array<Operand, 5> ops{};
    RegUse regs;                // derived by the assembler from ops and guard
    SourceLoc loc;              // where the instruction was written
    uint32_t sass_ctrl = 0;     // imported SASS: the compiler's control bits (sass::Control::pack), else 0
};

enum class ElemType : uint8_t { U32, I32, F32, F64 };
inline uint32_t elem_bytes(ElemType t) { return t == ElemType::F64 ? 8 : 4; }

struct BufferInit {
    enum class Kind : uint8_t { Zero, Iota, Const, Random, Perm, File, Data } kind = Kind::Zero;
    double a = 0;         // Iota: start, Const: value, Random: min
    double b = 1;         // Iota: step,  Random: max
    uint64_t seed = 1;    // Random, Perm
    std::string path;     // File: CSV with one value per row (resolved relative to the trace)
    std::vector<double> values;   // Data: every element, in order (a small table: at most kMaxDataValues)
};

struct BufferDecl {
    std::string name;
    ElemType type = ElemType::U32;
    uint64_t count = 0;           // elements
    uint32_t width = 0, height = 0;  // 2D shape for tex (width * height == count), else 0
    BufferInit init;
    SourceLoc loc;
    uint64_t bytes() const { return count * elem_bytes(type); }
};

struct UniformDecl {
    std::string name;
    ElemType type = ElemType::U32;
    uint32_t bits = 0;            // the 32-bit value
    SourceLoc loc;
};

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t(x) * y * z; }
};

struct LaunchDecl {
    enum class Mode : uint8_t { Compute, Fragment } mode = Mode::Compute;
    Dim3 grid, block;             // compute
    uint32_t width = 0, height = 0;  // fragment: pixels
    uint32_t tile_w = 4, tile_h = 8; // fragment: pixels per warp (tile_w * tile_h == 32, both even)
    SourceLoc loc;
};

struct Program {
    std::string kernel;           // .kernel name
    LaunchDecl launch;
    uint32_t regs_per_thread = 0; // .regs N (1..255); defaults to highest register used + 1
    uint32_t scratch_regs = 0;    // imported SASS: registers above regs_per_thread that only the lowering's temporaries
                                  // use (the simulator's, not the kernel's: no occupancy; isa/sass/import.cpp)
    uint32_t shared_bytes = 0;    // .shared N, per block
    uint32_t local_bytes = 0;     // .local N, per thread
    std::vector<BufferDecl> buffers;
    std::vector<UniformDecl> uniforms;
    std::vector<Instruction> code;
    std::vector<std::string> text;   // source text of each instruction, for reports
    std::map<std::string, uint32_t> labels;
    std::string path;             // main file

    // Warps in one block (compute: ceil(threads / 32); fragment: 1).
    uint32_t warps_per_block() const;
    // Number of blocks in the launch (fragment: number of warps, one per tile).
    uint64_t num_blocks() const;
    uint32_t threads_per_block() const;
};

// Where each buffer starts in the flat global space: the first at kGlobalBase,
// each 256-byte aligned (as cudaMalloc), in declaration order.
constexpr uint64_t kGlobalBase = 0x1000'0000ull;
std::vector<uint64_t> buffer_bases(const std::vector<BufferDecl>& buffers);

// The textual form of one instruction (the disassembler), e.g. "@!p0 iadd r1, r2, 4".
std::string disassemble(const Program& p, uint32_t pc);

}  // namespace simt::isa

namespace simt::isa {
// The instruction reference as a Markdown table, generated from opcodes.def;
// isa/README.md embeds it verbatim (a test keeps the two equal).
std::string markdown_reference();
}  // namespace simt::isa
