// semantics.hpp: what every opcode computes, for one lane, on 32-bit words.
//
// The single definition of instruction semantics, shared by the SIMT executor
// (executor.cpp, which loops these over the 32 lanes of a warp) and the
// per-thread reference interpreter (reference.cpp). Follows the semantics
// column of isa/opcodes.def, including the defined results of division by
// zero and of out-of-range float-to-integer conversions.
//
// Floating point: fp32 arithmetic is IEEE single precision with round to
// nearest even (the build keeps -ffp-contract=off by using ISO C++20, so no
// implicit fusion). ffma, fmin, fmax and the SFU functions sin, cos, ex2, lg2
// are our own (fpmath.hpp: correctly rounded ffma; sin/cos within 2^-22.8
// absolute for every argument, ex2/lg2 within 2^-22 relative), so results are
// the same bits on every host and libm; rcp, rsqrt, sqrt are IEEE division and
// square root. fadd, fsub, fmul and ffma give the canonical NaN 0x7fffffff for
// any NaN result. dfma uses std::fma on double. fabs/fneg act on the sign bit.
// fp64 values live in a register pair rN:rN+1: low word in rN, high in rN+1.
//
// Each Value opcode's lane function is lane_value<Op>() (branch-light, so the
// executor's 32-lane loops vectorise); value() dispatches on a runtime Op.
//
// Left out: denormal flushing, fp16, rounding-mode suffixes.
#pragma once

#include "isa/isa.hpp"
#include "sim/functional/fpmath.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

namespace simt::func::sem {

using isa::Op;

// How an interpreter handles an opcode.
enum class Kind : uint8_t {
    Value,      // R <- f(V, V, V)
    Select,     // sel R, V, V, Q
    Compare,    // P <- V CMP V
    PredLogic,  // P <- Q op Q
    Vote,       // collective over the warp's executing lanes
    Shuffle,    // collective over the warp's executing lanes
    Fp64,       // register pairs
    Load, Store, Atomic, Tex,
    Branch, Call, Ret, Barrier, Exit, Nop,
};

constexpr Kind kind_of(Op op) {
    switch (op) {
    case Op::Sel: return Kind::Select;
    case Op::Isetp: case Op::Usetp: case Op::Fsetp: return Kind::Compare;
    case Op::Pand: case Op::Por: case Op::Pxor: case Op::Pnot: return Kind::PredLogic;
    case Op::VoteAny: case Op::VoteAll: case Op::VoteBallot: return Kind::Vote;
    case Op::ShflUp: case Op::ShflDown: case Op::ShflXor: case Op::ShflIdx: return Kind::Shuffle;
    case Op::Dadd: case Op::Dmul: case Op::Dfma: case Op::F2d: case Op::D2f: return Kind::Fp64;
    case Op::LdGlobal: case Op::LdGlobal4: case Op::LdShared: case Op::LdShared4:
    case Op::LdLocal: case Op::LdLocal4: case Op::LdConst: return Kind::Load;
    case Op::StGlobal: case Op::StGlobal4: case Op::StShared: case Op::StShared4:
    case Op::StLocal: case Op::StLocal4: return Kind::Store;
    case Op::AtomGlobalAdd: case Op::AtomSharedAdd: return Kind::Atomic;
    case Op::Tex: return Kind::Tex;
    case Op::Bra: return Kind::Branch;
    case Op::Call: return Kind::Call;
    case Op::Ret: return Kind::Ret;
    case Op::Bar: return Kind::Barrier;
    case Op::Exit: return Kind::Exit;
    case Op::Nop: return Kind::Nop;
    default: return Kind::Value;
    }
}

constexpr bool is_collective(Op op) {
    return kind_of(op) == Kind::Vote || kind_of(op) == Kind::Shuffle;
}

inline uint64_t pair(uint32_t lo, uint32_t hi) { return uint64_t(hi) << 32 | lo; }

// ---- integer division (defined for every input, see opcodes.def)
inline uint32_t idiv(uint32_t a, uint32_t b) {
    const int32_t x = int32_t(a), y = int32_t(b);
    if (y == 0) return 0xffffffffu;
    if (x == std::numeric_limits<int32_t>::min() && y == -1) return a;
    return uint32_t(x / y);
}
inline uint32_t irem(uint32_t a, uint32_t b) {
    const int32_t x = int32_t(a), y = int32_t(b);
    if (y == 0) return a;
    if (x == std::numeric_limits<int32_t>::min() && y == -1) return 0;
    return uint32_t(x % y);
}
inline uint32_t udiv(uint32_t a, uint32_t b) { return b == 0 ? 0xffffffffu : a / b; }
inline uint32_t urem(uint32_t a, uint32_t b) { return b == 0 ? a : a % b; }

// ---- conversions: truncate toward zero, saturate, NaN gives 0
inline uint32_t f2i(float x) {
    if (std::isnan(x)) return 0;
    if (x >= 2147483648.0f) return 0x7fffffffu;
    if (x <= -2147483648.0f) return 0x80000000u;
    return uint32_t(int32_t(x));
}
inline uint32_t f2u(float x) {
    if (std::isnan(x) || x <= 0.0f) return 0;
    if (x >= 4294967296.0f) return 0xffffffffu;
    return uint32_t(x);
}

inline uint32_t smin(uint32_t a, uint32_t b) { return int32_t(a) < int32_t(b) ? a : b; }
inline uint32_t smax(uint32_t a, uint32_t b) { return int32_t(a) > int32_t(b) ? a : b; }

// d = f(a, b, c) for the Kind::Value opcode O (0 for any other opcode).
template <Op O>
inline uint32_t lane_value(uint32_t a, uint32_t b, uint32_t c) {
    if constexpr (O == Op::Mov) return a;
    else if constexpr (O == Op::Iadd) return a + b;
    else if constexpr (O == Op::Isub) return a - b;
    else if constexpr (O == Op::Shl) return a << (b & 31);
    else if constexpr (O == Op::Shr) return a >> (b & 31);
    else if constexpr (O == Op::Sar) return uint32_t(int32_t(a) >> (b & 31));
    else if constexpr (O == Op::And) return a & b;
    else if constexpr (O == Op::Or) return a | b;
    else if constexpr (O == Op::Xor) return a ^ b;
    else if constexpr (O == Op::Not) return ~a;
    else if constexpr (O == Op::Imin) return smin(a, b);
    else if constexpr (O == Op::Imax) return smax(a, b);
    else if constexpr (O == Op::Umin) return a < b ? a : b;
    else if constexpr (O == Op::Umax) return a > b ? a : b;
    else if constexpr (O == Op::Idiv) return idiv(a, b);
    else if constexpr (O == Op::Irem) return irem(a, b);
    else if constexpr (O == Op::Udiv) return udiv(a, b);
    else if constexpr (O == Op::Urem) return urem(a, b);
    else if constexpr (O == Op::Fadd) return bits(canonical(f32(a) + f32(b)));
    else if constexpr (O == Op::Fsub) return bits(canonical(f32(a) - f32(b)));
    else if constexpr (O == Op::Fmul) return bits(canonical(f32(a) * f32(b)));
    else if constexpr (O == Op::Ffma) return bits(ffma(f32(a), f32(b), f32(c)));
    else if constexpr (O == Op::Fmin) return bits(fmin(f32(a), f32(b)));
    else if constexpr (O == Op::Fmax) return bits(fmax(f32(a), f32(b)));
    else if constexpr (O == Op::Fabs) return a & 0x7fffffffu;
    else if constexpr (O == Op::Fneg) return a ^ 0x80000000u;
    else if constexpr (O == Op::Imul) return a * b;
    else if constexpr (O == Op::Imad) return a * b + c;
    else if constexpr (O == Op::Sin) return bits(sin(f32(a)));
    else if constexpr (O == Op::Cos) return bits(cos(f32(a)));
    else if constexpr (O == Op::Ex2) return bits(ex2(f32(a)));
    else if constexpr (O == Op::Lg2) return bits(lg2(f32(a)));
    else if constexpr (O == Op::Rsqrt) return bits(1.0f / std::sqrt(f32(a)));
    else if constexpr (O == Op::Rcp) return bits(1.0f / f32(a));
    else if constexpr (O == Op::Sqrt) return bits(std::sqrt(f32(a)));
    else if constexpr (O == Op::I2f) return bits(float(int32_t(a)));
    else if constexpr (O == Op::U2f) return bits(float(a));
    else if constexpr (O == Op::F2i) return f2i(f32(a));
    else if constexpr (O == Op::F2u) return f2u(f32(a));
    else return 0;
}

// d = f(a, b, c) for every Kind::Value opcode.
inline uint32_t value(Op op, uint32_t a, uint32_t b, uint32_t c) {
    switch (op) {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc) \
    case Op::e: return lane_value<Op::e>(a, b, c);
#include "isa/opcodes.def"
#undef OP
    }
    return 0;
}

template <typename T>
bool compare_as(isa::Cmp cmp, T a, T b) {
    switch (cmp) {
    case isa::Cmp::Lt: return a < b;
    case isa::Cmp::Le: return a <= b;
    case isa::Cmp::Gt: return a > b;
    case isa::Cmp::Ge: return a >= b;
    case isa::Cmp::Eq: return a == b;
    case isa::Cmp::Ne: return a != b;   // true when either float is NaN
    default: return false;
    }
}

// p = a CMP b for isetp (signed), usetp (unsigned) and fsetp (ordered fp32).
inline bool compare(Op op, isa::Cmp cmp, uint32_t a, uint32_t b) {
    if (op == Op::Isetp) return compare_as(cmp, int32_t(a), int32_t(b));
    if (op == Op::Usetp) return compare_as(cmp, a, b);
    return compare_as(cmp, f32(a), f32(b));
}

// Predicate logic on lane masks (also works on single bits).
inline uint32_t pred_logic(Op op, uint32_t q1, uint32_t q2) {
    switch (op) {
    case Op::Pand: return q1 & q2;
    case Op::Por: return q1 | q2;
    case Op::Pxor: return q1 ^ q2;
    default: return ~q1;   // Pnot
    }
}

// fp64: dadd, dmul, dfma on register-pair bit patterns.
inline uint64_t fp64(Op op, uint64_t a, uint64_t b, uint64_t c) {
    switch (op) {
    case Op::Dadd: return bits(f64(a) + f64(b));
    case Op::Dmul: return bits(f64(a) * f64(b));
    case Op::Dfma: return bits(std::fma(f64(a), f64(b), f64(c)));
    default: return 0;
    }
}
inline uint64_t f2d(uint32_t a) { return bits(double(f32(a))); }
inline uint32_t d2f(uint64_t a) { return bits(float(f64(a))); }

// The lane a shuffle in `lane` reads (operand b), or -1 outside the warp. The
// caller substitutes the reader's own value when the source is -1 or does not
// execute the shuffle.
inline int shuffle_source(Op op, uint32_t lane, uint32_t b) {
    uint64_t src = 0;
    switch (op) {
    case Op::ShflUp: if (b > lane) return -1; src = lane - b; break;
    case Op::ShflDown: src = uint64_t(lane) + b; break;
    case Op::ShflXor: src = lane ^ b; break;
    default: src = b & 31; break;   // ShflIdx
    }
    return src < isa::kWarpSize ? int(src) : -1;
}

// Vote result for one executing lane, given the masks of executing lanes and
// of lanes where q holds. Ballot returns the mask; any/all return 0 or 1.
inline uint32_t vote(Op op, uint32_t exec, uint32_t q) {
    switch (op) {
    case Op::VoteAny: return (q & exec) != 0;
    case Op::VoteAll: return (q & exec) == exec;
    default: return q & exec;   // VoteBallot
    }
}

// Atomic read-modify-write: the new word from the old one and operand b.
inline uint32_t atomic(Op /*op*/, uint32_t old, uint32_t b) { return old + b; }

// Texel coordinate along one axis: floor(t * n) wrapped into [0, n); a NaN or
// infinite coordinate gives texel 0.
inline uint64_t texel_coord(uint32_t t_bits, uint32_t n) {
    const double s = std::floor(double(f32(t_bits)) * n);
    if (!std::isfinite(s) || n == 0) return 0;
    double m = std::fmod(s, double(n));
    if (m < 0) m += n;
    return uint64_t(m);
}
// Byte offset of the texel at (u, v) in a width x height buffer of 4-byte texels.
inline uint64_t texel_offset(uint32_t width, uint32_t height, uint32_t u, uint32_t v) {
    return (texel_coord(v, height) * width + texel_coord(u, width)) * 4;
}

// Registers a thread needs: at least .regs, and every register the code names
// (pairs and quads included), so no operand can index past the register file.
inline uint32_t registers_needed(const isa::Program& p) {
    uint32_t need = p.regs_per_thread > 0 ? p.regs_per_thread : 1;
    for (const isa::Instruction& in : p.code) {
        const std::string_view sig = isa::info(in.op).signature;
        for (uint32_t i = 0; i < in.nops; ++i) {
            const isa::Operand& o = in.ops[i];
            const char kind = 2 * i < sig.size() ? sig[2 * i] : 'R';
            const uint32_t width = (kind == 'D' || kind == 'E') ? 2 : (kind == 'W' || kind == 'X') ? 4 : 1;
            if (o.kind == isa::OperandKind::Reg && o.value + width > need) need = o.value + width;
            if (o.kind == isa::OperandKind::Mem && o.mem.index_reg >= 0 && uint32_t(o.mem.index_reg) + 1 > need)
                need = uint32_t(o.mem.index_reg) + 1;
        }
    }
    return need;
}

// ---- memory access checks, shared by both interpreters

// Byte address of a memory operand before the space's base is added:
// index * scale + offset, with the index register read as signed.
inline int64_t mem_offset(const isa::MemRef& m, uint32_t index_value) {
    const int64_t idx = m.index_reg >= 0 ? int64_t(int32_t(index_value)) : 0;
    return idx * m.scale + m.offset;
}

inline std::string hex(int64_t v) {
    char buf[32];
    if (v < 0) std::snprintf(buf, sizeof buf, "-0x%llx", static_cast<unsigned long long>(-v));
    else std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// What the faulting access touched, for the message.
struct Region {
    std::string what;   // "buffer 'out'", ".shared", ".local"
    int64_t base = 0;   // first valid address
    uint64_t bytes = 0; // size
};

// Throws the out-of-bounds or misaligned fault of one lane, located at the
// instruction. `addr` is the full address (global) or the offset (shared, local).
[[noreturn]] inline void access_fault(const isa::Instruction& in, uint32_t lane, int64_t addr,
                                      uint32_t bytes, const Region& r) {
    const std::string mnem(isa::info(in.op).mnemonic);
    const bool inside = addr >= r.base && uint64_t(addr - r.base) + bytes <= r.bytes;
    std::string size = std::to_string(r.bytes) + " bytes";
    if (r.base != 0) size += " at " + hex(r.base);
    if (inside) {
        throw Error(in.loc, "misaligned " + mnem + ": lane " + std::to_string(lane) + " address " +
                                hex(addr) + " is not " + std::to_string(bytes) + "-byte aligned (" +
                                r.what + ", " + size + ")");
    }
    throw Error(in.loc, "out-of-bounds " + mnem + ": lane " + std::to_string(lane) + " address " +
                            hex(addr) + " (" + std::to_string(bytes) + " bytes) is outside " + r.what +
                            " (" + size + ")");
}

// True when [addr, addr + bytes) lies inside the region and addr is aligned to
// min(bytes, 16) (the region bases are aligned).
inline bool access_ok(int64_t addr, uint32_t bytes, int64_t base, uint64_t size) {
    if (addr < base || uint64_t(addr - base) + bytes > size) return false;
    return (uint64_t(addr) & (bytes - 1)) == 0;
}

}  // namespace simt::func::sem
