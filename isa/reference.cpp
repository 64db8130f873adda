// reference.cpp: the Markdown instruction reference, generated from the one opcode table.
#include "isa/isa.hpp"

#include <sstream>

namespace simt::isa {
namespace {

const char* lat_words(Lat l) {
    switch (l) {
        case Lat::Fixed: return "fixed";
        case Lat::Mio: return "variable (MIO)";
        case Lat::L1tex: return "variable (L1TEX)";
        case Lat::L2: return "variable (L1TEX, cached in L2 only)";
        case Lat::Emul: return "emulated sequence";
        case Lat::Ctrl: return "control";
    }
    return "";
}

std::string operands(std::string_view sig) {
    std::string out;
    for (char c : sig) {
        switch (c) {
            case 'R': out += "rD"; break;
            case 'P': out += "pD"; break;
            case 'D': out += "rD:rD+1"; break;
            case 'W': out += "rD..rD+3"; break;
            case 'V': out += "a"; break;
            case 'F': out += "a"; break;
            case 'G': out += "a"; break;
            case 'K': out += "LUT"; break;
            case 'U': out += "urD"; break;
            case 'N': out += "a"; break;
            case 'S': out += "SH"; break;
            case 'E': out += "rA:rA+1"; break;
            case 'X': out += "rS..rS+3"; break;
            case 'Q': out += "q"; break;
            case 'M': out += "[addr]"; break;
            case 'L': out += "label"; break;
            case 'T': out += "texbuf"; break;
            case ',': out += ", "; break;
        }
    }
    // number repeated value operands a, b, c
    std::string res;
    char next = 'a';
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == 'a' && (i == 0 || out[i - 1] == ' ') && (i + 1 == out.size() || out[i + 1] == ','))
            res += next++;
        else
            res += out[i];
    }
    return res;
}

// A '|' inside a Markdown table cell must be escaped.
std::string escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

std::string markdown_reference() {
    std::ostringstream os;
    os << "| instruction | operands | pipe | latency | semantics |\n";
    os << "|---|---|---|---|---|\n";
    for (const auto& i : op_table()) {
        std::string m(i.mnemonic);
        if (takes_cmp(i.op)) m += ".CMP";
        os << "| `" << m << "` | " << (i.signature.empty() ? "" : "`" + operands(i.signature) + "`") << " | "
           << pipe_name(i.pipe) << " | " << lat_words(i.lat) << " | " << escape(i.doc) << " |\n";
    }
    return os.str();
}

}  // namespace simt::isa
