// spec.cpp: reading and validating a sweep spec (the grammar is in spec.hpp).
#include "sim/sweep/spec.hpp"

#include "isa/diagnostics.hpp"
#include "isa/limits.hpp"
#include "sim/config/yaml_reader.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <filesystem>
#include <set>

namespace simt::sweep {

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kKeys = {"configs", "traces", "set", "uniform", "policy",
                                        "max_instructions", "max_cycles", "output"};
constexpr uint64_t kMaxBudget = 10'000'000'000'000ull;  // as simt-sim's --max-instructions / --max-cycles

class SpecReader {
public:
    SpecReader(std::string name, std::string dir) : name_(std::move(name)), dir_(std::move(dir)) {}

    Spec read(const YAML::Node& doc) {
        Spec spec;
        spec.file = name_;
        spec.dir = dir_;
        if (!doc.IsMap()) fail(doc.Mark(), "expected a mapping with the keys " + key_list());
        check_keys(doc);
        for (const char* required : {"configs", "traces"})
            if (!doc[required]) fail(doc.Mark(), std::string("missing key '") + required + "' (a file or a list of files)");
        spec.axes.push_back(files(AxisKind::Config, "configs", doc["configs"], "the config", isa::kMaxConfigFileBytes));
        spec.axes.push_back(files(AxisKind::Trace, "traces", doc["traces"], "trace file", isa::kMaxTraceFileBytes));
        named_axes(spec, AxisKind::Set, "set", doc["set"]);
        named_axes(spec, AxisKind::Uniform, "uniform", doc["uniform"]);
        if (const YAML::Node p = doc["policy"]) {
            for (const Axis& a : spec.axes)
                if (a.kind == AxisKind::Set && a.name == "scheduler.policy")
                    fail(p.Mark(), "policy: the policy is already swept as set.scheduler.policy; give it once");
            spec.axes.push_back(Axis{AxisKind::Policy, "", values("policy", p)});
        }
        budget_axis(spec, AxisKind::MaxInstructions, "max_instructions", doc["max_instructions"]);
        budget_axis(spec, AxisKind::MaxCycles, "max_cycles", doc["max_cycles"]);
        if (const YAML::Node o = doc["output"]) {
            if (!o.IsScalar() || o.Scalar().empty()) fail(o.Mark(), "output: expected a file name");
            spec.output = spec.resolve(o.Scalar());
        }
        if (spec.points() > kMaxPoints)
            fail(doc.Mark(), "the grid has " + std::to_string(spec.points()) + " points, more than the limit of " +
                                 std::to_string(kMaxPoints) + " (split the sweep)");
        return spec;
    }

private:
    std::string name_, dir_;

    [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const {
        if (m.line < 0) throw Error(SourceLoc{name_, 0, 0}, what);
        throw Error(SourceLoc{name_, uint32_t(m.line + 1), uint32_t(m.column + 1)}, what);
    }
    static std::string key_list() {
        std::string s;
        for (const auto& k : kKeys) s += (s.empty() ? "" : ", ") + k;
        return s;
    }

    void check_keys(const YAML::Node& map) const {
        std::set<std::string> seen;
        for (const auto& kv : map) {
            if (!kv.first.IsScalar()) fail(kv.first.Mark(), "expected a key name, found " + cfg::describe_node(kv.first));
            const std::string& k = kv.first.Scalar();
            bool known = false;
            for (const auto& name : kKeys) known = known || k == name;
            if (!known)
                fail(kv.first.Mark(), "unknown key '" + isa::clip(k) + "'" + cfg::did_you_mean(k, kKeys) +
                                          "; a sweep spec has the keys " + key_list());
            if (!seen.insert(k).second) fail(kv.first.Mark(), "key '" + k + "' given twice");
        }
    }

    // A scalar or a non-empty list of distinct scalars, as written.
    std::vector<std::string> values(const std::string& path, const YAML::Node& n) const {
        if (n.IsScalar()) {
            if (n.Scalar().empty()) fail(n.Mark(), path + ": expected a value, found an empty string");
            return {n.Scalar()};
        }
        if (!n.IsSequence()) fail(n.Mark(), path + ": expected a value or a list of values, found " + cfg::describe_node(n));
        if (n.size() == 0) fail(n.Mark(), path + ": the list is empty; give at least one value");
        std::vector<std::string> out;
        for (const auto& v : n) {
            if (!v.IsScalar() || v.Scalar().empty())
                fail(v.Mark(), path + ": expected a value, found " + cfg::describe_node(v));
            for (const auto& before : out)
                if (before == v.Scalar()) fail(v.Mark(), path + ": '" + isa::clip(before) + "' is listed twice");
            out.push_back(v.Scalar());
        }
        return out;
    }

    Axis files(AxisKind kind, const char* key, const YAML::Node& n, const char* what, uint64_t max_bytes) const {
        Axis axis{kind, "", values(key, n)};
        Spec base;
        base.dir = dir_;
        size_t i = 0;
        for (const auto& v : axis.values) {
            const YAML::Node at = n.IsSequence() ? n[i++] : n;
            const SourceLoc loc{name_, uint32_t(at.Mark().line + 1), uint32_t(at.Mark().column + 1)};
            isa::check_input_file(base.resolve(v), what, max_bytes, &loc);
        }
        return axis;
    }

    void named_axes(Spec& spec, AxisKind kind, const char* key, const YAML::Node& n) const {
        if (!n) return;
        if (!n.IsMap())
            fail(n.Mark(), std::string(key) + ": expected a mapping of " +
                               (kind == AxisKind::Set ? "config key paths" : "uniform names") + " to values, found " +
                               cfg::describe_node(n));
        std::set<std::string> seen;
        for (const auto& kv : n) {
            if (!kv.first.IsScalar() || kv.first.Scalar().empty())
                fail(kv.first.Mark(), std::string(key) + ": expected a name, found " + cfg::describe_node(kv.first));
            const std::string& name = kv.first.Scalar();
            if (name.find_first_of("= ,\"") != std::string::npos)
                fail(kv.first.Mark(), std::string(key) + ": '" + isa::clip(name) +
                                          "' is not a name (no '=', spaces, commas or quotes)");
            if (!seen.insert(name).second) fail(kv.first.Mark(), std::string(key) + "." + name + " given twice");
            spec.axes.push_back(Axis{kind, name, values(std::string(key) + "." + name, kv.second)});
        }
    }

    void budget_axis(Spec& spec, AxisKind kind, const char* key, const YAML::Node& n) const {
        if (!n) return;
        Axis axis{kind, "", values(key, n)};
        size_t i = 0;
        for (const auto& v : axis.values) {
            const YAML::Node at = n.IsSequence() ? n[i++] : n;
            uint64_t x = 0;
            auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
            if (ec != std::errc() || p != v.data() + v.size() || x < 1 || x > kMaxBudget)
                fail(at.Mark(), std::string(key) + ": expected a whole number from 1 to " + std::to_string(kMaxBudget) +
                                    ", found '" + isa::clip(v) + "'");
        }
        spec.axes.push_back(std::move(axis));
    }
};

}  // namespace

std::string Axis::column() const {
    switch (kind) {
        case AxisKind::Config: return "sweep.config";
        case AxisKind::Trace: return "sweep.trace";
        case AxisKind::Set: return "set." + name;
        case AxisKind::Uniform: return "uniform." + name;
        case AxisKind::Policy: return "sweep.policy";
        case AxisKind::MaxInstructions: return "sweep.max_instructions";
        case AxisKind::MaxCycles: return "sweep.max_cycles";
    }
    return "?";
}

uint64_t Spec::points() const {
    uint64_t n = 1;
    for (const Axis& a : axes) {
        n *= a.values.size();
        if (n > kMaxPoints) return kMaxPoints + 1;  // no overflow: the limit is what matters
    }
    return n;
}

std::string Spec::resolve(const std::string& path) const {
    const fs::path p(path);
    if (p.is_absolute() || dir.empty()) return p.lexically_normal().string();
    return (fs::path(dir) / p).lexically_normal().string();
}

Spec load_spec_text(const std::string& text, const std::string& name, const std::string& dir) {
    try {
        const std::vector<YAML::Node> docs = YAML::LoadAll(text);
        if (docs.empty() || docs[0].IsNull())
            throw Error(SourceLoc{name, 0, 0}, "the sweep spec is empty; expected at least configs: and traces:");
        if (docs.size() > 1) throw Error(SourceLoc{name, 0, 0}, "expected one YAML document, found " + std::to_string(docs.size()));
        return SpecReader(name, dir).read(docs[0]);
    } catch (const YAML::Exception& e) {
        SourceLoc loc{name, 0, 0};
        if (e.mark.line >= 0) loc = SourceLoc{name, uint32_t(e.mark.line + 1), uint32_t(e.mark.column + 1)};
        throw Error(loc, "invalid YAML: " + e.msg);
    }
}

Spec load_spec(const std::string& path) {
    const std::string text = isa::read_text_file(path, "the sweep spec", isa::kMaxConfigFileBytes);
    return load_spec_text(text, path, fs::path(path).parent_path().string());
}

}  // namespace simt::sweep
