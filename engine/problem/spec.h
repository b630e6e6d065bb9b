#pragma once
// The exercise spec (exercise.json) as data, and its parser/validator. The format is docs/exercise-spec.md;
// every rule written there is enforced here, with errors that name the file, the JSON pointer and the problem:
//   exercise.json: /params/2/role: "output" is not one of in, out, inout

#include "engine/common/dtype.h"
#include "engine/common/error.h"
#include "engine/report/verdict.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::problem {

using engine::DType;

/// Buffer role: `in` generated and read-only, `out` poisoned and checked, `inout` generated and checked.
enum class Role { In, Out, InOut };
/// Parameter kind.
enum class ParamKind { Buffer, Scalar };
/// Input distribution of a generator (docs/exercise-spec.md, "generator").
enum class Dist { Normal, Uniform, Negative, Large, Int, Arange };
/// Storage layout of a buffer in one case.
enum class LayoutKind { Contiguous, Transposed, Padded };

/// "in", "out", "inout".
std::string_view roleName(Role r);
/// "normal", "uniform", "negative", "large", "int", "arange".
std::string_view distName(Dist d);
/// "contiguous", "transposed", "padded".
std::string_view layoutName(LayoutKind k);

/// An input generator. Only the fields of its `dist` are meaningful; defaults are those of the spec.
struct Generator
{
    Dist dist = Dist::Normal; ///< distribution
    double mean = 0;          ///< normal
    double std = 1;           ///< normal (> 0, or mean != 0)
    double low = 0;           ///< uniform, negative, int (inclusive for int)
    double high = 0;          ///< uniform (exclusive), negative (exclusive), int (inclusive)
    double magnitude = 0;     ///< large: |value| uniform in [magnitude/2, magnitude], random sign
    double start = 0;         ///< arange
    double step = 1;          ///< arange
};

/// A kernel parameter: a buffer or a scalar, in the kernel's order.
struct Param
{
    std::string name;                   ///< C identifier, unique
    ParamKind kind = ParamKind::Buffer; ///< buffer or scalar
    DType dtype = DType::F32;           ///< element type (scalars: i32, i64, f32, f64)
    std::vector<std::string> shape;     ///< buffers: 1–4 expressions
    Role role = Role::In;               ///< buffers
    std::optional<Generator> init;      ///< buffers with role in/inout (required there, absent on out)
    std::string value;                  ///< scalars: expression
};

/// A meta-parameter (Triton's tl.constexpr), passed to the compiler as -DNAME=value.
struct Meta
{
    std::string name;             ///< C identifier
    int64_t defaultValue = 0;     ///< default (in `allowed` when that is given)
    std::vector<int64_t> allowed; ///< empty: any integer
};

/// Launch configuration as expressions.
struct LaunchSpec
{
    std::vector<std::string> grid;  ///< 1–3 expressions (programs per dimension)
    std::vector<std::string> block; ///< 1–3 expressions (threads per dimension)
    std::string sharedBytes = "0";  ///< dynamic shared memory [bytes]
};

/// Storage layout of one buffer in one case.
struct Layout
{
    LayoutKind kind = LayoutKind::Contiguous; ///< layout
    std::string pad = "0";                    ///< padded: extra elements after each row (expression)
};

/// One correctness case (or the performance case).
struct Case
{
    std::string name;                      ///< shown to the learner
    std::map<std::string, int64_t> sizes;  ///< size variables (each ≥ 1)
    uint64_t seed = 0;                     ///< given or derived (see seedGiven)
    bool seedGiven = false;                ///< false: seed = Hasher(id, case index).low64()
    std::map<std::string, Layout> layouts; ///< per buffer, default contiguous
    std::map<std::string, Generator> init; ///< per-buffer generator overrides
};

/// Tolerance for one dtype: |got − ref| ≤ atol·scale + rtol·|ref|.
struct Tolerance
{
    double atol = 0;   ///< absolute
    double rtol = 0;   ///< relative
    std::string scale; ///< expression multiplying atol (e.g. "sqrt(K)"); empty: 1
    /// "tf32" (f32 only): the tolerance admits TF32 tensor-core products (10-bit mantissa, eps 2^-10), so the
    /// weak-case check measures it against TF32's limit, not f32's; empty: the dtype's own arithmetic.
    std::string arithmetic;
};

/// The float64 reference kernel and its own launch.
struct ReferenceSpec
{
    std::string file;   ///< relative path
    std::string kernel; ///< entry point
    LaunchSpec launch;  ///< its grid/block/shared_bytes (no meta-parameters in scope)
};

/// Diagnosis a bug variant must get (docs/exercise-spec.md, "bug").
struct BugExpect
{
    report::Verdict verdict = report::Verdict::Fail; ///< fail, fault, timeout, compile_error
    std::string fault;    ///< faults: read-past-end, write-past-end, read-before-start, write-before-start, misaligned,
                          ///< trap, unknown
    std::string buffer;   ///< faults: parameter name
    std::string caseName; ///< fail: optional first failing case
    std::string reason;   ///< fail: optional mismatch, nan, unwritten, nondeterministic
};

/// A bug variant.
struct Bug
{
    std::string file;  ///< relative path
    std::string title; ///< one line
    BugExpect expect;  ///< required diagnosis
    /// Replaces the spec's reset_to_zero list for this variant when set (e.g. the solution tuned without it).
    std::optional<std::vector<std::string>> resetToZero;
};

/// A temporary buffer of a "kernels" baseline.
struct BaselineTemp
{
    std::string name;               ///< identifier
    DType dtype = DType::F32;       ///< element type
    std::vector<std::string> shape; ///< expressions
};

/// One launch of a "kernels" baseline.
struct BaselineLaunch
{
    std::string kernel;            ///< entry point in the baseline file
    std::vector<std::string> args; ///< parameter names, temp names or expressions
    LaunchSpec launch;             ///< grid/block/shared_bytes
};

/// A baseline measured side by side (issue "Engine, part 2").
struct Baseline
{
    std::string name;                        ///< shown in the report
    std::string kind;                        ///< "kernels" or "cublas_gemm"
    std::string file;                        ///< kernels: relative path
    std::vector<BaselineTemp> temps;         ///< kernels
    std::vector<BaselineLaunch> launches;    ///< kernels
    std::map<std::string, std::string> gemm; ///< cublas_gemm: a, b, c, m, n, k, dtype
};

/// Autotune section (as @triton.autotune).
struct Autotune
{
    std::vector<std::string> key;                       ///< size names the winner is keyed on
    std::vector<std::map<std::string, int64_t>> shapes; ///< sizes to time each configuration on
    int minConfigs = 1;                                 ///< fewest configurations the learner lists
    /// The learner must declare the spec's reset_to_zero outputs when tuning (JSON "declare_reset_to_zero"):
    /// in a tuning job only the outputs the job declares are zeroed between the autotuner's repeated launches,
    /// as @triton.autotune(reset_to_zero=[…]) does; false: the engine zeroes the spec's list itself.
    bool declareResetToZero = false;
};

/// A constexpr value of the Triton track (JSON "triton"/"meta"): a number or bool as written, an expression over
/// the case's sizes evaluated per case (a JSON string), or a string constexpr (JSON {"str": "leaky_relu"}).
struct TritonMeta
{
    enum class Kind { Int, Float, Bool, Expr, Str };
    Kind kind = Kind::Int;  ///< which field holds the value
    int64_t intValue = 0;   ///< Int
    double floatValue = 0;  ///< Float
    bool boolValue = false; ///< Bool
    std::string text;       ///< Expr: the expression (muparser, sizes in scope); Str: the string
};

/// The Triton reference kernel of the Triton track (float buffers arrive as fp64 pointers).
struct TritonReference
{
    std::string file;                         ///< relative path of a .py file
    std::string kernel;                       ///< @triton.jit entry
    std::vector<std::string> grid;            ///< 1–3 expressions over the sizes
    std::vector<std::string> params;          ///< spec params bound by position (empty: all, in order)
    std::map<std::string, TritonMeta> meta;   ///< its constexprs
};

/// The Triton track of an exercise (JSON "triton", docs/exercise-spec.md "Triton track"): the same params, cases,
/// launch grid and checks as the CUDA track; kernels are @triton.jit functions in .py files.
struct TritonTrack
{
    std::string kernel;                     ///< entry point (default: the spec's kernel)
    std::vector<std::string> params;        ///< spec params bound by position to the runtime parameters (empty: all)
    std::map<std::string, TritonMeta> meta; ///< extra constexprs of this track
    std::string starter;                    ///< relative path (.py)
    std::string solution;                   ///< relative path (.py)
    std::string prompt;                     ///< relative path of the Markdown prompt for this track; empty: none
    std::vector<std::string> hints;         ///< Markdown hints of this track, shown one at a time
    TritonReference reference;              ///< float64 judge in Triton
    std::vector<Bug> bugs;                  ///< Triton bug variants
    /// The track's own tolerance per output dtype, replacing the spec's for Triton jobs (empty: the spec's). For
    /// an exercise whose CUDA solution may use a faster, less exact arithmetic than the Triton track asks for
    /// (attention-fwd: TF32 tensor cores in CUDA, input_precision="ieee" in Triton).
    std::map<DType, Tolerance> tolerance;
};

/// A second, simpler solution shown as the first step towards the fast one (e.g. CUDA cores before tensor cores).
/// Validated like the solution: it must pass every case.
struct FirstStep
{
    std::string file;  ///< relative path of the CUDA source
    std::string title; ///< what makes it a first step, shown in the app and the verdict table
};

/// A parsed, validated exercise.json.
struct ExerciseSpec
{
    std::filesystem::path dir;            ///< the exercise folder (absolute when loaded from disk)
    int format = 1;                       ///< spec format version
    std::string id;                       ///< [a-z0-9-]+
    std::string title;                    ///< shown in the app
    std::string kernel;                   ///< learner's entry point
    std::string prompt;                   ///< relative path
    std::string starter;                  ///< relative path
    std::string solution;                 ///< relative path
    std::optional<FirstStep> firstStep;   ///< the labelled first-step solution, when the exercise has one
    ReferenceSpec reference;              ///< float64 judge
    std::vector<std::string> hints;       ///< shown one at a time
    std::vector<Param> params;            ///< kernel parameters in order
    std::vector<Meta> meta;               ///< meta-parameters
    LaunchSpec launch;                    ///< learner's launch
    std::vector<Case> cases;              ///< correctness cases (≥ 1)
    std::optional<Case> performance;      ///< timed case
    std::map<DType, Tolerance> tolerance; ///< per output dtype
    std::string idealBytes;               ///< expression [bytes]; empty when absent
    std::string flops;                    ///< expression [FLOP]; empty when absent
    std::vector<Bug> bugs;                ///< bug variants
    std::vector<Baseline> baselines;      ///< side-by-side baselines
    std::vector<std::string> resetToZero; ///< outputs zeroed instead of poisoned
    std::optional<Autotune> autotune;     ///< autotune section
    std::optional<TritonTrack> triton;    ///< the Triton track, when the exercise has one

    /// The parameter named `name`, or nullptr.
    const Param* findParam(std::string_view name) const;
    /// Index of the parameter named `name`, or -1.
    int paramIndex(std::string_view name) const;
    /// Absolute path of a spec-relative file (dir / rel).
    std::filesystem::path path(std::string_view rel) const;
};

/// Options of parseSpec().
struct ParseOptions
{
    bool checkFiles = true;                  ///< every referenced file must exist under dir
    std::string fileLabel = "exercise.json"; ///< how errors name the file
};

/// Parses and validates exercise.json text. `dir` is the exercise folder (files are checked against it).
/// Errors: kind BadSpec, message "<fileLabel>: <json pointer>: <what is wrong>"; the first problem found.
engine::Expected<ExerciseSpec> parseSpec(std::string_view json, const std::filesystem::path& dir,
                                         const ParseOptions& options = {});

/// Reads `<dir>/exercise.json` and parses it (dir is made absolute). Io errors name the path.
engine::Expected<ExerciseSpec> loadSpec(const std::filesystem::path& dir);

} // namespace tkm::problem
