// yaml_edit.cpp: in-place value rewriting of block-style YAML (see yaml_edit.hpp).
#include "sim/calibrate/yaml_edit.hpp"

#include <sstream>

namespace simt::calib {
namespace {

struct Line {
    std::string text;
    size_t indent = 0;
    std::string key;     // "" for blank/comment/list lines
    size_t value_at = 0; // where the value text starts (after "key: ")
    size_t value_end = 0;
};

Line parse_line(const std::string& t) {
    Line l;
    l.text = t;
    size_t i = t.find_first_not_of(' ');
    if (i == std::string::npos || t[i] == '#' || t[i] == '-') return l;
    size_t colon = t.find(':', i);
    if (colon == std::string::npos) return l;
    l.indent = i;
    l.key = t.substr(i, colon - i);
    size_t v = t.find_first_not_of(' ', colon + 1);
    if (v == std::string::npos || t[v] == '#') return l;  // a section header: no scalar
    l.value_at = v;
    size_t hash = t.find(" #", v);
    size_t end = hash == std::string::npos ? t.size() : hash;
    while (end > v && t[end - 1] == ' ') --end;
    l.value_end = end;
    return l;
}

// The key path of every line that holds a key ("" for others).
std::vector<std::string> key_paths(const std::vector<Line>& lines) {
    std::vector<std::pair<size_t, std::string>> stack;  // (indent, key)
    std::vector<std::string> out;
    for (const Line& l : lines) {
        if (l.key.empty()) {
            out.emplace_back();
            continue;
        }
        while (!stack.empty() && stack.back().first >= l.indent) stack.pop_back();
        std::string path;
        for (const auto& s : stack) path += s.second + ".";
        path += l.key;
        out.push_back(path);
        stack.push_back({l.indent, l.key});
    }
    return out;
}

std::string rewrite(const Line& l, const Setting& s) {
    std::string head = l.text.substr(0, l.value_at) + s.value;
    size_t comment_col = l.text.find(" #", l.value_at);
    size_t col = comment_col == std::string::npos ? 0 : comment_col + 1;
    if (head.size() + 1 > col) col = head.size() + 1;
    return head + std::string(col - head.size(), ' ') + "# " + s.provenance;
}

}  // namespace

std::string set_values(const std::string& text, const std::string& name, const std::vector<Setting>& settings) {
    std::vector<Line> lines;
    std::istringstream in(text);
    for (std::string t; std::getline(in, t);) lines.push_back(parse_line(t));
    std::vector<std::string> paths = key_paths(lines);
    for (const Setting& s : settings) {
        bool done = false;
        // A pipe's `lanes` and `interval` spell one rate: either line of the base takes the setting.
        std::string alt = s.key;
        auto swap_suffix = [&](const std::string& a, const std::string& b) {
            if (alt.size() > a.size() && alt.compare(alt.size() - a.size(), a.size(), a) == 0)
                alt = alt.substr(0, alt.size() - a.size()) + b;
        };
        if (s.key.find(".lanes") != std::string::npos) swap_suffix(".lanes", ".interval");
        else swap_suffix(".interval", ".lanes");
        for (size_t i = 0; i < lines.size() && !done; ++i) {
            if (paths[i] != s.key && paths[i] != alt) continue;
            if (paths[i] != s.key) {  // rename the key in place
                std::string leaf = s.key.substr(s.key.rfind('.') + 1);
                lines[i].text = lines[i].text.substr(0, lines[i].indent) + leaf + ": " +
                                lines[i].text.substr(lines[i].value_at);
                lines[i] = parse_line(lines[i].text);
            }
            if (lines[i].value_at == 0)
                throw simt::Error({name, uint32_t(i + 1), 1}, "'" + s.key + "' is a section, not a value");
            lines[i].text = rewrite(lines[i], s);
            done = true;
        }
        if (!done) throw simt::Error({name, 0, 0}, "the base config has no key '" + s.key + "' to calibrate");
    }
    std::string out;
    for (const Line& l : lines) out += l.text + "\n";
    return out;
}

std::string prepend_header(const std::string& text, const std::vector<std::string>& header) {
    std::string out;
    for (const auto& h : header) out += "# " + h + "\n";
    return out + (header.empty() ? "" : "#\n") + text;
}

}  // namespace simt::calib
