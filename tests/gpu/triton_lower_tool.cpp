// tkm-triton-lower: parses, checks and lowers one Triton kernel file and compiles it with NVRTC (no GPU
// needed), for scripts/triton-compare and for reading the generated code. Writes <out>/<stem>.cu, .cubin and
// .json (entry name, threads per block, ptxas figures, and the front end's time: parse + check + lower, median
// of 21 repeats [ms] — the issue's ≤ 10 ms target is read from it).
//
//   tkm-triton-lower --file kernel.py --entry NAME --param f32* --param i32 … [--const NAME=INT …]
//                    [--spec NAME=16|1 …] [--num-warps N] [--num-stages S] [--floor 1] --out DIR [--stem STEM]
//                    [--cu FILE]
//
// A --param is a runtime parameter's type in signature order: "f32*" a pointer to f32, "i32" an int32 scalar
// (f16, bf16, f32, f64, i8, i16, i32, i64, u8, …); --floor 1 turns the lowering's fast paths off. Exit status 0 when the kernel compiled, 1 otherwise
// (the diagnostics on stderr), 2 for bad arguments. --cu FILE compiles that CUDA file in place of the lowering's
// output (the .py is still lowered, for its entry and threads): a hand-edited lowering timed through the same
// NVRTC path, to try a change of the lowering before writing it.

#include "tests/triton/triton_test_util.h"

#include "engine/compile/compiler.h"
#include "engine/triton/lower/lower.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace ir = tkm::triton::ir;
using tkm::triton::ConstexprValue;

std::optional<ir::Elem> elemOf(const std::string& s)
{
    static const std::pair<const char*, ir::Elem> table[] = {
        {"i1", ir::Elem::I1},   {"i8", ir::Elem::I8},   {"i16", ir::Elem::I16}, {"i32", ir::Elem::I32},
        {"i64", ir::Elem::I64}, {"u8", ir::Elem::U8},   {"u16", ir::Elem::U16}, {"u32", ir::Elem::U32},
        {"u64", ir::Elem::U64}, {"f16", ir::Elem::F16}, {"bf16", ir::Elem::BF16}, {"f32", ir::Elem::F32},
        {"f64", ir::Elem::F64}};
    for (const auto& [name, e] : table) {
        if (s == name) {
            return e;
        }
    }
    return std::nullopt;
}

struct Args
{
    std::string file, entry, out, stem, cu;
    bool floor = false;
    tkm::triton::CheckInput input;
};

/// Parses argv into `a`; an error sentence, or "" when the arguments are complete.
std::string parseArgs(int argc, char** argv, Args& a)
{
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (i + 1 >= argc) {
            return "missing value after " + k;
        }
        const std::string v = argv[++i];
        const auto eq = v.find('=');
        if (k == "--file") {
            a.file = v;
        } else if (k == "--entry") {
            a.entry = v;
        } else if (k == "--out") {
            a.out = v;
        } else if (k == "--cu") {
            a.cu = v;
        } else if (k == "--stem") {
            a.stem = v;
        } else if (k == "--num-warps") {
            a.input.numWarps = std::stoi(v);
        } else if (k == "--num-stages") {
            a.input.numStages = std::stoi(v);
        } else if (k == "--param") {
            const bool ptr = !v.empty() && v.back() == '*';
            const auto e = elemOf(ptr ? v.substr(0, v.size() - 1) : v);
            if (!e) {
                return "unknown type '" + v + "'";
            }
            a.input.runtimeParamTypes.push_back(ptr ? ir::Type{ir::Elem::Ptr, {}, *e} : ir::Type{*e, {}, ir::Elem::F32});
        } else if (k == "--const" && eq != std::string::npos) {
            a.input.constexprs[v.substr(0, eq)] = ConstexprValue::ofInt(std::stoll(v.substr(eq + 1)));
        } else if (k == "--floor") {
            a.floor = v == "1";
        } else if (k == "--spec" && eq != std::string::npos) {
            a.input.specialisation[v.substr(0, eq)] = v.substr(eq + 1);
        } else {
            return "unknown argument " + k;
        }
    }
    if (a.file.empty() || a.entry.empty() || a.out.empty()) {
        return "--file, --entry and --out are required";
    }
    if (a.stem.empty()) {
        a.stem = a.entry;
    }
    a.input.entry = a.entry;
    return {};
}

} // namespace

int main(int argc, char** argv)
{
    Args a;
    if (const std::string bad = parseArgs(argc, argv, a); !bad.empty()) {
        std::cerr << "tkm-triton-lower: " << bad << "\n";
        return 2;
    }
    std::ifstream in(a.file);
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    tkm::triton::lower::LowerOptions o;
    o.kernelName = "tkm_kernel";
    o.fileName = std::filesystem::path(a.file).filename().string();
    o.fastPaths = !a.floor;
    // the front end's time: parse + check + lower, as a warm process sees it
    std::vector<double> ms;
    tkm::triton::lower::Lowered l;
    for (int rep = 0; rep < 21; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        auto c = tkm::triton::test::compile(source, a.input);
        if (!c.checked.function) {
            std::cerr << tkm::triton::test::diagnosticsText(c);
            return 1;
        }
        l = tkm::triton::lower::lower(*c.checked.function, o);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const int threads = 32 * std::max(1, a.input.numWarps);
    std::filesystem::create_directories(a.out);
    const std::filesystem::path base = std::filesystem::path(a.out) / a.stem;
    if (!a.cu.empty()) {
        std::ifstream cu(a.cu);
        if (!cu) {
            std::cerr << "tkm-triton-lower: cannot read " << a.cu << "\n";
            return 2;
        }
        l.source.assign((std::istreambuf_iterator<char>(cu)), std::istreambuf_iterator<char>());
    }
    std::ofstream(base.string() + ".cu") << l.source;
    tkm::compile::CompileRequest req;
    req.source = l.source;
    req.sourceName = o.fileName + ".cu";
    req.kernel = o.kernelName;
    req.computeCapability = 90;
    req.useCache = false;
    auto r = tkm::compile::compileKernel(req);
    if (!r.ok() || !r->ok) {
        std::cerr << "nvrtc: " << (r.ok() ? r->log : r.error().message) << "\n";
        return 1;
    }
    std::ofstream(base.string() + ".cubin", std::ios::binary).write(r->cubin.data(), static_cast<std::streamsize>(r->cubin.size()));
    std::ostringstream j;
    j << "{\"kernel\": \"" << r->loweredName << "\", \"threads\": " << threads << ", \"registers\": "
      << r->resources.registers << ", \"spill_bytes\": " << r->resources.spillStoresBytes + r->resources.spillLoadsBytes
      << ", \"shared_bytes\": " << r->resources.sharedBytes << ", \"front_ms\": " << ms[ms.size() / 2]
      << ", \"nvrtc_ms\": " << r->compileMs << "}\n";
    std::ofstream(base.string() + ".json") << j.str();
    std::cout << j.str();
    return 0;
}
