// cfg.hpp: control-flow graphs, post-dominators and reconvergence points.
//
// The program is split into functions: the kernel body (entry pc 0, function 0)
// and every `call` target (functions 1.., in increasing entry pc). A function
// is the code reachable from its entry; each function gets a CFG of basic
// blocks where `call` falls through, a guarded bra/ret/exit has two successors,
// `ret` goes to the function's virtual exit, and `exit` or running off the end
// of the code goes to the kernel's exit (inside a called function this is
// merged with the function's own exit: lanes that exit leave every SIMT-stack
// entry, so where they would have reconverged does not matter).
//
// Post-dominators are computed per function with the Cooper-Harvey-Kennedy
// algorithm on the reverse CFG. Blocks that cannot reach the exit (infinite
// loops) get an edge to the virtual exit, so they are post-dominated by it.
// A branch reconverges at the first pc of its block's immediate
// post-dominator, as in GPGPU-Sim; function f's virtual exit is the virtual pc
// code.size() + f, so the kernel's exit is code.size() itself.
//
// Code reachable from two functions (e.g. a kernel falling through into a
// function body) is rejected with a simt::Error. Left out: indirect branches.
#pragma once

#include "isa/isa.hpp"

#include <cstdint>
#include <vector>

namespace simt::func {

constexpr uint32_t kNoReconv = 0xffffffffu;

struct BasicBlock {
    uint32_t first = 0, last = 0;   // pcs, inclusive
    std::vector<uint32_t> succ;     // block indices; Function::exit_block() for the exit
};

struct Function {
    uint32_t entry = 0;             // first pc
    uint32_t exit_pc = 0;           // virtual pc of the exit (code.size() + index)
    std::vector<BasicBlock> blocks; // in increasing pc order; blocks[0] holds the entry
    std::vector<uint32_t> ipdom;    // per block: immediate post-dominator block (or exit_block())
    uint32_t exit_block() const { return uint32_t(blocks.size()); }
    // First pc of block b, or exit_pc for the exit.
    uint32_t block_pc(uint32_t b) const { return b < blocks.size() ? blocks[b].first : exit_pc; }
};

struct Reconvergence {
    Reconvergence() = default;
    explicit Reconvergence(const isa::Program& program);

    uint32_t code_size = 0;
    std::vector<Function> functions;      // [0] is the kernel body
    std::vector<uint32_t> function_of_pc; // per pc (unreachable code: the function before it)
    std::vector<uint32_t> block_of_pc;    // per pc: block index in its function, or kNoReconv
    std::vector<uint32_t> rpc_of_pc;      // per pc ending a block: its reconvergence pc
    std::vector<uint32_t> entry_of;       // per pc: the function entered there, or kNoReconv

    // The reconvergence pc of the branch (or guarded ret/exit) at pc: the
    // first pc of the immediate post-dominator of its block. kNoReconv for a
    // pc that does not end a reachable block.
    uint32_t reconvergence_pc(uint32_t pc) const { return rpc_of_pc[pc]; }
    uint32_t function_of(uint32_t pc) const { return function_of_pc[pc]; }
    // The function whose entry is `entry_pc` (a call target).
    uint32_t function_at(uint32_t entry_pc) const { return entry_of[entry_pc]; }
    uint32_t exit_pc(uint32_t function) const { return code_size + function; }
    uint32_t kernel_exit_pc() const { return code_size; }
    bool is_virtual_exit(uint32_t pc) const { return pc >= code_size; }
};

}  // namespace simt::func
