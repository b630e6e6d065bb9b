// Weak-case warnings: the launch and meta-parameters evaluated against the case sizes, the input generators, and
// the tolerances against the output dtypes' precision.
#include "modules/packs/weak_cases.h"

#include "engine/problem/instance.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

namespace tkm::packs {

namespace {

using problem::ExerciseSpec;
using problem::Generator;

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string joinWords(const std::vector<std::string>& items, const char* last)
{
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            s += i + 1 == items.size() ? std::string(" ") + last + " " : std::string(", ");
        }
        s += items[i];
    }
    return s;
}

// Identifiers of an expression ("cdiv(n, BLOCK_SIZE)" → cdiv, n, BLOCK_SIZE).
std::set<std::string> identifiers(const std::string& expr)
{
    std::set<std::string> out;
    for (std::size_t i = 0; i < expr.size();) {
        const unsigned char c = static_cast<unsigned char>(expr[i]);
        if (std::isalpha(c) || c == '_') {
            std::size_t j = i + 1;
            while (j < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '_')) {
                ++j;
            }
            out.insert(expr.substr(i, j - i));
            i = j;
        } else if (std::isdigit(c) || c == '.') {
            // Skip a number with its exponent ("1e5" is not the identifier e5).
            std::size_t j = i + 1;
            while (j < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '.')) {
                ++j;
            }
            i = j;
        } else {
            ++i;
        }
    }
    return out;
}

// The (first, second) argument texts of every cdiv(a, b) call in `expr`, nested calls included.
std::vector<std::pair<std::string, std::string>> cdivCalls(const std::string& expr)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t at = expr.find("cdiv"); at != std::string::npos; at = expr.find("cdiv", at + 4)) {
        const bool wordStart =
            at == 0 || !(std::isalnum(static_cast<unsigned char>(expr[at - 1])) || expr[at - 1] == '_');
        std::size_t open = at + 4;
        while (open < expr.size() && expr[open] == ' ') {
            ++open;
        }
        if (!wordStart || open >= expr.size() || expr[open] != '(') {
            continue;
        }
        int depth = 0;
        std::size_t comma = std::string::npos;
        std::size_t close = std::string::npos;
        for (std::size_t i = open; i < expr.size() && close == std::string::npos; ++i) {
            if (expr[i] == '(') {
                ++depth;
            } else if (expr[i] == ')') {
                if (--depth == 0) {
                    close = i;
                }
            } else if (expr[i] == ',' && depth == 1 && comma == std::string::npos) {
                comma = i;
            }
        }
        if (comma != std::string::npos && close != std::string::npos) {
            out.emplace_back(expr.substr(open + 1, comma - open - 1), expr.substr(comma + 1, close - comma - 1));
        }
    }
    return out;
}

// A tile width and the case sizes it covers, with its value in each correctness case.
struct Tile
{
    std::string meta;              // the meta-parameter whose value this is ("" for threads per block)
    std::string label;             // "BLOCK_SIZE = 128", "NUM_WARPS = 1 (32 threads)"
    std::set<std::string> covered; // size names
    std::vector<int64_t> values;   // per case (0: could not be evaluated)
};

std::set<std::string> intersect(const std::set<std::string>& a, const std::set<std::string>& b)
{
    std::set<std::string> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
    return out;
}

// The sizes a meta-parameter tiles, from the launch grid (see weakCaseWarnings()).
std::set<std::string> coveredSizes(const ExerciseSpec& spec, const std::string& meta,
                                   const std::set<std::string>& sizes)
{
    std::set<std::string> inGrid;
    std::set<std::string> fromCdiv;
    std::set<std::string> fromDims;
    for (const std::string& dim : spec.launch.grid) {
        const auto ids = identifiers(dim);
        const auto dimSizes = intersect(ids, sizes);
        inGrid.insert(dimSizes.begin(), dimSizes.end());
        if (meta.empty() || !ids.count(meta)) {
            continue;
        }
        fromDims.insert(dimSizes.begin(), dimSizes.end());
        for (const auto& [a, b] : cdivCalls(dim)) {
            if (identifiers(b).count(meta)) {
                const auto s = intersect(identifiers(a), sizes);
                fromCdiv.insert(s.begin(), s.end());
            }
        }
    }
    if (!fromCdiv.empty()) {
        return fromCdiv;
    }
    if (!fromDims.empty()) {
        return fromDims;
    }
    std::set<std::string> outside;
    std::set_difference(sizes.begin(), sizes.end(), inGrid.begin(), inGrid.end(),
                        std::inserter(outside, outside.end()));
    return outside.empty() ? sizes : outside;
}

std::vector<Tile> tiles(const ExerciseSpec& spec, const problem::MetaValues& defaults)
{
    std::set<std::string> sizes;
    for (const auto& [name, v] : spec.cases.front().sizes) {
        sizes.insert(name);
    }
    std::set<std::string> blockIds;
    for (const std::string& dim : spec.launch.block) {
        const auto ids = identifiers(dim);
        blockIds.insert(ids.begin(), ids.end());
    }
    std::set<std::string> gridIds;
    for (const std::string& dim : spec.launch.grid) {
        const auto ids = identifiers(dim);
        gridIds.insert(ids.begin(), ids.end());
    }
    std::vector<Tile> out;
    for (const problem::Meta& m : spec.meta) {
        // A tile: named in the grid, or named as Triton names tiles (BLOCK_SIZE, BLOCK_M, TILE_K); not a thread count
        // (used in the launch block) and not a schedule knob such as GROUP_SIZE_M.
        const bool tileName = m.name.rfind("BLOCK", 0) == 0 || m.name.rfind("TILE", 0) == 0;
        if (blockIds.count(m.name) || !(gridIds.count(m.name) || tileName)) {
            continue;
        }
        const std::set<std::string> covered = coveredSizes(spec, m.name, sizes);
        std::vector<int64_t> values = m.allowed.empty() ? std::vector<int64_t>{m.defaultValue} : m.allowed;
        for (int64_t v : values) {
            if (v > 1) {
                out.push_back(
                    {m.name, m.name + " = " + std::to_string(v), covered, std::vector<int64_t>(spec.cases.size(), v)});
            }
        }
    }
    if (!out.empty()) {
        return out;
    }
    // No tile meta-parameter: the threads of a block walk the sizes (e.g. a row of a row-wise kernel).
    const std::set<std::string> covered = coveredSizes(spec, "", sizes);
    std::vector<std::pair<std::string, problem::MetaValues>> settings;
    for (const problem::Meta& m : spec.meta) {
        if (!blockIds.count(m.name)) {
            continue;
        }
        for (int64_t v : m.allowed.empty() ? std::vector<int64_t>{m.defaultValue} : m.allowed) {
            problem::MetaValues meta = defaults;
            meta[m.name] = v;
            settings.emplace_back(m.name + " = " + std::to_string(v), std::move(meta));
        }
    }
    if (settings.empty()) {
        settings.emplace_back("", defaults);
    }
    for (const auto& [label, meta] : settings) {
        Tile t{"", "", covered, {}};
        for (std::size_t c = 0; c < spec.cases.size(); ++c) {
            auto inst = problem::instantiate(spec, spec.cases[c], meta, static_cast<int>(c));
            t.values.push_back(inst ? inst->launch.block[0] * inst->launch.block[1] * inst->launch.block[2] : 0);
        }
        const int64_t threads = t.values.empty() ? 0 : t.values.front();
        t.label = label.empty() ? std::to_string(threads) + " threads per block"
                                : label + " (" + std::to_string(threads) + " threads per block)";
        if (threads > 1) {
            out.push_back(std::move(t));
        }
    }
    return out;
}

void raggedWarnings(const ExerciseSpec& spec, std::vector<SpecWarning>& out)
{
    auto defaults = problem::resolveMeta(spec);
    if (!defaults || spec.cases.empty()) {
        return;
    }
    // Group the tiles that no case makes ragged by meta-parameter (or threads), in spec order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const Tile*>> whole;
    const std::vector<Tile> all = tiles(spec, *defaults);
    for (const Tile& t : all) {
        bool ragged = false;
        for (std::size_t c = 0; c < spec.cases.size() && !ragged; ++c) {
            const int64_t v = t.values[c];
            for (const auto& name : t.covered) {
                const auto it = spec.cases[c].sizes.find(name);
                if (v <= 1 || (it != spec.cases[c].sizes.end() && it->second % v != 0)) {
                    ragged = true;
                }
            }
        }
        if (!ragged) {
            if (!whole.count(t.meta)) {
                order.push_back(t.meta);
            }
            whole[t.meta].push_back(&t);
        }
    }
    for (const std::string& key : order) {
        const auto& group = whole[key];
        const std::set<std::string>& covered = group.front()->covered;
        std::vector<std::string> labels;
        for (const Tile* t : group) {
            labels.push_back(key.empty() ? t->label : std::to_string(t->values.front()));
        }
        const std::string tileText = key.empty() ? joinWords(labels, "or") : key + " = " + joinWords(labels, "or");
        std::vector<std::string> names(covered.begin(), covered.end());
        std::set<int64_t> seen;
        for (const auto& c : spec.cases) {
            for (const auto& name : names) {
                if (auto it = c.sizes.find(name); it != c.sizes.end()) {
                    seen.insert(it->second);
                }
            }
        }
        std::vector<std::string> values;
        for (int64_t v : seen) {
            if (values.size() == 6) {
                values.emplace_back("…");
                break;
            }
            values.push_back(std::to_string(v));
        }
        const int64_t suggestion = seen.empty() ? 1025 : *seen.rbegin() + 1;
        out.push_back({WeakKind::NoRaggedCase, "/cases",
                       "no case has a size that is not a multiple of the block: with " + tileText + ", every " +
                           joinWords(names, "and") + " of the cases (" + joinWords(values, "and") +
                           ") is a whole number of tiles, so a kernel without a mask on the last tile passes; add a "
                           "case such as " +
                           names.front() + " = " + std::to_string(suggestion) + "."});
    }
}

bool canBeNegative(const Generator& g)
{
    switch (g.dist) {
    case problem::Dist::Normal:
        return g.mean < 3 * g.std;
    case problem::Dist::Uniform:
    case problem::Dist::Int:
        return g.low < 0;
    case problem::Dist::Negative:
    case problem::Dist::Large:
        return true;
    case problem::Dist::Arange:
        return g.start < 0 || g.step < 0;
    }
    return true;
}

std::string describe(const Generator& g)
{
    const std::string d(problem::distName(g.dist));
    switch (g.dist) {
    case problem::Dist::Normal:
        return d + " with mean " + num(g.mean) + " and std " + num(g.std);
    case problem::Dist::Uniform:
        return d + " in [" + num(g.low) + ", " + num(g.high) + ")";
    case problem::Dist::Int:
        return d + " in [" + num(g.low) + ", " + num(g.high) + "]";
    case problem::Dist::Arange:
        return d + " from " + num(g.start) + " in steps of " + num(g.step);
    default:
        return d;
    }
}

void negativeWarning(const ExerciseSpec& spec, std::vector<SpecWarning>& out)
{
    int first = -1;
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const problem::Param& p = spec.params[i];
        if (p.kind != problem::ParamKind::Buffer || p.role == problem::Role::Out || !engine::isFloating(p.dtype) ||
            !p.init) {
            continue;
        }
        if (first < 0) {
            first = static_cast<int>(i);
        }
        std::vector<Generator> used{*p.init};
        for (const auto& c : spec.cases) {
            if (auto it = c.init.find(p.name); it != c.init.end()) {
                used.push_back(it->second);
            }
        }
        for (const Generator& g : used) {
            if (canBeNegative(g)) {
                return;
            }
        }
        seen.push_back(p.name + " (" + describe(*p.init) + ")");
    }
    if (first < 0) {
        return; // integer inputs only
    }
    out.push_back({WeakKind::NoNegativeInput, "/params/" + std::to_string(first) + "/init",
                   "no input is ever negative: " + joinWords(seen, "and") +
                       " and every case's overrides draw values ≥ 0, so a max whose masked lanes read 0 instead of "
                       "-inf, or a missing max shift, passes; draw from a distribution with negative values (normal, "
                       "uniform with low < 0) or add a case with \"init\": {\"" +
                       spec.params[static_cast<std::size_t>(first)].name +
                       "\": {\"dist\": \"negative\", \"low\": -50, \"high\": -1}}."});
}

// Why a tolerance above the limit is too loose for dtype t.
std::string looseReason(engine::DType t)
{
    switch (t) {
    case engine::DType::F64:
        return "a kernel that computes in f32 (unit roundoff 6e-8) would pass";
    case engine::DType::F32:
        return "a kernel that computes or accumulates in f16 (unit roundoff 4.9e-4) could pass";
    case engine::DType::F16:
        return "that is more than ten f16 ulps (eps 2^-10 = 9.8e-4) at 1.0, so a wrong accumulation order or a "
               "lost term could pass";
    case engine::DType::BF16:
        return "that is more than ten bf16 ulps (eps 2^-7 = 7.8e-3) at 1.0, so a lost term could pass";
    default:
        return "integer outputs are exact: an off-by-one would pass";
    }
}

// The warnings of one tolerance map, whose JSON pointer is `where` ("/tolerance", "/triton/tolerance").
void toleranceWarnings(const std::map<engine::DType, problem::Tolerance>& tolerance, const std::string& where,
                       std::vector<SpecWarning>& out)
{
    for (const auto& [dtype, tol] : tolerance) {
        // A declared TF32 arithmetic is held to TF32's limit: ten ulps at 1.0, as for f16 (same 10-bit mantissa).
        const bool tf32 = tol.arithmetic == "tf32";
        const double limit = tf32 ? toleranceLimit(engine::DType::F16) : toleranceLimit(dtype);
        const std::string base = where + "/" + std::string(engine::dtypeName(dtype));
        for (const auto& [field, value] : {std::pair<const char*, double>{"atol", tol.atol}, {"rtol", tol.rtol}}) {
            if (value > limit) {
                out.push_back({WeakKind::LooseTolerance, base + "/" + field,
                               std::string(engine::dtypeName(dtype)) + " " + field + " " + num(value) +
                                   " is looser than " + (tf32 ? "TF32 products need" : "the dtype needs") +
                                   " (at most " + num(limit) +
                                   "): " + (tf32 ? looseReason(engine::DType::F16) : looseReason(dtype)) +
                                   "; tighten it (for long reductions scale atol with \"scale\", e.g. \"sqrt(K)\")."});
            }
        }
    }
}

void toleranceWarnings(const ExerciseSpec& spec, std::vector<SpecWarning>& out)
{
    toleranceWarnings(spec.tolerance, "/tolerance", out);
    if (spec.triton) {
        toleranceWarnings(spec.triton->tolerance, "/triton/tolerance", out);
    }
}

} // namespace

std::string weakKindName(WeakKind kind)
{
    switch (kind) {
    case WeakKind::NoRaggedCase:
        return "no-ragged-case";
    case WeakKind::NoNegativeInput:
        return "no-negative-input";
    case WeakKind::LooseTolerance:
        return "loose-tolerance";
    case WeakKind::BugPasses:
        return "bug-passes";
    }
    return "unknown";
}

double toleranceLimit(engine::DType t)
{
    switch (t) {
    case engine::DType::F64:
        return 1e-8;
    case engine::DType::F32:
        return 1e-4;
    case engine::DType::F16:
        return 1e-2;
    case engine::DType::BF16:
        return 8e-2;
    default:
        return 0;
    }
}

std::vector<SpecWarning> weakCaseWarnings(const problem::ExerciseSpec& spec)
{
    std::vector<SpecWarning> out;
    raggedWarnings(spec, out);
    negativeWarning(spec, out);
    toleranceWarnings(spec, out);
    return out;
}

} // namespace tkm::packs
