// executor.hpp: functional (untimed) SIMT execution of one warp instruction at a time.
//
// Contract (what the timing model and the functional runner rely on):
//   * Executor::make_block(i) builds block i of the launch: its shared memory,
//     local memory and warps, each warp with its launched lanes active at pc 0.
//   * Executor::step(block, warp, out) executes the warp's next instruction
//     (warp.next_pc()) for the lanes of the top SIMT-stack entry, updates
//     registers, memory and the SIMT stack, and describes what happened in
//     `out`. It never blocks: a `bar` marks warp.at_barrier and moves past the
//     barrier; the caller holds the warp until Block::barrier_ready() and then
//     calls Block::release_barrier().
//   * Reconvergence happens at the immediate post-dominator of each divergent
//     branch (see cfg.hpp), with one SIMT stack per warp.
//   * Runtime faults (out-of-bounds address, misaligned access, barrier in
//     divergent code, the instruction budget exhausted) throw simt::Error
//     located at the instruction's source line, naming lane and address.
//   * SIMT stack rules: a divergent bra (or guarded ret) leaves the top entry
//     waiting at the reconvergence pc and pushes the not-taken side, then the
//     taken side (which runs first; Warp::switch_path lets the timing model
//     alternate the two sides); `call` pushes the callee with rpc = its
//     virtual exit (Reconvergence::exit_pc); `ret` sends the executing lanes
//     to that exit; `exit` removes lanes from `live` and from every entry.
//     After each step, empty entries and entries whose pc reached their rpc
//     are popped, and lanes at the kernel's exit (pc == code.size()) finish.
//   * A guarded `bar` whose guard fails in some live lane is divergent too.
//   * step(..., env): `env` is the moment of the step as the caller knows it
//     (StepEnv: the timing model's cycle and SM); %clock, %clock64 and %smid
//     read it. Without one, %clock reads the warp's own instruction count.
//   * Uniform registers (ur0..) are one value per warp; a uniform instruction
//     writes its register when any lane executes it.
//   * nanosleep changes nothing; DynInst::sleep_ns tells the caller how long.
//   * With StepEnv::defer, the data part of every access to global memory
//     (global, flat, const, uldc and tex; not shared or local) is not done in
//     step(): its addresses are checked and reported as usual, and a
//     DeferredAccess is appended for Executor::apply() to do later (the timing
//     model's parallel run applies them in the serial order at each cycle's end).
//   * Block i of a launch: see fragment.hpp for which thread or pixel each
//     lane holds; lanes without one are not launched.
//
// The executor knows nothing of time. It may touch: the Program (read only),
// GlobalMemory, and the Block/Warp it is given.
#pragma once

#include "isa/isa.hpp"
#include "sim/functional/cfg.hpp"
#include "sim/functional/memory.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace simt::func {

namespace sem { struct Region; }

using LaneMask = uint32_t;

struct SimtEntry {
    uint32_t pc;    // next instruction of this entry
    uint32_t rpc;   // reconvergence pc: pop when pc reaches it (kNoRpc for the bottom entry)
    LaneMask mask;  // lanes executing this entry
    uint8_t side = 0;  // a divergent branch's sides: 1 pushed first, 2 on top of it (0: neither)
};
constexpr uint32_t kNoRpc = 0xffffffffu;

struct Warp {
    uint64_t block = 0;            // linear block index in the launch
    uint32_t warp_in_block = 0;
    uint64_t global_id = 0;        // block * warps_per_block + warp_in_block
    LaneMask launched = 0;         // lanes that hold a thread/pixel at all
    LaneMask live = 0;             // launched lanes that have not exited
    std::vector<SimtEntry> stack;  // back() is the top
    std::vector<uint32_t> regs;    // structure of arrays: regs[r * 32 + lane]
    std::array<LaneMask, isa::kNumPreds> preds{};  // predicate p as a lane mask
    std::array<uint32_t, isa::kNumURegs> uregs{};  // the uniform registers: one value per warp
    std::array<uint32_t, 32> tid_x{}, tid_y{}, tid_z{};
    std::array<uint32_t, 32> pixel_x{}, pixel_y{};
    bool at_barrier = false;
    uint64_t issued = 0;           // warp instructions it executed (what %clock reads in a functional run)
    bool done() const { return live == 0 || stack.empty(); }
    uint32_t next_pc() const { return stack.back().pc; }
    LaneMask active() const { return stack.back().mask; }
    uint32_t& reg(uint32_t r, uint32_t lane) { return regs[r * 32 + lane]; }
    // Independent thread scheduling (Volta and later): when the two top entries are the two
    // sides of one divergent branch (pushed together, both with lanes), the other side runs
    // next (their pc and lanes trade places). Returns false, changing nothing, otherwise. The
    // sides hold disjoint lanes, so their registers never meet; only memory shared between them
    // sees the new order.
    bool switch_path();
};

struct Block {
    uint64_t index = 0;
    isa::Dim3 ctaid;
    std::vector<uint8_t> shared;   // Program::shared_bytes
    std::vector<uint8_t> local;    // threads * Program::local_bytes, from the block's first local access
    std::vector<Warp> warps;

    // True when every warp that is not done waits at the barrier.
    bool barrier_ready() const;
    void release_barrier();
    bool done() const;
};

// Everything the timing model needs to know about one executed warp instruction.
struct DynInst {
    uint32_t pc = 0;
    LaneMask active = 0;     // lanes of the SIMT-stack top when it issued
    LaneMask exec = 0;       // active lanes whose guard predicate held
    // Memory and texture instructions: one byte address per exec lane (0 in
    // the other lanes; not written at all for other instructions).
    // Global/const/tex: flat global address. Shared: offset in the block's
    // shared memory. Local: the address in the interleaved local window
    //   kLocalBase + ((global_id * ceil(local_bytes / 4) + off / 4) * 32 + lane) * 4 + off % 4
    // (consecutive lanes at the same offset are consecutive words, as on
    // NVIDIA; for a v4 access this is its first word, the next ones follow
    // 128 bytes apart). Vector (v4) accesses cover addr .. addr + 15.
    std::array<uint64_t, 32> addr{};
    bool diverged = false;   // a branch split the active lanes
    bool barrier = false;    // the warp reached `bar`
    bool warp_exited = false;// no live lanes remain
    uint32_t sleep_ns = 0;   // nanosleep: the largest duration of its exec lanes (0 otherwise)
};

// The moment of one step, as the caller knows it: the timing model gives the
// SM's cycle at issue and the SM's index (what %clock, %clock64 and %smid
// read); a functional run gives none, and %clock reads the warp's count of
// instructions executed before this one, %smid 0.
struct DeferredAccess;
struct StepEnv {
    bool timed = false;
    uint64_t clock = 0;
    uint32_t smid = 0;
    std::vector<DeferredAccess>* defer = nullptr;  // not null: global-memory data is moved by apply()
};

// The data part of one instruction's global-memory access, left for
// Executor::apply(): the lanes' bytes (`at`, already bounds-checked) and the
// moment of the step (what %clock and %smid read in a store's value operand).
struct DeferredAccess {
    Block* block = nullptr;
    Warp* warp = nullptr;
    uint32_t pc = 0;
    LaneMask exec = 0;
    uint64_t clock = 0;
    uint32_t smid = 0;
    std::array<uint8_t*, 32> at{};
};

struct ExecLimits {
    uint64_t max_warp_instructions = 2'000'000'000ull;  // the budget that ends infinite loops
};

class Executor {
public:
    Executor(const isa::Program& program, GlobalMemory& memory, ExecLimits limits = {});

    std::unique_ptr<Block> make_block(uint64_t block_index) const;
    void step(Block& block, Warp& warp, DynInst& out, const StepEnv& env = {});
    // step(), inline (executor_step.hpp): for a caller that steps once per warp instruction.
    void step_inline(Block& block, Warp& warp, DynInst& out, const StepEnv& env);
    // Moves the data of an access step() deferred: loads and tex write their
    // registers, stores and atomics the memory (atomics their old values too).
    void apply(const DeferredAccess& a);
    // Steps without the budget check (the caller counts: Executor::budget_error).
    void unlimited() { limits_.max_warp_instructions = ~0ull; }
    // The error step() throws when the budget is exhausted at pc.
    Error budget_error(uint32_t pc) const;

    uint64_t warp_instructions() const { return executed_; }
    uint64_t budget() const { return limits_.max_warp_instructions; }
    const isa::Program& program() const { return program_; }
    const Reconvergence& reconvergence() const { return reconv_; }

    // Registers allocated per thread (at least .regs; more if the code uses more).
    uint32_t registers_per_thread() const { return num_regs_; }

private:
    using Lanes = std::array<uint32_t, isa::kWarpSize>;
    struct Window;

    // Where a value operand's 32 lanes come from, resolved once per pc.
    enum class SrcKind : uint8_t {
        Reg,        // index: r * 32, into Warp::regs
        Const,      // index: into consts_ (immediates, uniforms, launch-wide specials, absent operands)
        LaneId,     // %laneid
        WarpArray,  // index: which per-lane array of the Warp (isa::Special TidX.. or PixelX/Y)
        Fill,       // index: an isa::Special that is one value per warp or block (%warpid, %ctaid.*, %clock)
        RegMod,     // index: r * 32, read through the fp32 source modifiers (bits & ~clear) ^ flip
        UReg,       // index: the uniform register (one value, every lane), with the modifiers of RegMod
    };
    struct Src {
        SrcKind kind = SrcKind::Const;
        uint32_t index = 0;
        uint32_t clear = 0, flip = 0;   // RegMod, UReg
    };
    // One instruction, decoded at construction: step() reads only this (and
    // the isa::Instruction for memory, texture and fp64 work and for errors).
    struct Decoded {
        uint8_t kind = 0;          // sem::Kind
        isa::Op op = isa::Op::Nop;
        isa::Cmp cmp = isa::Cmp::None;
        uint8_t guard = isa::kPredTrue;  // predicate guarding it (kPredTrue: none)
        LaneMask guard_xor = 0;          // ~0 for @!p
        uint32_t dst = 0;          // destination register * 32, or predicate index
        uint32_t k = 0;            // the K or S immediate (lop3's table, lea's shift)
        Src src[3];                // value operands a, b, c
        uint8_t q[2] = {isa::kPredTrue, isa::kPredTrue};  // predicate sources (sel, p-logic, vote)
        LaneMask q_xor[2] = {0, 0};
        uint32_t target = 0;       // bra/call: target pc; ret: the function's exit pc
        uint32_t rpc = 0;          // bra/ret: reconvergence pc; call: the callee's exit pc
    };

    void decode();
    Src decode_src(const isa::Instruction& in, uint32_t i);
    void settle(Warp& w) const;
    void exit_lanes(Warp& w, LaneMask lanes) const;
    void branch(Warp& w, const Decoded& d, uint32_t pc, LaneMask exec, DynInst& out) const;
    const uint32_t* lanes(const Block& b, const Warp& w, const Src& s, Lanes& tmp) const;
    const uint32_t* special_lanes(const Block& b, const Warp& w, const Src& s, Lanes& tmp) const;
    const uint32_t* lanes(const Block& b, const Warp& w, const isa::Operand& o, Lanes& tmp) const;
    void execute_lanes(Block& b, Warp& w, const Decoded& d, uint32_t pc, LaneMask exec, DynInst& out);
    void value_lanes(Block& b, Warp& w, const Decoded& d, LaneMask exec);
    void fp64_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec);
    void wide_lanes(Block& b, Warp& w, const Decoded& d, const isa::Instruction& in, LaneMask exec);
    void uniform_op(Block& b, Warp& w, const Decoded& d, const isa::Instruction& in, LaneMask exec, DynInst& out);
    void atomic_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, const std::array<uint8_t*, 32>& at);
    void atomic_lanes64(Warp& w, const isa::Instruction& in, LaneMask exec, const std::array<uint8_t*, 32>& at);
    void flat_memory_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, DynInst& out);
    void lane_data(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, const std::array<uint8_t*, 32>& at);
    uint64_t fp64_source(const Warp& w, const isa::Operand& o, uint32_t lane) const;
    void memory_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, DynInst& out);
    void window_lanes(const Warp& w, const isa::Instruction& in, const isa::MemRef& m, const Window& win,
                      LaneMask exec, std::array<uint8_t*, 32>& at, DynInst& out) const;
    void tex_lanes(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, DynInst& out);
    bool deferred(Block& b, Warp& w, const isa::Instruction& in, LaneMask exec, const std::array<uint8_t*, 32>& at);
    [[noreturn]] void budget_exhausted(uint32_t pc) const;
    void check_launch_fits_budget() const;
    [[noreturn]] void call_too_deep(const Warp& w, uint32_t pc) const;
    [[noreturn]] void divergent_barrier(const Warp& w, uint32_t pc, LaneMask exec) const;
    Window window(Block& b, isa::Space space, int buffer);
    sem::Region region(isa::Space space, int buffer) const;

    const isa::Program& program_;
    GlobalMemory& memory_;
    ExecLimits limits_;
    Reconvergence reconv_;
    uint32_t num_regs_ = 0;
    isa::Dim3 ntid_, nctaid_;
    uint64_t executed_ = 0;
    uint64_t clock_ = 0;             // what %clock reads during the current step
    uint32_t smid_ = 0;              // what %smid reads during the current step
    std::vector<DeferredAccess>* defer_ = nullptr;  // StepEnv::defer of the current step
    bool hw_fma_ = false;            // the CPU has AVX2 and FMA: ffma lanes by vfmadd (executor.cpp)
    std::vector<Decoded> decoded_;   // per pc
    std::vector<Lanes> consts_;      // broadcast operand values (Src::index)
};

// The number of lanes in a mask (a portable bit count: no popcnt instruction
// is assumed, and no libgcc call is made).
constexpr uint32_t lane_count(LaneMask m) {
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (m * 0x01010101u) >> 24;
}

}  // namespace simt::func
