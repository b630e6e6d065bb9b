#include "engine/compile/compiler.h"

#include "engine/common/hash.h"
#include "engine/common/paths.h"
#include "engine/compile/detail/cubin_cache.h"
#include "engine/compile/detail/nvrtc_log.h"
#include "engine/compile/detail/signature.h"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <mutex>
#include <regex>

namespace tkm::compile {
namespace {

using engine::ErrorKind;
using engine::makeError;

// Owns an nvrtcProgram.
class Program
{
public:
    Program() = default;
    ~Program()
    {
        if (m_prog) {
            nvrtcDestroyProgram(&m_prog);
        }
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    nvrtcProgram* out() { return &m_prog; }
    nvrtcProgram get() const { return m_prog; }

private:
    nvrtcProgram m_prog = nullptr;
};

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
    result.arch = "sm_" + std::to_string(req.computeCapability);
    result.options = {"-arch=" + result.arch, "-lineinfo", "-std=c++17", "-default-device"};
    for (const auto& [name, value] : req.defines) {
        result.options.push_back("-D" + name + "=" + std::to_string(value));
    }
    result.options.insert(result.options.end(), req.extraOptions.begin(), req.extraOptions.end());
    const auto root = engine::cudaRoot();
    std::vector<std::string> all = result.options;
    all.push_back("-I" + (root / "include").string());
    all.push_back("-I" + (root / "include" / "cccl").string());
    all.push_back("--ptxas-options=-v");

    const std::string pre = prelude(req);
    const std::string post =
        req.signature.empty() ? std::string() : detail::signaturePostlude(req.kernel, req.signature);
    const std::string text = pre + req.source + "\n" + post;

    engine::Hasher key;
    key.addField("tkm-cubin/1").addField(text).addField(req.sourceName).addField(req.kernel);
    key.addField(joinOptions(all)).addField(result.nvrtcVersion).addField(result.arch);
    result.cacheKey = key.hex();
    const auto cacheDir = req.cacheDir.empty() ? engine::cacheDir() / "cubin" : req.cacheDir;
    if (req.useCache) {
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
    Program prog;
    if (const nvrtcResult r = nvrtcCreateProgram(prog.out(), text.c_str(), req.sourceName.c_str(), 0, nullptr, nullptr);
        r != NVRTC_SUCCESS) {
        return makeError(ErrorKind::Nvrtc, "NVRTC could not create a program", nvrtcCall("nvrtcCreateProgram", r));
    }
    if (const nvrtcResult r = nvrtcAddNameExpression(prog.get(), req.kernel.c_str()); r != NVRTC_SUCCESS) {
        return makeError(ErrorKind::Nvrtc, "NVRTC rejected the kernel name " + req.kernel,
                         nvrtcCall("nvrtcAddNameExpression", r));
    }
    std::vector<const char*> argv;
    for (const auto& o : all) {
        argv.push_back(o.c_str());
    }
    const nvrtcResult compiled = nvrtcCompileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());
    std::size_t logSize = 0;
    nvrtcGetProgramLogSize(prog.get(), &logSize);
    std::string log(logSize, '\0');
    if (logSize > 0) {
        nvrtcGetProgramLog(prog.get(), log.data());
        log.resize(std::strlen(log.c_str()));
    }
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
            Diagnostic d;
            d.file = req.sourceName;
            d.severity = "error";
            d.message = log.empty() ? std::string("compilation failed without a message") : log;
            result.diagnostics.push_back(std::move(d));
        }
        result.compileMs = elapsedMs();
        return result;
    }
    const char* lowered = nullptr;
    if (const nvrtcResult r = nvrtcGetLoweredName(prog.get(), req.kernel.c_str(), &lowered);
        r != NVRTC_SUCCESS || !lowered) {
        return makeError(ErrorKind::Nvrtc, "NVRTC did not report the lowered name of " + req.kernel,
                         nvrtcCall("nvrtcGetLoweredName", r));
    }
    result.loweredName = lowered;
    std::size_t cubinSize = 0;
    if (const nvrtcResult r = nvrtcGetCUBINSize(prog.get(), &cubinSize); r != NVRTC_SUCCESS || cubinSize == 0) {
        return makeError(ErrorKind::Nvrtc, "NVRTC produced no CUBIN", nvrtcCall("nvrtcGetCUBINSize", r));
    }
    result.cubin.resize(cubinSize);
    if (const nvrtcResult r = nvrtcGetCUBIN(prog.get(), result.cubin.data()); r != NVRTC_SUCCESS) {
        return makeError(ErrorKind::Nvrtc, "NVRTC could not return the CUBIN", nvrtcCall("nvrtcGetCUBIN", r));
    }
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
