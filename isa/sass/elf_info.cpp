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
    out.from_elf = true;
    out.params.clear();
    for (const auto& [ord, s] : by_ordinal) {
        if (ord != out.params.size()) return false;
        out.params.push_back(s);
    }
    return true;
}

}  // namespace simt::isa::sass
