// elf_info.cpp: reading parameter offsets from cuobjdump -elf text (see elf_info.hpp).
#include "isa/sass/elf_info.hpp"

#include <map>
#include <sstream>

namespace simt::isa::sass {
namespace {

// The hex number after `key` in `line` ("Offset  : 0x14" -> 0x14); false if absent.
bool field(const std::string& line, const std::string& key, uint32_t& v) {
    size_t p = line.find(key);
    if (p == std::string::npos) return false;
    p = line.find("0x", p);
    if (p == std::string::npos) return false;
    v = uint32_t(std::stoul(line.substr(p + 2), nullptr, 16));
    return true;
}

// A section-table row "  3d  1f380   1400  0  4   NOBITS ... .nv.shared.KERNEL": the kernel's static
// shared memory (its size, the third column, in hex).
void shared_section(const std::string& line, const std::string& kernel, KernelInfo& out) {
    const std::string name = ".nv.shared." + kernel;
    if (line.size() < name.size() || line.compare(line.size() - name.size(), name.size(), name) != 0) return;
    if (line.find("NOBITS") == std::string::npos) return;
    std::istringstream row(line);
    std::string index, offset, size;
    if (row >> index >> offset >> size) out.shared_bytes = uint32_t(std::stoul(size, nullptr, 16));
}

std::vector<std::string> tokens(const std::string& line) {
    std::istringstream row(line);
    std::vector<std::string> t;
    for (std::string w; row >> w;) t.push_back(w);
    return t;
}
uint64_t hex_of(const std::string& w) { return std::stoull(w, nullptr, 16); }

// The module's __device__ objects and bank 4's relocations: the section table (index -> name), the
// symbol table (objects in .nv.global.init / .nv.global), .nv.global.init's words, and the rows of
// ".section .rela.nv.constant4".
void parse_globals(const std::string& text, KernelInfo& out) {
    std::istringstream in(text);
    std::string line, block;
    std::map<uint64_t, std::string> sections;
    std::vector<uint32_t> init;
    std::vector<std::pair<GlobalObject, uint64_t>> objects;   // object, offset in its section
    while (std::getline(in, line)) {
        const std::vector<std::string> t = tokens(line);
        if (t.empty()) { if (block != "sections" && block != "symtab") block.clear(); continue; }
        if (t[0] == "Sections:") { block = "sections"; continue; }
        if (t[0] == ".section") { block = t.size() > 1 && t[1] == ".symtab" ? "symtab" : t.size() > 1 && t[1] == ".rela.nv.constant4" ? "rela4" : ""; continue; }
        if (t[0] == ".nv.global.init" && t.size() == 1) { block = "init"; continue; }
        if (t[0][0] == '.') { block.clear(); continue; }
        if (block == "sections" && t.size() >= 9 && t[0] != "Index") sections[hex_of(t[0])] = t.back();
        else if (block == "symtab" && t.size() == 7 && t[0] != "index" && (hex_of(t[3]) & 0xf) == 1) {
            const auto sec = sections.find(hex_of(t[5]));
            if (sec != sections.end() && (sec->second == ".nv.global.init" || sec->second == ".nv.global"))
                objects.push_back({GlobalObject{t[6], uint32_t(hex_of(t[2])), {}}, sec->second == ".nv.global" ? ~0ull : hex_of(t[1])});
        } else if (block == "init") {
            for (const std::string& w : t) init.push_back(uint32_t(hex_of(w)));
        } else if (block == "rela4" && t.size() == 4 && t[2] == "R_CUDA_64") {
            out.bank4.push_back({uint32_t(hex_of(t[0])), t[1], hex_of(t[3])});
        }
    }
    for (auto& [g, off] : objects) {
        if (off != ~0ull)
            for (uint64_t w = off / 4; w < (off + g.bytes + 3) / 4; ++w) g.words.push_back(w < init.size() ? init[w] : 0);
        out.globals.push_back(std::move(g));
    }
}

}  // namespace

bool parse_elf_info(const std::string& text, const std::string& kernel, KernelInfo& out);

uint32_t standard_param_base(const std::string& arch) { return arch == "sm_90" || arch == "sm_90a" ? 0x210 : 0x160; }

bool read_elf_info(const std::string& text, const std::string& kernel, KernelInfo& out) {
    try {
        return parse_elf_info(text, kernel, out);
    } catch (const std::exception&) {   // a malformed number: the dump is not what cuobjdump writes
        out = KernelInfo{};
        return false;
    }
}

bool parse_elf_info(const std::string& text, const std::string& kernel, KernelInfo& out) {
    std::istringstream in(text);
    std::string line, section, attribute;
    std::map<uint32_t, ParamSlot> by_ordinal;
    bool any = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] == '.') { section = line.substr(0, line.find_first_of(" \t\r")); continue; }
        shared_section(line, kernel, out);
        if (line.find("Attribute:") != std::string::npos) {
            const size_t e = line.find("EIATTR");
            attribute = e == std::string::npos ? "" : line.substr(e);
            continue;
        }
        if (line.find("Value:") == std::string::npos) continue;
        if (section == ".nv.info" && attribute.rfind("EIATTR_REGCOUNT", 0) == 0 &&
            line.find("function: " + kernel + "(") != std::string::npos) {
            const size_t p = line.find("register count:");
            if (p != std::string::npos) out.regs = uint32_t(std::stoul(line.substr(p + 15)));
        }
        if (section != ".nv.info." + kernel) continue;
        any = true;
        if (attribute.rfind("EIATTR_PARAM_CBANK", 0) == 0) {
            const size_t p = line.find("0x", line.find("0x") + 2);
            if (p != std::string::npos) out.cbank_base = uint32_t(std::stoul(line.substr(p + 2), nullptr, 16)) & 0xffff;
        } else if (attribute.rfind("EIATTR_KPARAM_INFO", 0) == 0) {
            uint32_t ord = 0;
            ParamSlot s;
            if (field(line, "Ordinal", ord) && field(line, "Offset", s.offset) && field(line, "Size", s.size)) by_ordinal[ord] = s;
        }
    }
    if (!any) return false;
    parse_globals(text, out);
    out.from_elf = true;
    out.params.clear();
    for (const auto& [ord, s] : by_ordinal) {
        if (ord != out.params.size()) return false;
        out.params.push_back(s);
    }
    return true;
}

}  // namespace simt::isa::sass
