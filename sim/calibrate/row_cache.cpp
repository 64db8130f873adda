// row_cache.cpp: units of evaluate()'s work, run in parallel through a memo (see row_cache.hpp).
#include "sim/calibrate/row_cache.hpp"

#include "sim/config/overrides.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace simt::calib {

UnitRows RowCache::get(const std::string& config, const Unit& unit, bool sass, const std::function<UnitRows()>& run) {
    const std::string key = unit.name() + '\n' + unit.group.name + (sass ? "\nsass\n" : "\n\n") + config;
    std::shared_future<UnitRows> f;
    std::promise<UnitRows> mine;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = memo_.find(key);
        if (it != memo_.end()) {
            ++hits_;
            f = it->second;
        } else {
            memo_.emplace(key, mine.get_future().share());
        }
    }
    if (f.valid()) return f.get();
    UnitRows r = run();  // run() catches the unit's errors into r.error
    mine.set_value(r);
    return r;
}

size_t RowCache::simulated() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return memo_.size();
}

size_t RowCache::hits() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hits_;
}

std::string config_key(const std::string& path, const Uniforms& sets) {
    YAML::Node root = YAML::LoadFile(path);
    cfg::apply_overrides(root, sets);
    return YAML::Dump(root);
}

namespace {

// The units of `g`: one per kernel it would run, in its order, when each kernel's rows come
// together; the whole group otherwise (a kernel named twice apart, or none named).
void add_units(const Group& g, const Context& proto, std::vector<Unit>& units) {
    Context probe;
    probe.root = proto.root;
    probe.sass = proto.sass;
    probe.hw = proto.hw;
    probe.cfg = proto.cfg;
    probe.verbose = false;
    std::vector<std::string> names;
    probe.units = &names;
    g.run(probe);
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    if (names.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        units.push_back({g, ""});
        return;
    }
    for (const auto& n : names) units.push_back({g, n});
}

}  // namespace

std::vector<Unit> list_units(const Context& proto, const std::vector<std::string>& groups) {
    check_group_names(groups);
    std::vector<Unit> units;
    for (const Group& g : all_groups())
        if (groups.empty() || std::count(groups.begin(), groups.end(), g.name) ||
            std::count(groups.begin(), groups.end(), g.set))
            add_units(g, proto, units);
    return units;
}

// Groups are independent simulations, and so are the kernels of a group: each unit runs in its
// own thread with its own context.
std::vector<UnitRows> run_units(const Context& proto, const std::vector<Unit>& units, RowCache* cache,
                                const std::string& config, const std::vector<double>* seconds) {
    std::vector<UnitRows> out(units.size());
    auto simulate = [&](size_t i) {
        UnitRows r;
        const auto t0 = std::chrono::steady_clock::now();
        try {
            Context c = proto;
            c.only = units[i].only;
            units[i].group.run(c);
            r.rows = std::move(c.rows);
        } catch (...) {
            r.error = std::current_exception();
        }
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return r;
    };
    std::vector<size_t> order(units.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (seconds && seconds->size() == units.size())
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return (*seconds)[a] > (*seconds)[b]; });
    auto work = [&](size_t i) {
        out[i] = cache ? cache->get(config, units[i], proto.sass, [&] { return simulate(i); }) : simulate(i);
    };
    size_t threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(units.size())));
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (size_t n; (n = next++) < units.size();) work(order[n]);
        });
    for (auto& t : pool) t.join();
    return out;
}

}  // namespace simt::calib
