#pragma once
// Errors as values: every fallible engine call returns Expected<T> (a T or an Error with context).

#include <string>
#include <string_view>
#include <utility>
#include <variant>

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

/// Either a value or an Error (C++20 stand-in for std::expected). Construct from a T or an Error.
template <class T> class Expected
{
public:
    Expected(T value) : m_v(std::in_place_index<0>, std::move(value)) {}     ///< success
    Expected(Error error) : m_v(std::in_place_index<1>, std::move(error)) {} ///< failure

    bool ok() const { return m_v.index() == 0; }            ///< true when a value is held
    explicit operator bool() const { return ok(); }         ///< same as ok()
    T& value() & { return std::get<0>(m_v); }               ///< the value (precondition: ok())
    const T& value() const& { return std::get<0>(m_v); }    ///< the value (precondition: ok())
    T&& value() && { return std::get<0>(std::move(m_v)); }  ///< the value, moved out
    T& operator*() & { return value(); }                    ///< the value
    const T& operator*() const& { return value(); }         ///< the value
    T* operator->() { return &value(); }                    ///< member access to the value
    const T* operator->() const { return &value(); }        ///< member access to the value
    const Error& error() const { return std::get<1>(m_v); } ///< the error (precondition: !ok())

private:
    std::variant<T, Error> m_v;
};

/// Success-or-error for calls that return nothing.
template <> class Expected<void>
{
public:
    Expected() = default;                                                ///< success
    Expected(Error error) : m_error(std::move(error)), m_failed(true) {} ///< failure
    bool ok() const { return !m_failed; }                                ///< true on success
    explicit operator bool() const { return ok(); }                      ///< same as ok()
    const Error& error() const { return m_error; }                       ///< the error (precondition: !ok())

private:
    Error m_error;
    bool m_failed = false;
};

/// Shorthand for a successful Expected<void>.
using Status = Expected<void>;

/// Builds an Error (handy in return statements: `return makeError(ErrorKind::Io, "…");`).
Error makeError(ErrorKind kind, std::string message, std::string detail = {});

} // namespace tkm::engine
