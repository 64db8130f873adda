// coverage.cpp: probe launches of every kernel of a dump, and their tally (see coverage.hpp).
#include "isa/sass/coverage.hpp"

#include "isa/assembler.hpp"
#include "isa/limits.hpp"
#include "isa/sass/elf_info.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

namespace simt::isa::sass {
namespace {

namespace fs = std::filesystem;
constexpr uint32_t kProbeBufferWords = 65536;
constexpr uint32_t kProbeValue = 8;

// One parameter type of an Itanium-mangled name from s[i]: true for a pointer. Advances i; false for
// what it cannot read. `subs` collects the substitution candidates (qualified types, pointers,
// class names, in order) that S_, S0_, S1_ ... refer to.
bool mangled_type(const std::string& s, size_t& i, bool& pointer, std::vector<bool>& subs) {
    pointer = false;
    if (i >= s.size()) return false;
    if (s[i] == 'K' || s[i] == 'V' || s[i] == 'r') {   // a qualified type: a candidate itself
        ++i;
        if (!mangled_type(s, i, pointer, subs)) return false;
        subs.push_back(pointer);
        return true;
    }
    if (s[i] == 'P') {
        ++i;
        bool inner;
        if (!mangled_type(s, i, inner, subs)) return false;
        pointer = true;
        subs.push_back(true);
        return true;
    }
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {   // a class name: <length><name>
        size_t n = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) n = n * 10 + size_t(s[i++] - '0');
        i += n;
        subs.push_back(false);
        return i <= s.size();
    }
    if (s[i] == 'S') {   // S_ is candidate 0, S<k>_ candidate k + 1
        const size_t e = s.find('_', i);
        if (e == std::string::npos) return false;
        const size_t k = e == i + 1 ? 0 : size_t(std::strtoul(s.c_str() + i + 1, nullptr, 36)) + 1;
        i = e + 1;
        if (k >= subs.size()) return false;
        pointer = subs[k];
        return true;
    }
    return std::string("vbcahstijlmxyfde").find(s[i++]) != std::string::npos;
}

// Which parameters of a mangled kernel name (_Z5copy1PKfPfx) are pointers; empty when the name is
// not mangled (extern "C") or not read.
std::vector<bool> pointer_params(const std::string& name) {
    if (name.rfind("_Z", 0) != 0) return {};
    size_t i = 2, n = 0;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) n = n * 10 + size_t(name[i++] - '0');
    i += n;
    bool pointer = false;
    std::vector<bool> subs;
    if (i < name.size() && name[i] == 'I') {   // template arguments, then the return type
        int depth = 0;
        do {
            if (name[i] == 'I' || name[i] == 'L') ++depth;
            else if (name[i] == 'E') --depth;
            ++i;
        } while (i < name.size() && depth > 0);
        if (!mangled_type(name, i, pointer, subs)) return {};
    }
    std::vector<bool> out;
    while (i < name.size()) {
        if (!mangled_type(name, i, pointer, subs)) return {};
        out.push_back(pointer);
    }
    return out;
}

// A launch of `kernel` from the dump `file` (a name in its directory) with the parameters of `info`:
// a buffer for each pointer (each 8-byte parameter where the name does not say), a value otherwise.
std::string probe_launch_text(const std::string& file, const std::string& kernel, const KernelInfo& info) {
    std::ostringstream os, param;
    os << ".sass \"" << file << "\" " << kernel << "\n.grid 1\n.block 128\n";
    param << ".param";
    const std::vector<bool> pointers = pointer_params(kernel);
    const bool typed = pointers.size() == info.params.size();
    for (size_t i = 0; i < info.params.size(); ++i) {
        if (info.params[i].size == 8 && typed && !pointers[i]) {   // a long long: the value, zero-extended
            param << " " << kProbeValue;
            continue;
        }
        if (info.params[i].size == 8) {
            os << ".buffer p" << i << " u32 " << kProbeBufferWords << " zero\n";
            param << " p" << i;
        } else {
            param << " " << kProbeValue;
        }
    }
    return os.str() + param.str() + "\n";
}

// Without a .elf: 8-byte parameters up to the highest word of c[0x0] past the parameter base it reads.
KernelInfo guess_params(const Kernel& k) {
    KernelInfo info;
    const uint32_t base = standard_param_base(k.arch);
    uint32_t end = 0;
    for (const Inst& in : k.code)
        for (const std::string& o : in.operands) {
            const size_t at = o.find("c[0x0][0x");
            if (at == std::string::npos) continue;
            const uint32_t off = uint32_t(std::strtoul(o.c_str() + at + 7, nullptr, 16));
            if (off >= base) end = std::max(end, off - base + 4);
        }
    for (uint32_t off = 0; off < end; off += 8) info.params.push_back({off, 8});
    return info;
}

KernelCheck check_kernel(const fs::path& path, const std::string& listing, const std::string& kernel, const std::string& elf) {
    KernelCheck k;
    k.file = path.string();
    k.kernel = kernel;
    KernelInfo info;
    if (!read_elf_info(elf, kernel, info)) info = guess_params(read_kernel(listing, k.file, kernel, SourceLoc{k.file, 0, 0}));
    k.launch = probe_launch_text(path.filename().string(), kernel, info);
    const std::string name = (path.parent_path() / (kernel + ".probe.isa")).string(), dir = path.parent_path().string();
    try {
        const Probe p = probe_launch(k.launch, name, dir, {});
        k.instructions = p.kernel.code.size();
        for (const Unsupported& u : p.lowered.unsupported) {
            const Inst& in = p.kernel.code[u.sass];
            k.unsupported.push_back(in.loc.str() + ": " + in.text + "   (" + u.why + ")");
            k.reasons.push_back(in.opcode + ": " + std::regex_replace(u.why, std::regex("\\b(U?R|U?P)[0-9]+(\\.reuse)?\\b"), "$1n"));
        }
        if (k.unsupported.empty()) import_launch(k.launch, name, dir, {});
    } catch (const Error& e) {
        k.error = e.what();
    }
    return k;
}

}  // namespace

std::vector<std::string> kernel_names(const std::string& listing) {
    std::vector<std::string> out;
    std::istringstream in(listing);
    std::string line;
    while (std::getline(in, line)) {
        const size_t f = line.find("Function : ");
        if (f == std::string::npos) continue;
        std::string n = line.substr(f + 11);
        while (!n.empty() && (n.back() == ' ' || n.back() == '\r')) n.pop_back();
        out.push_back(n);
    }
    return out;
}

std::vector<KernelCheck> check_dump(const std::string& path) {
    const std::string listing = read_text_file(path, "SASS file", kMaxTraceFileBytes, nullptr);
    const fs::path elf_path = fs::path(path).replace_extension(".elf");
    const std::string elf = fs::exists(elf_path) ? read_text_file(elf_path.string(), "ELF dump", kMaxTraceFileBytes, nullptr) : "";
    std::vector<KernelCheck> out;
    for (const std::string& k : kernel_names(listing)) out.push_back(check_kernel(fs::path(path), listing, k, elf));
    return out;
}

std::map<std::string, TallyEntry> tally(const std::vector<KernelCheck>& checks) {
    std::map<std::string, TallyEntry> out;
    for (const KernelCheck& k : checks) {
        std::set<std::string> seen;
        for (const std::string& r : k.reasons) {
            ++out[r].instructions;
            if (seen.insert(r).second) ++out[r].kernels;
        }
    }
    return out;
}

}  // namespace simt::isa::sass
