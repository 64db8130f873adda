// cfg.cpp: functions, basic blocks and post-dominators (see cfg.hpp).
#include "sim/functional/cfg.hpp"

#include <algorithm>
#include <string>

namespace simt::func {
namespace {

using isa::Op;

bool unguarded(const isa::Instruction& in) {
    return in.guard < 0 || (in.guard == int8_t(isa::kPredTrue) && !in.guard_negate);
}

bool ends_block(Op op) { return op == Op::Bra || op == Op::Ret || op == Op::Exit; }

// Successors of one instruction: pcs, or `n` (= code size) for the exit.
int inst_successors(const isa::Program& p, uint32_t pc, uint32_t out[2]) {
    const uint32_t n = uint32_t(p.code.size());
    const isa::Instruction& in = p.code[pc];
    const uint32_t next = pc + 1;   // == n at the end of the code: the exit
    switch (in.op) {
    case Op::Bra:
        out[0] = in.ops[0].value < n ? in.ops[0].value : n;
        if (unguarded(in)) return 1;
        out[1] = next;
        return 2;
    case Op::Ret:
    case Op::Exit:
        out[0] = n;
        if (unguarded(in)) return 1;
        out[1] = next;
        return 2;
    default:
        out[0] = next;
        return 1;
    }
}

std::string function_name(const isa::Program& p, uint32_t entry, bool kernel) {
    if (kernel) return "the kernel body";
    for (const auto& [name, pc] : p.labels)
        if (pc == entry) return "function '" + name + "'";
    return "the function at pc " + std::to_string(entry);
}

// Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm", run on the
// reverse CFG (whose root is the exit) to get immediate post-dominators.
std::vector<uint32_t> post_dominators(std::vector<BasicBlock>& blocks) {
    const uint32_t exit = uint32_t(blocks.size());
    const uint32_t count = exit + 1;
    auto reverse_postorder = [&](std::vector<uint32_t>& order, std::vector<uint32_t>& number) {
        std::vector<std::vector<uint32_t>> preds(count);   // reverse-graph successors
        for (uint32_t b = 0; b < exit; ++b)
            for (uint32_t s : blocks[b].succ) preds[s].push_back(b);
        std::vector<uint8_t> seen(count, 0);
        std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
        seen[exit] = 1;
        order.clear();
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (next < preds[node].size()) {
                const uint32_t s = preds[node][next++];
                if (!seen[s]) { seen[s] = 1; stack.push_back({s, 0}); }
            } else {
                order.push_back(node);
                stack.pop_back();
            }
        }
        number.assign(count, UINT32_MAX);
        for (uint32_t i = 0; i < order.size(); ++i) number[order[i]] = i;   // postorder numbers
        std::reverse(order.begin(), order.end());
        return seen;
    };
    std::vector<uint32_t> order, number;
    std::vector<uint8_t> seen = reverse_postorder(order, number);
    bool added = false;
    for (uint32_t b = 0; b < exit; ++b)
        if (!seen[b]) { blocks[b].succ.push_back(exit); added = true; }   // cannot reach the exit
    if (added) reverse_postorder(order, number);

    std::vector<uint32_t> idom(count, UINT32_MAX);
    idom[exit] = exit;
    auto intersect = [&](uint32_t a, uint32_t b) {
        while (a != b) {
            while (number[a] < number[b]) a = idom[a];
            while (number[b] < number[a]) b = idom[b];
        }
        return a;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b : order) {
            if (b == exit) continue;
            uint32_t best = UINT32_MAX;
            for (uint32_t s : blocks[b].succ) {
                if (idom[s] == UINT32_MAX) continue;
                best = best == UINT32_MAX ? s : intersect(s, best);
            }
            if (best != idom[b]) { idom[b] = best; changed = true; }
        }
    }
    idom.pop_back();
    return idom;
}

}  // namespace

Reconvergence::Reconvergence(const isa::Program& p) {
    const uint32_t n = uint32_t(p.code.size());
    code_size = n;
    std::vector<uint32_t> entries{0};
    for (const auto& in : p.code)
        if (in.op == Op::Call && in.ops[0].value < n) entries.push_back(in.ops[0].value);
    std::sort(entries.begin() + 1, entries.end());
    entries.erase(std::unique(entries.begin() + 1, entries.end()), entries.end());
    if (entries.size() > 1 && entries[1] == 0) entries.erase(entries.begin() + 1);

    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> owner(n, kNone);
    function_of_pc.assign(n, 0);
    block_of_pc.assign(n, kNoReconv);
    rpc_of_pc.assign(n, kNoReconv);
    functions.resize(entries.size());
    entry_of.assign(n + 1, kNoReconv);
    for (uint32_t f = 0; f < entries.size(); ++f) entry_of[entries[f]] = f;

    for (uint32_t f = 0; f < entries.size(); ++f) {
        Function& fn = functions[f];
        fn.entry = entries[f];
        fn.exit_pc = n + f;
        if (fn.entry >= n) continue;   // empty program
        // Reachable code.
        std::vector<uint32_t> work{fn.entry};
        std::vector<uint32_t> pcs;
        while (!work.empty()) {
            const uint32_t pc = work.back();
            work.pop_back();
            if (pc >= n || owner[pc] == f) continue;
            if (owner[pc] != kNone) {
                throw Error(p.code[pc].loc,
                            "this instruction is reachable from both " +
                                function_name(p, entries[owner[pc]], owner[pc] == 0) + " and " +
                                function_name(p, fn.entry, f == 0) +
                                " (end a function with ret, the kernel with exit)");
            }
            owner[pc] = f;
            pcs.push_back(pc);
            uint32_t s[2];
            const int ns = inst_successors(p, pc, s);
            for (int i = 0; i < ns; ++i) work.push_back(s[i]);
        }
        std::sort(pcs.begin(), pcs.end());
        // Leaders and blocks.
        auto in_f = [&](uint32_t pc) { return pc < n && owner[pc] == f; };
        std::vector<uint8_t> leader(n + 1, 0);
        for (uint32_t pc : pcs) {
            const isa::Instruction& in = p.code[pc];
            if (pc == fn.entry || pc == 0 || !in_f(pc - 1) || ends_block(p.code[pc - 1].op)) leader[pc] = 1;
            if (in.op == Op::Bra && in.ops[0].value < n) leader[in.ops[0].value] = 1;
        }
        for (uint32_t pc : pcs) {
            if (leader[pc]) fn.blocks.push_back(BasicBlock{pc, pc, {}});
            else fn.blocks.back().last = pc;
            block_of_pc[pc] = uint32_t(fn.blocks.size() - 1);
        }
        for (BasicBlock& b : fn.blocks) {
            uint32_t s[2];
            const int ns = inst_successors(p, b.last, s);
            for (int i = 0; i < ns; ++i) {
                const uint32_t t = s[i] >= n ? fn.exit_block() : block_of_pc[s[i]];
                if (std::find(b.succ.begin(), b.succ.end(), t) == b.succ.end()) b.succ.push_back(t);
            }
        }
        fn.ipdom = post_dominators(fn.blocks);
        for (uint32_t b = 0; b < fn.blocks.size(); ++b)
            rpc_of_pc[fn.blocks[b].last] = fn.block_pc(fn.ipdom[b]);
    }
    // Owners; unreachable code belongs to the function whose entry precedes it.
    for (uint32_t pc = 0, f = 0; pc < n; ++pc) {
        while (f + 1 < entries.size() && entries[f + 1] <= pc) ++f;
        function_of_pc[pc] = owner[pc] != kNone ? owner[pc] : f;
    }
}

}  // namespace simt::func
