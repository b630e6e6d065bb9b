#pragma once
// Errors as values for the progress store: every fallible call returns Expected<T> (a T or an Error with context).

#include <string>
#include <utility>
#include <variant>

namespace tkm::progress {

/// What went wrong, coarse enough for a caller to branch on.
enum class ErrorKind {
    Io,       ///< the database file or its folder could not be opened, created or moved
    TooNew,   ///< the database was written by a newer version (schema above kSchemaVersion); left untouched
    Busy,     ///< another process held the database past the busy timeout
    NotFound, ///< a requested row (e.g. a kernel run id) does not exist
    BadInput, ///< a caller passed an invalid value (empty id, runs of different exercises, …)
    Sqlite,   ///< any other SQLite failure
};

/// An error with context: `message` is the sentence for the learner, `detail` the raw SQLite text or call.
struct Error
{
    ErrorKind kind = ErrorKind::Sqlite; ///< coarse class
    std::string message;                ///< one sentence: what is wrong and what to do
    std::string detail;                 ///< optional: the SQLite message, the statement, the path
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

} // namespace tkm::progress
