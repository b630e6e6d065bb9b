#pragma once
// Errors as values for the progress store: every fallible call returns Expected<T> (a T or an Error with context).

#include "engine/common/expected.h"

#include <string>

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

/// Either a value or an Error (the project's one BasicExpected, engine/common/expected.h).
template <class T> using Expected = BasicExpected<T, Error>;

} // namespace tkm::progress
