// reader.cpp: parsing cuobjdump -sass listings (see reader.hpp).
#include "isa/sass/reader.hpp"

#include <cstdlib>
#include <sstream>

namespace simt::isa::sass {
namespace {

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return "";
    const size_t b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
}

// The hex value of the first "/* 0x... */" comment of a line, if any.
bool comment_word(const std::string& line, size_t from, uint64_t& word) {
    const size_t c = line.find("/* 0x", from);
    if (c == std::string::npos) return false;
    try {
        word = std::stoull(line.substr(c + 5, 16), nullptr, 16);
    } catch (const std::logic_error&) {
        return false;
    }
    return true;
}

// "  /*0040*/   @!P0 IMAD R7, R7, UR4, R0 ;  /* 0x... */": one instruction.
Inst parse_instruction(const std::string& line, size_t slash, const std::string& file, uint32_t lineno) {
    Inst in;
    const size_t close = line.find("*/", slash);
    const std::string addr = close == std::string::npos ? "" : line.substr(slash + 2, close - slash - 2);
    if (addr.empty() || addr.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        throw Error(SourceLoc{file, lineno, uint32_t(slash + 1)}, "malformed SASS line: expected /*ADDR*/ OPCODE operands ;");
    in.addr = uint32_t(std::stoul(addr, nullptr, 16));
    const size_t body_end = line.find("/*", close + 2);
    const std::string raw = line.substr(close + 2, body_end == std::string::npos ? std::string::npos : body_end - close - 2);
    size_t pos = close + 2;
    auto skip_ws = [&] { while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos; };
    skip_ws();
    if (line[pos] == '@') {
        const size_t e = line.find_first_of(" \t", pos);
        if (e == std::string::npos) throw Error(SourceLoc{file, lineno, uint32_t(pos + 1)}, "malformed SASS line: a guard and no instruction");
        in.guard = line.substr(pos + 1, e - pos - 1);
        pos = e;
        skip_ws();
    }
    const size_t op_end = line.find_first_of(" \t;", pos);
    in.opcode = line.substr(pos, op_end - pos);
    in.loc = {file, lineno, uint32_t(pos + 1)};
    pos = op_end;
    const size_t semi = line.find(';', pos);
    if (semi == std::string::npos || (body_end != std::string::npos && semi > body_end))
        throw Error(in.loc, "malformed SASS line: expected 'OPCODE operands ;'");
    size_t start = pos;
    for (size_t i = pos; i <= semi; ++i) {
        if (i == semi || line[i] == ',') {
            const std::string o = trim(line.substr(start, i - start));
            if (!o.empty()) {
                in.operands.push_back(o);
                in.operand_cols.push_back(uint32_t(line.find(o, start) + 1));
            }
            start = i + 1;
        }
    }
    in.text = trim(raw);
    if (!in.text.empty() && in.text.back() == ';') in.text = trim(in.text.substr(0, in.text.size() - 1));
    return in;
}

}  // namespace

Control Control::from_word1(uint64_t w) { return unpack(uint32_t((w >> 41) & 0x1fffff)); }

uint32_t Control::pack() const {
    return uint32_t(stall) | uint32_t(yield) << 4 | uint32_t(write_bar) << 5 | uint32_t(read_bar) << 8 |
           uint32_t(wait) << 11 | uint32_t(reuse) << 17;
}

Control Control::unpack(uint32_t b) {
    Control c;
    c.stall = uint8_t(b & 0xf);
    c.yield = (b >> 4) & 1;
    c.write_bar = uint8_t((b >> 5) & 7);
    c.read_bar = uint8_t((b >> 8) & 7);
    c.wait = uint8_t((b >> 11) & 0x3f);
    c.reuse = uint8_t((b >> 17) & 0xf);
    return c;
}

Kernel read_kernel(const std::string& text, const std::string& file, const std::string& name, const SourceLoc& asked_at) {
    std::istringstream in(text);
    std::string line, arch, seen;
    uint32_t lineno = 0;
    Kernel k;
    bool inside = false, found = false;
    while (std::getline(in, line)) {
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::string t = trim(line);
        if (t.rfind("code for ", 0) == 0) arch = trim(t.substr(9));
        if (t.rfind("Function : ", 0) == 0) {
            const std::string fn = trim(t.substr(11));
            inside = fn == name;
            if (inside) found = true, k.name = fn, k.arch = arch;
            seen += (seen.empty() ? "" : ", ") + fn;
            continue;
        }
        if (!inside) continue;
        if (t.rfind("......", 0) == 0) { inside = false; continue; }
        const size_t slash = line.find("/*");
        if (slash == std::string::npos || t.rfind("/*", 0) != 0) continue;
        if (line.compare(slash, 4, "/* 0") == 0) {   // the second word of the previous instruction
            uint64_t w1 = 0;
            if (!k.code.empty() && comment_word(line, slash, w1)) k.code.back().control = Control::from_word1(w1);
            continue;
        }
        try {
            k.code.push_back(parse_instruction(line, slash, file, lineno));
        } catch (const std::logic_error&) {   // a number that is not one (std::stoul)
            throw Error(SourceLoc{file, lineno, uint32_t(slash + 1)}, "malformed SASS line: expected /*ADDR*/ OPCODE operands ;");
        }
    }
    if (!found)
        throw Error(asked_at, "no kernel '" + name + "' in " + file + (seen.empty() ? " (no 'Function :' listing: is it cuobjdump -sass output?)" : "; it has: " + seen));
    if (k.code.empty()) throw Error(asked_at, "kernel '" + name + "' in " + file + " has no instructions");
    return k;
}

std::map<uint32_t, std::string> read_line_info(const std::string& text, const std::string& kernel) {
    std::map<uint32_t, std::string> out;
    std::istringstream in(text);
    std::string line, current;
    bool inside = false;
    while (std::getline(in, line)) {
        const std::string t = trim(line);
        if (t.rfind(".section", 0) == 0) {
            inside = t.find(".text." + kernel + ",") != std::string::npos;
            current.clear();
            continue;
        }
        if (!inside) continue;
        if (t.rfind("//## File \"", 0) == 0) {
            const size_t q = t.find('"', 11);
            const size_t l = t.find("line ", q);
            if (q == std::string::npos || l == std::string::npos) continue;
            const std::string file = t.substr(11, q - 11);
            current = file + ":" + std::to_string(std::strtoul(t.c_str() + l + 5, nullptr, 10));   // strtoul: no throw
            continue;
        }
        if (t.rfind("/*", 0) == 0 && !current.empty() && t.size() > 2 && t[2] != ' ') {
            const size_t close = t.find("*/");
            if (close == std::string::npos) continue;
            out[uint32_t(std::strtoul(t.c_str() + 2, nullptr, 16))] = current;
        }
    }
    return out;
}

}  // namespace simt::isa::sass
