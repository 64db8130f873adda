// isa.cpp: the opcode table built from opcodes.def, Program helpers, and the disassembler.
#include "isa/isa.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace simt::isa {

const std::vector<OpInfo>& op_table() {
    static const std::vector<OpInfo> table = {
#define OP(e, m, pipe, lat, sig, space, acc, bytes, doc) \
    {Op::e, m, Pipe::pipe, Lat::lat, sig, Space::space, Access::acc, bytes, doc},
#include "opcodes.def"
#undef OP
    };
    return table;
}

std::string_view pipe_name(Pipe p) {
    switch (p) {
        case Pipe::Fma: return "fma";
        case Pipe::Alu: return "alu";
        case Pipe::Sfu: return "sfu";
        case Pipe::Fp64: return "fp64";
        case Pipe::Lsu: return "lsu";
        case Pipe::Tex: return "tex";
        case Pipe::Branch: return "branch";
        case Pipe::Imad: return "imad";
        case Pipe::Iadd: return "iadd";
        case Pipe::Uniform: return "uniform";
    }
    return "?";
}

uint32_t Program::threads_per_block() const {
    if (launch.mode == LaunchDecl::Mode::Fragment) return kWarpSize;
    return static_cast<uint32_t>(launch.block.count());
}

uint32_t Program::warps_per_block() const {
    return (threads_per_block() + kWarpSize - 1) / kWarpSize;
}

uint64_t Program::num_blocks() const {
    if (launch.mode == LaunchDecl::Mode::Fragment) {
        uint64_t tx = (launch.width + launch.tile_w - 1) / launch.tile_w;
        uint64_t ty = (launch.height + launch.tile_h - 1) / launch.tile_h;
        return tx * ty;
    }
    return launch.grid.count();
}

namespace {

const char* cmp_name(Cmp c) {
    switch (c) {
        case Cmp::Lt: return "lt";
        case Cmp::Le: return "le";
        case Cmp::Gt: return "gt";
        case Cmp::Ge: return "ge";
        case Cmp::Eq: return "eq";
        case Cmp::Ne: return "ne";
        case Cmp::None: break;
    }
    return "";
}

const char* special_name(Special s) {
    static const char* names[] = {"%laneid", "%warpid",  "%tid.x",    "%tid.y",    "%tid.z",   "%ctaid.x",
                                  "%ctaid.y", "%ctaid.z", "%ntid.x",   "%ntid.y",   "%ntid.z",  "%nctaid.x",
                                  "%nctaid.y", "%nctaid.z", "%pixel.x", "%pixel.y", "%clock",   "%clock64", "%smid"};
    return names[static_cast<int>(s)];
}

void print_plain(std::ostream& os, const Program& p, const Operand& o);

void print_operand(std::ostream& os, const Program& p, const Operand& o) {
    if (o.fneg) os << '-';
    if (o.fabs) os << '|';
    print_plain(os, p, o);
    if (o.fabs) os << '|';
}

void print_plain(std::ostream& os, const Program& p, const Operand& o) {
    switch (o.kind) {
        case OperandKind::Reg: os << 'r' << o.value; break;
        case OperandKind::UReg: os << "ur" << o.value; break;
        case OperandKind::Pred:
            if (o.negate) os << '!';
            if (o.value == kPredTrue) os << "pt"; else os << 'p' << o.value;
            break;
        case OperandKind::Imm:
            if (o.wide) {
                double d;
                const uint64_t b = uint64_t(o.hi) << 32 | o.value;
                std::memcpy(&d, &b, 8);
                char buf[40];
                auto r = std::to_chars(buf, buf + sizeof buf, d);
                std::string_view txt(buf, r.ptr - buf);
                os << txt;
                if (txt.find_first_of(".en") == std::string_view::npos) os << ".0";
            } else if (o.fp) {
                float f;
                std::memcpy(&f, &o.value, 4);
                char buf[32];
                auto r = std::to_chars(buf, buf + sizeof buf, f);
                std::string_view txt(buf, r.ptr - buf);
                os << txt;
                if (txt.find_first_of(".en") == std::string_view::npos) os << ".0";
            } else {
                os << static_cast<int32_t>(o.value);
            }
            break;
        case OperandKind::Special: os << special_name(static_cast<Special>(o.value)); break;
        case OperandKind::Uniform: os << '$' << p.uniforms[o.value].name; break;
        case OperandKind::Label: {
            const char* name = nullptr;
            for (const auto& [n, pc] : p.labels)
                if (pc == o.value) { name = n.c_str(); break; }
            if (name) os << name; else os << o.value;
            break;
        }
        case OperandKind::Buffer: os << p.buffers[o.value].name; break;
        case OperandKind::Mem: {
            os << '[';
            bool first = true;
            if (o.mem.buffer >= 0) { os << p.buffers[o.mem.buffer].name; first = false; }
            if (o.mem.index_reg >= 0) {
                os << (first ? "" : " + ") << 'r' << o.mem.index_reg << (o.mem.flat ? ".64" : "");
                if (o.mem.scale != 1) os << '*' << int(o.mem.scale);
                first = false;
            }
            if (o.mem.offset != 0 || first) {
                if (first) os << o.mem.offset;
                else os << (o.mem.offset < 0 ? " - " : " + ") << std::abs(o.mem.offset);
            }
            os << ']';
            break;
        }
        case OperandKind::None: break;
    }
}

}  // namespace

std::string disassemble(const Program& p, uint32_t pc) {
    const Instruction& in = p.code.at(pc);
    std::ostringstream os;
    if (in.guard >= 0) {
        os << '@' << (in.guard_negate ? "!" : "");
        if (in.guard == int(kPredTrue)) os << "pt"; else os << 'p' << int(in.guard);
        os << ' ';
    }
    os << info(in.op).mnemonic;
    if (in.cmp != Cmp::None) os << '.' << cmp_name(in.cmp);
    const std::string_view sig = info(in.op).signature;
    for (uint8_t i = 0; i < in.nops; ++i) {
        os << (i == 0 ? " " : ", ");
        if (2u * i < sig.size() && sig[2 * i] == 'K') {   // a truth table reads best in hex, as SASS prints it
            char buf[8];
            std::snprintf(buf, sizeof buf, "0x%02x", in.ops[i].value);
            os << buf;
            continue;
        }
        print_operand(os, p, in.ops[i]);
    }
    return os.str();
}

std::vector<uint64_t> buffer_bases(const std::vector<BufferDecl>& buffers) {
    std::vector<uint64_t> bases;
    uint64_t next = kGlobalBase;
    for (const BufferDecl& b : buffers) {
        bases.push_back(next);
        next += std::max<uint64_t>((b.bytes() + 255) / 256 * 256, 256);
    }
    return bases;
}

}  // namespace simt::isa
