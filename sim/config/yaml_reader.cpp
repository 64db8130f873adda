// yaml_reader.cpp: checked reading of a YAML mapping tree (see yaml_reader.hpp).
//
// Scalars follow the YAML 1.2 core schema where it matters: integers are
// decimal or 0x-hex, and a number written with an exponent (2e9) is accepted
// for an integer when its value is whole. A quoted scalar is a string, never a
// number or a boolean. Booleans are true / false only (not yes/no/on/off).
#include "sim/config/yaml_reader.hpp"

#include "isa/limits.hpp"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace simt::cfg {

namespace {

bool is_quoted(const YAML::Node& n) {
    return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str";
}

std::string join(const KeyList& keys) {
    std::string s;
    for (size_t i = 0; i < keys.size(); ++i) s += (i ? ", " : "") + std::string(keys[i]);
    return s;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

enum class Whole { Ok, NotNumber, Negative, Fraction, TooLarge };

// Parses a plain scalar as a whole number: decimal, 0x-hex, or any finite
// number whose value is whole (2e9, 64.0).
Whole parse_whole(std::string_view s, uint64_t& out) {
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s.empty()) return Whole::NotNumber;
    int base = 10;
    std::string_view digits = s;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        digits = s.substr(2);
    }
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out, base);
    if (p == digits.data() + digits.size() && ec == std::errc::result_out_of_range) return Whole::TooLarge;
    if (p == digits.data() + digits.size() && ec == std::errc()) {
        return negative && out != 0 ? Whole::Negative : Whole::Ok;
    }
    if (base == 16) return Whole::NotNumber;
    double d = 0;
    auto [q, ec2] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec2 != std::errc() || q != s.data() + s.size() || !std::isfinite(d) || std::signbit(d)) {
        return Whole::NotNumber;  // "+-3": the sign was already taken
    }
    if (negative && d != 0) return Whole::Negative;
    if (d != std::floor(d)) return Whole::Fraction;
    if (d >= 18446744073709551616.0) return Whole::TooLarge;
    out = static_cast<uint64_t>(d);
    return Whole::Ok;
}

bool parse_real(std::string_view s, double& out) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (s.empty() || s[0] == '+') return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && std::isfinite(out);
}

std::string range_text(uint64_t min, uint64_t max, uint64_t type_max) {
    if (max != type_max) return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (min == 0) return "a non-negative integer";
    return "an integer >= " + std::to_string(min);
}

std::string number_text(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(int64_t(v));
    char buf[64];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

}  // namespace

// ---- helpers ---------------------------------------------------------------

std::string describe_node(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Map: return "a mapping";
        case YAML::NodeType::Sequence: return "a sequence";
        case YAML::NodeType::Scalar:
            return is_quoted(node) ? "the string \"" + node.Scalar() + "\"" : "'" + node.Scalar() + "'";
        default: return "nothing (an empty value)";
    }
}

std::string nearest(std::string_view name, const std::vector<std::string>& known) {
    std::vector<std::string> lowered;
    lowered.reserve(known.size());
    for (const std::string& k : known) lowered.push_back(lower(k));
    const std::string best = isa::nearest_name(lower(name), lowered, std::max<size_t>(1, name.size() / 3));
    if (best.empty()) return best;
    return known[size_t(std::find(lowered.begin(), lowered.end(), best) - lowered.begin())];
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& known,
                         std::string_view prefix) {
    std::string best = nearest(name, known);
    return best.empty() ? std::string() : " (did you mean '" + std::string(prefix) + best + "'?)";
}

// ---- Reader ----------------------------------------------------------------

Reader::Reader(std::string file, std::map<std::string, std::string> overrides)
    : file_(std::move(file)), overrides_(std::move(overrides)) {}

SourceLoc Reader::at(const YAML::Mark& mark) const {
    if (mark.line < 0) return SourceLoc{file_, 0, 0};
    return SourceLoc{file_, static_cast<uint32_t>(mark.line + 1), static_cast<uint32_t>(mark.column + 1)};
}

void Reader::fail(const std::string& path, const YAML::Mark& mark, const std::string& what) const {
    std::string msg = path.empty() ? what : path + ": " + what;
    auto it = overrides_.find(path);
    if (it != overrides_.end()) throw Error(SourceLoc{"--set " + it->second, 0, 0}, msg);
    throw Error(at(mark), msg);
}

void Reader::fail_field(const std::string& path, const std::string& what) const {
    auto it = fields_.find(path);
    assert(it != fields_.end() && "a field is checked before it is read");
    fail(path, it == fields_.end() ? YAML::Mark::null_mark() : it->second, what);
}

std::string Reader::origin_note(const std::string& path) const {
    auto it = overrides_.find(path);
    return it == overrides_.end() ? std::string() : "from --set " + it->second;
}

void Reader::record(const std::string& path, const YAML::Mark& mark) { fields_[path] = mark; }

// ---- Section: structure ----------------------------------------------------

Section::Section(Reader& reader, const YAML::Node& node, std::string path, YAML::Mark mark,
                 KeyList keys)
    : reader_(&reader), path_(std::move(path)), mark_(mark), keys_(std::move(keys)) {
    if (!node.IsMap()) {
        std::string where = path_.empty() ? "the top level" : "this section";
        reader_->fail(path_, node.IsNull() ? mark_ : node.Mark(),
                      "expected a mapping at " + where + " with keys " + join(keys_) + "; got " +
                          describe_node(node));
    }
    check_keys(node);
}

Section Section::root(Reader& reader, const YAML::Node& doc, KeyList keys) {
    return Section(reader, doc, "", doc.Mark(), std::move(keys));
}

void Section::check_keys(const YAML::Node& node) {
    const std::vector<std::string> known(keys_.begin(), keys_.end());
    for (auto it = node.begin(); it != node.end(); ++it) {
        const YAML::Node k = it->first;  // a copy: it-> yields a temporary proxy
        if (!k.IsScalar()) {
            reader_->fail(path_, k.Mark(), "expected a key name, got " + describe_node(k));
        }
        const std::string& name = k.Scalar();
        if (std::find(keys_.begin(), keys_.end(), name) == keys_.end()) {
            std::string where = path_.empty() ? "the top-level keys are " : "the keys of " + path_ + " are ";
            reader_->fail(child_path(name), k.Mark(),
                          "unknown key" + did_you_mean(name, known, path_.empty() ? "" : path_ + ".") +
                              "; " + where + join(keys_));
        }
        auto [pos, fresh] = entries_.try_emplace(name, Entry{k, it->second});
        if (!fresh) {
            reader_->fail(child_path(name), k.Mark(),
                          "duplicate key (first given at line " +
                              std::to_string(pos->second.key.Mark().line + 1) + ")");
        }
    }
}

Section Section::section(std::string_view key, KeyList keys) const {
    const Entry& e = entry(key);
    return Section(*reader_, e.value, child_path(key), e.key.Mark(), std::move(keys));
}

std::string Section::child_path(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool Section::has(std::string_view key) const {
    assert(std::find(keys_.begin(), keys_.end(), key) != keys_.end() && "undeclared key");
    return entries_.find(key) != entries_.end();
}

void Section::fail(const std::string& what) const { reader_->fail(path_, mark_, what); }

void Section::fail_key(std::string_view key, const std::string& what) const {
    const Entry& e = entry(key);
    fail_value(key, e, what);
}

const Section::Entry& Section::entry(std::string_view key) const {
    assert(std::find(keys_.begin(), keys_.end(), key) != keys_.end() && "undeclared key");
    auto it = entries_.find(key);
    if (it == entries_.end()) {
        std::string where = path_.empty() ? "at the top level" : "in " + path_;
        reader_->fail(child_path(key), mark_,
                      "missing key; every key is required " + where + " (" + join(keys_) + ")");
    }
    return it->second;
}

void Section::fail_value(std::string_view key, const Entry& e, const std::string& what) const {
    reader_->fail(child_path(key), e.value.IsNull() ? e.key.Mark() : e.value.Mark(), what);
}

const Section::Entry& Section::scalar(std::string_view key, const char* expected) const {
    const Entry& e = entry(key);
    if (!e.value.IsScalar()) {
        fail_value(key, e, std::string("expected ") + expected + ", got " + describe_node(e.value));
    }
    reader_->record(child_path(key), e.value.Mark());
    return e;
}

// ---- Section: typed values -------------------------------------------------

uint64_t Section::whole(std::string_view key, uint64_t min, uint64_t max, uint64_t type_max) const {
    const std::string expected = range_text(min, max, type_max);
    const Entry& e = scalar(key, expected.c_str());
    const std::string& s = e.value.Scalar();
    auto bad = [&](const std::string& what) { fail_value(key, e, "expected " + expected + ", got " + what); };
    if (is_quoted(e.value)) bad(describe_node(e.value));
    uint64_t v = 0;
    switch (parse_whole(s, v)) {
        case Whole::NotNumber: bad("'" + s + "'"); break;
        case Whole::Negative: bad("the negative number " + s); break;
        case Whole::Fraction: bad("the fraction " + s); break;
        case Whole::TooLarge: bad(s + ", which is too large"); break;
        case Whole::Ok: break;
    }
    if (v > type_max) bad(s + ", which is too large (at most " + std::to_string(type_max) + ")");
    if (v < min || v > max) bad(s);
    return v;
}

uint32_t Section::u32(std::string_view key, uint32_t min, uint32_t max) const {
    return static_cast<uint32_t>(whole(key, min, max, std::numeric_limits<uint32_t>::max()));
}

uint64_t Section::u64(std::string_view key, uint64_t min, uint64_t max) const {
    return whole(key, min, max, std::numeric_limits<uint64_t>::max());
}

double Section::number(std::string_view key, double min, bool min_exclusive, double max) const {
    const std::string expected = std::string("a number ") + (min_exclusive ? "> " : ">= ") + number_text(min) +
                                 " and <= " + number_text(max);
    const Entry& e = scalar(key, expected.c_str());
    auto bad = [&](const std::string& what) { fail_value(key, e, "expected " + expected + ", got " + what); };
    double v = 0;
    if (is_quoted(e.value)) bad(describe_node(e.value));
    if (!parse_real(e.value.Scalar(), v)) bad("'" + e.value.Scalar() + "'");
    if (v < min || (min_exclusive && v == min) || v > max) bad(e.value.Scalar());
    return v;
}

bool Section::boolean(std::string_view key) const {
    const Entry& e = scalar(key, "true or false");
    const std::string& s = e.value.Scalar();
    if (!is_quoted(e.value)) {
        if (s == "true" || s == "True" || s == "TRUE") return true;
        if (s == "false" || s == "False" || s == "FALSE") return false;
    }
    fail_value(key, e, "expected true or false, got " + describe_node(e.value));
}

std::string Section::text(std::string_view key) const {
    const Entry& e = scalar(key, "a string");
    if (e.value.Scalar().empty()) fail_value(key, e, "expected a non-empty string");
    return e.value.Scalar();
}

size_t Section::choice(std::string_view key, const KeyList& names) const {
    const std::string expected = "one of " + join(names);
    const Entry& e = scalar(key, expected.c_str());
    const std::string& s = e.value.Scalar();
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == s) return i;
    }
    fail_value(key, e,
               "expected " + expected + ", got " + describe_node(e.value) +
                   did_you_mean(s, std::vector<std::string>(names.begin(), names.end())));
}

}  // namespace simt::cfg
