#pragma once
// Errors as values: every fallible engine call returns Expected<T> (a T or an Error with context).

#include "engine/common/expected.h"

#include <string>
#include <string_view>

namespace tkm::engine {

/// What went wrong, coarse enough for a caller to branch on; the run report's `error.kind` uses errorKindName().
enum class ErrorKind {
    BadSpec,    ///< exercise.json is malformed or refers to missing files
    BadInput,   ///< a caller passed an invalid value (unknown meta-parameter, size 0, …)
    Expression, ///< an expression failed to parse or evaluate
    Io,         ///< a file could not be read or written
    Nvrtc,      ///< NVRTC could not be loaded or failed outside of the learner's code
    NoGpu,      ///< no NVIDIA GPU present
    NoDriver,   ///< libcuda.so.1 missing
    Cuda,       ///< a CUDA driver call failed
    Internal,   ///< a bug in the engine
};

/// Stable lower-case name of a kind, e.g. "bad-spec", "no-gpu" (run-report `error.kind`).
std::string_view errorKindName(ErrorKind kind);

/// An error with context: `message` is the sentence for the learner, `detail` optional raw text (a log, a call).
struct Error
{
    ErrorKind kind = ErrorKind::Internal; ///< coarse class
    std::string message;                  ///< one sentence: what is wrong and what to do
    std::string detail;                   ///< optional: the failing call, a raw log, …
};

/// Either a value or an Error: the project's one value-or-error type (engine/common/expected.h) with the
/// engine's Error. Construct from a T or an Error; Expected<void> is success-or-error.
template <class T> using Expected = BasicExpected<T, Error>;

/// Shorthand for a successful Expected<void>.
using Status = Expected<void>;

/// Builds an Error (handy in return statements: `return makeError(ErrorKind::Io, "…");`).
Error makeError(ErrorKind kind, std::string message, std::string detail = {});

} // namespace tkm::engine
