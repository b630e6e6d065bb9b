#include "engine/compile/compiler.h"

#include "engine/common/hash.h"
#include "engine/common/paths.h"
#include "engine/compile/detail/cubin_cache.h"
#include "engine/compile/detail/nvrtc_child.h"
#include "engine/compile/detail/nvrtc_log.h"
#include "engine/compile/detail/ptxas_limits.h"
#include "engine/compile/detail/signature.h"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <mutex>
#include <regex>

namespace tkm::compile {
namespace {

using engine::ErrorKind;
using engine::makeError;

// libnvrtc dlopens libnvrtc-builtins by bare name, which only works when the loader's search path happens to
// contain it. Loading it first by absolute path with RTLD_GLOBAL makes the later bare-name dlopen find it.
// The handle is kept for the life of the process on purpose.
void preloadBuiltins()
{
    static std::once_flag once;
    std::call_once(once, [] {
        int major = 0;
        int minor = 0;
        ::nvrtcVersion(&major, &minor);
        const std::string versioned = "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
        std::vector<std::filesystem::path> dirs;
        Dl_info info{};
        if (void* sym = dlsym(RTLD_DEFAULT, "nvrtcVersion"); sym && dladdr(sym, &info) && info.dli_fname) {
            dirs.push_back(std::filesystem::path(info.dli_fname).parent_path());
        }
        dirs.push_back(engine::cudaRoot() / "lib64");
        dirs.push_back(engine::cudaRoot() / "targets" / "x86_64-linux" / "lib");
        for (const auto& dir : dirs) {
            for (const auto& name : {versioned, std::string("libnvrtc-builtins.so")}) {
                std::error_code ec;
                const auto path = dir / name;
                if (std::filesystem::exists(path, ec) && dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
                    return;
                }
            }
        }
    });
}

std::string nvrtcCall(const char* call, nvrtcResult r)
{
    return std::string(call) + " failed: " + nvrtcGetErrorString(r);
}

std::string joinOptions(const std::vector<std::string>& options)
{
    std::string s;
    for (const auto& o : options) {
        s += o;
        s += '\n';
    }
    return s;
}

std::string prelude(const CompileRequest& req)
{
    std::string s;
    if (req.includeFp16) {
        s += "#include <cuda_fp16.h>\n";
    }
    if (req.includeBf16) {
        s += "#include <cuda_bf16.h>\n";
    }
    // Everything after this line reports the learner's own file name and line numbers.
    s += "#line 1 \"" + req.sourceName + "\"\n";
    return s;
}

// Replaces the postlude's pseudo-file lines in the raw log so learners never see engine internals.
std::string cleanLog(const std::string& log, const std::vector<Diagnostic>& mapped)
{
    if (log.find(compile::detail::kSignatureFile) == std::string::npos &&
        log.find("__nv_name_map") == std::string::npos) {
        return log;
    }
    std::string s;
    for (const auto& d : mapped) {
        s += d.file + "(" + std::to_string(d.line) + "): " + d.severity + ": " + d.message + "\n";
    }
    return s;
}

Diagnostic stoppedDiagnostic(const CompileRequest& req, bool timedOut)
{
    Diagnostic d;
    d.file = req.sourceName;
    d.severity = "error";
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", req.timeoutS);
    d.message = timedOut ? "compiling took longer than " + std::string(seconds) +
                               " s and was stopped; a macro or template that expands without bound?"
                         : "compiling needed more than " + std::to_string(req.memoryLimitBytes >> 20) +
                               " MiB of memory and was stopped; a macro or template that expands without bound?";
    return d;
}

// Compiles the request again for the virtual architecture (compileKernel's PTX mode: no ptxas) and checks its
// static shared and constant memory against the limits (detail/ptxas_limits.h); empty when nothing is over a
// limit or the PTX compile fails.
std::vector<Diagnostic> explainPtxasFailure(const CompileRequest& req)
{
    CompileRequest ptxRequest = req;
    ptxRequest.ptx = true;
    ptxRequest.useCache = false;
    const auto ptx = compileKernel(ptxRequest);
    if (!ptx || !ptx->ok) {
        return {};
    }
    return detail::resourceDiagnostics(detail::staticVariables(ptx->ptx), req.computeCapability, req.source,
                                       req.sourceName);
}

} // namespace

std::string CompileResult::firstError() const
{
    for (const auto& d : diagnostics) {
        if (d.severity == "error") {
            return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": error: " + d.message;
        }
    }
    return {};
}

engine::Expected<std::string> nvrtcVersion()
{
    int major = 0;
    int minor = 0;
    if (const nvrtcResult r = ::nvrtcVersion(&major, &minor); r != NVRTC_SUCCESS) {
        return makeError(ErrorKind::Nvrtc, "NVRTC is not usable: " + nvrtcCall("nvrtcVersion", r));
    }
    return std::to_string(major) + "." + std::to_string(minor);
}

engine::Expected<CompileResult> compileKernel(const CompileRequest& req)
{
    const auto start = std::chrono::steady_clock::now();
    auto elapsedMs = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    auto version = nvrtcVersion();
    if (!version) {
        return version.error();
    }
    if (req.kernel.empty()) {
        return makeError(ErrorKind::BadInput, "compileKernel: no kernel name given");
    }
    CompileResult result;
    result.nvrtcVersion = *version;
    result.arch = (req.ptx ? "compute_" : "sm_") + std::to_string(req.computeCapability);
    // Checked before NVRTC (and before the cache): a refused source is never read by the compiler.
    if (auto problems = checkSource(req.source, req.sourceName); !problems.empty()) {
        for (const auto& d : problems) {
            result.log += d.file + "(" + std::to_string(d.line) + "): error: " + d.message + "\n";
        }
        result.diagnostics = std::move(problems);
        result.compileMs = elapsedMs();
        return result;
    }
    result.options = {"-arch=" + result.arch, "-lineinfo", "-std=c++17", "-default-device"};
    for (const auto& [name, value] : req.defines) {
        result.options.push_back("-D" + name + "=" + std::to_string(value));
    }
    result.options.insert(result.options.end(), req.extraOptions.begin(), req.extraOptions.end());
    const auto root = engine::cudaRoot();
    std::vector<std::string> all = result.options;
    all.push_back("-I" + (root / "include").string());
    all.push_back("-I" + (root / "include" / "cccl").string());
    if (!req.ptx) {
        all.push_back("--ptxas-options=-v");
    }

    const std::string pre = prelude(req);
    const std::string post =
        req.signature.empty() ? std::string() : detail::signaturePostlude(req.kernel, req.signature);
    const std::string text = pre + req.source + "\n" + post;

    engine::Hasher key;
    key.addField("tkm-cubin/1").addField(text).addField(req.sourceName).addField(req.kernel);
    key.addField(joinOptions(all)).addField(result.nvrtcVersion).addField(result.arch);
    result.cacheKey = key.hex();
    const auto cacheDir = req.cacheDir.empty() ? engine::cacheDir() / "cubin" : req.cacheDir;
    if (req.useCache && !req.ptx) {
        if (auto hit = detail::loadCached(cacheDir, result.cacheKey)) {
            hit->ok = true;
            hit->cached = true;
            hit->arch = result.arch;
            hit->nvrtcVersion = result.nvrtcVersion;
            hit->options = result.options;
            hit->cacheKey = result.cacheKey;
            hit->compileMs = elapsedMs();
            return std::move(*hit);
        }
    }

    preloadBuiltins();
    const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(std::max(0.001, req.timeoutS) * 1000.0));
    detail::NvrtcOutcome out = detail::compileInChild(text, req.sourceName, req.kernel, all, timeout, req.memoryLimitBytes);
    // NVRTC reports its own allocation failure (under the child's limit) as a compile error "out of memory".
    if (out.status == detail::NvrtcOutcome::Status::Done && out.compileResult != NVRTC_SUCCESS &&
        out.log.size() < 256 && out.log.find("out of memory") != std::string::npos) {
        out.status = detail::NvrtcOutcome::Status::Memory;
    }
    if (out.status == detail::NvrtcOutcome::Status::Timeout || out.status == detail::NvrtcOutcome::Status::Memory) {
        result.diagnostics.push_back(stoppedDiagnostic(req, out.status == detail::NvrtcOutcome::Status::Timeout));
        result.log = result.diagnostics.back().file + ": error: " + result.diagnostics.back().message + "\n";
        result.compileMs = elapsedMs();
        return result;
    }
    if (out.status == detail::NvrtcOutcome::Status::ApiFailed) {
        return makeError(ErrorKind::Nvrtc, "NVRTC could not compile the program",
                         out.failedCall + " failed: " + out.failedMessage);
    }
    if (out.status == detail::NvrtcOutcome::Status::Crashed) {
        return makeError(ErrorKind::Nvrtc, "NVRTC stopped without finishing the compile",
                         "the compiling process " + out.failedMessage);
    }
    std::string& log = out.log;
    if (out.logCut) {
        log += "\n[the compiler log was cut at " + std::to_string(detail::kMaxLogBytes >> 20) + " MiB]\n";
    }
    const auto compiled = static_cast<nvrtcResult>(out.compileResult);
    const auto parsed = detail::parseDiagnostics(log);
    result.diagnostics = detail::mapSignatureDiagnostics(parsed, req);
    result.log = cleanLog(log, result.diagnostics);

    if (compiled != NVRTC_SUCCESS) {
        if (compiled != NVRTC_ERROR_COMPILATION) {
            return makeError(ErrorKind::Nvrtc, "NVRTC failed outside of the kernel source",
                             nvrtcCall("nvrtcCompileProgram", compiled) + "\n" + log);
        }
        const bool anyError = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                          [](const Diagnostic& d) { return d.severity == "error"; });
        if (!anyError) {
            // ptxas refused the kernel without an error line (too much shared or constant memory): say which.
            auto resources = explainPtxasFailure(req);
            if (!resources.empty()) {
                result.diagnostics = std::move(resources);
            } else {
                Diagnostic d;
                d.file = req.sourceName;
                d.severity = "error";
                d.message = log.empty() ? std::string("compilation failed without a message") : log;
                result.diagnostics.push_back(std::move(d));
            }
        }
        result.compileMs = elapsedMs();
        return result;
    }
    if (out.lowered.empty()) {
        return makeError(ErrorKind::Nvrtc, "NVRTC did not report the lowered name of " + req.kernel,
                         "nvrtcGetLoweredName gave no name");
    }
    result.loweredName = out.lowered;
    if (req.ptx) {
        result.ptx.assign(out.cubin.begin(), out.cubin.end());
        result.ok = !result.ptx.empty();
        result.compileMs = elapsedMs();
        return result;
    }
    if (out.cubin.empty()) {
        return makeError(ErrorKind::Nvrtc, "NVRTC produced no CUBIN", "nvrtcGetCUBIN gave no bytes");
    }
    result.cubin = std::move(out.cubin);
    result.resources = detail::parseResources(log, result.loweredName);
    result.ok = true;
    if (req.useCache) {
        detail::storeCached(cacheDir, result.cacheKey, result);
    }
    result.compileMs = elapsedMs();
    return result;
}

std::vector<ExpectedParam> signatureFor(const problem::ExerciseSpec& spec)
{
    std::vector<ExpectedParam> sig;
    for (const auto& p : spec.params) {
        ExpectedParam e;
        e.name = p.name;
        e.pointer = p.kind == problem::ParamKind::Buffer;
        e.dtype = p.dtype;
        e.input = e.pointer && p.role == problem::Role::In;
        sig.push_back(std::move(e));
    }
    return sig;
}

std::vector<ExpectedParam> referenceSignatureFor(const problem::ExerciseSpec& spec)
{
    auto sig = signatureFor(spec);
    for (auto& p : sig) {
        if (p.pointer) {
            p.dtype = engine::referenceDType(p.dtype);
        }
    }
    return sig;
}

CompileRequest learnerRequest(const problem::ExerciseSpec& spec, const problem::MetaValues& meta, std::string source,
                              std::string sourceName, int computeCapability)
{
    CompileRequest req;
    req.source = std::move(source);
    req.sourceName = std::move(sourceName);
    req.kernel = spec.kernel;
    req.computeCapability = computeCapability;
    req.defines = meta;
    req.signature = signatureFor(spec);
    for (const auto& p : spec.params) {
        req.includeFp16 = req.includeFp16 || p.dtype == engine::DType::F16;
        req.includeBf16 = req.includeBf16 || p.dtype == engine::DType::BF16;
    }
    return req;
}

engine::Expected<CompileRequest> referenceRequest(const problem::ExerciseSpec& spec, int computeCapability)
{
    auto source = engine::readTextFile(spec.path(spec.reference.file));
    if (!source) {
        return source.error();
    }
    CompileRequest req;
    req.source = std::move(source).value();
    req.sourceName = spec.reference.file;
    req.kernel = spec.reference.kernel;
    req.computeCapability = computeCapability;
    req.signature = referenceSignatureFor(spec);
    return req;
}

} // namespace tkm::compile
