#pragma once
// NVRTC compiler for learner, solution, bug and reference kernels: CUBIN for a real architecture, -lineinfo,
// meta-parameters as -D defines, a signature check against the spec at compile time, diagnostics on the
// learner's own line numbers, ptxas resource usage, and a CUBIN disk cache.
//
// No GPU is needed: with no device the caller passes the default compute capability (kDefaultCc = 90).
// libnvrtc-builtins is preloaded by absolute path (RTLD_GLOBAL) before the first NVRTC call.

#include "engine/common/dtype.h"
#include "engine/common/error.h"
#include "engine/problem/instance.h"
#include "engine/problem/spec.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::compile {

/// Compute capability used when there is no GPU (sm_90, the H200's).
inline constexpr int kDefaultCc = 90;
/// Largest kernel source compileKernel() accepts [bytes]; exercise kernels are a few KiB.
inline constexpr std::size_t kMaxSourceBytes = 256 * 1024;
/// Longest one NVRTC compilation may take before it is stopped [s] (a normal one takes 0.2–5 s).
inline constexpr double kDefaultCompileTimeoutS = 30.0;
/// Address space one NVRTC compilation may use before it is stopped [bytes] (a normal one needs under 1 GiB).
inline constexpr std::size_t kDefaultCompileMemoryBytes = std::size_t(6) << 30;

/// One compiler message, on the learner's own file and line numbers.
struct Diagnostic
{
    std::string file;     ///< source name (e.g. "kernel.cu"); "<signature-check>" never appears: mapped back
    int line = 0;         ///< 1-based; 0 when unknown
    int column = 0;       ///< 1-based; 0 when unknown
    std::string severity; ///< "error", "warning", "remark" or "note"
    std::string message;  ///< text after "error: "
};

/// Resource usage reported by ptxas (-v) for the entry kernel.
struct Resources
{
    bool known = false;           ///< false when the log had no ptxas info line for the kernel
    int registers = 0;            ///< per thread
    int64_t sharedBytes = 0;      ///< static shared memory [bytes]
    int64_t localBytes = 0;       ///< stack frame [bytes]
    int64_t spillStoresBytes = 0; ///< [bytes]
    int64_t spillLoadsBytes = 0;  ///< [bytes]
    int64_t constantBytes = 0;    ///< cmem[0] (kernel parameters) [bytes]
};

/// What a kernel parameter must be (from the spec); see signatureFor().
struct ExpectedParam
{
    std::string name;                         ///< spec name
    bool pointer = true;                      ///< buffer (pointer to dtype) or scalar (dtype by value)
    engine::DType dtype = engine::DType::F32; ///< element or scalar type
    bool input = false;                       ///< buffer the kernel only reads (role in): messages suggest `const T*`
};

/// One compilation.
struct CompileRequest
{
    std::string source;                     ///< the kernel text, exactly as the learner wrote it
    std::string sourceName = "kernel.cu";   ///< file name used in diagnostics
    std::string kernel;                     ///< entry point name (extern "C" or C++ linkage)
    int computeCapability = kDefaultCc;     ///< major·10 + minor, e.g. 90 → -arch=sm_90
    std::map<std::string, int64_t> defines; ///< -DNAME=value (meta-parameters)
    std::vector<ExpectedParam> signature;   ///< checked when non-empty
    bool includeFp16 = false;               ///< prepend #include <cuda_fp16.h>
    bool includeBf16 = false;               ///< prepend #include <cuda_bf16.h>
    bool useCache = true;                   ///< read/write the CUBIN cache
    std::filesystem::path cacheDir;         ///< empty: engine::cacheDir() / "cubin"
    std::vector<std::string> extraOptions;  ///< appended to the option list (tests, experiments)
    bool ptx = false;                       ///< produce PTX for the virtual compute_XX instead of a CUBIN (no cache)
    double timeoutS = kDefaultCompileTimeoutS; ///< [s] NVRTC runs in a child process that is killed after this
    std::size_t memoryLimitBytes = kDefaultCompileMemoryBytes; ///< [bytes] address space of that child
};

/// Result of a compilation. `ok == false` with diagnostics is a learner error, not an engine Error.
struct CompileResult
{
    bool ok = false;                     ///< CUBIN produced and the signature matches
    std::string arch;                    ///< "sm_90"
    std::string nvrtcVersion;            ///< "13.0"
    bool cached = false;                 ///< CUBIN came from the disk cache (log/diagnostics/resources too)
    double compileMs = 0;                ///< wall time of this call [ms] (a cache hit is a few ms)
    std::vector<std::string> options;    ///< options shown to the learner (without include paths)
    std::vector<Diagnostic> diagnostics; ///< parsed from the log; errors first as NVRTC printed them
    std::string log;                     ///< NVRTC log with prelude/postlude lines mapped to the source name
    Resources resources;                 ///< ptxas -v figures for the entry kernel
    std::vector<char> cubin;             ///< the CUBIN (ELF) when ok
    std::string ptx;                     ///< the PTX when ok and the request asked for PTX (`.loc` line info)
    std::string loweredName;             ///< mangled entry name to pass to cuModuleGetFunction
    std::string cacheKey;                ///< 32 hex digits

    /// The first error diagnostic formatted "file:line:column: error: message", or "" when none.
    std::string firstError() const;
};

/// Compiles. Engine Error (kind Nvrtc) only when NVRTC itself cannot be used (library missing, out of memory);
/// a learner's compile error or signature mismatch is a CompileResult with ok == false and diagnostics. So are a
/// source that fails checkSource() (NVRTC never sees it) and a compile stopped at `timeoutS` or at
/// `memoryLimitBytes`, each with one sentence that says so.
engine::Expected<CompileResult> compileKernel(const CompileRequest& request);

/// What a kernel source must satisfy before NVRTC reads it: at most kMaxSourceBytes, UTF-8 text, and #include
/// only of the toolkit headers the engine provides (`<cuda_fp16.h>`, `<cuda_bf16.h>`, `<cuda_fp8.h>`,
/// `<cooperative_groups.h>`, `<cuda_pipeline.h>`, `<mma.h>`, `<assert.h>`, `<cassert>`, `<cuda/…>`,
/// `<cooperative_groups/…>`, `<cub/…>`): NVRTC would read any file an #include names and echo it into the log.
/// One error Diagnostic (with line and column) per problem; empty when the source may be compiled.
std::vector<Diagnostic> checkSource(std::string_view source, const std::string& sourceName);

/// NVRTC version "major.minor", or an Error when libnvrtc is unusable.
engine::Expected<std::string> nvrtcVersion();

/// The signature a learner's kernel must have: the spec's params with their learner dtypes.
std::vector<ExpectedParam> signatureFor(const problem::ExerciseSpec& spec);
/// The reference kernel's signature: floating buffers become double*, integers and scalars unchanged.
std::vector<ExpectedParam> referenceSignatureFor(const problem::ExerciseSpec& spec);

/// A ready request for a learner/solution/bug source: kernel name, meta defines, signature, fp16/bf16 includes.
CompileRequest learnerRequest(const problem::ExerciseSpec& spec, const problem::MetaValues& meta, std::string source,
                              std::string sourceName, int computeCapability = kDefaultCc);
/// A ready request for the spec's reference kernel (no meta defines; source read from disk).
engine::Expected<CompileRequest> referenceRequest(const problem::ExerciseSpec& spec,
                                                  int computeCapability = kDefaultCc);

} // namespace tkm::compile
