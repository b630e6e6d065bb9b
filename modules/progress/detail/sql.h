#pragma once
// Internal helpers of the progress store: SQLite exceptions turned into Error values, the write-transaction
// wrapper, the current time, and JSON columns.

#include "modules/progress/records.h"
#include "modules/progress/result.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::progress::detail {

/// An Error for a failed SQLite call while doing `what` ("record a quiz answer"); busy errors get ErrorKind::Busy.
Error sqliteError(std::string_view what, const SQLite::Exception& e);
/// An Error for any other exception while doing `what`.
Error internalError(std::string_view what, const std::exception& e);

/// [ms since epoch, UTC] now.
int64_t nowMs();
/// `atMs`, or now when atMs == 0.
int64_t stampOrNow(int64_t atMs);

/// JSON array text of a list of ints, e.g. "[0,2]".
std::string intsToJson(const std::vector<int>& values);
/// Parses intsToJson() text; an empty list for anything else.
std::vector<int> intsFromJson(const std::string& text);
/// Parses stored JSON text; null on malformed text (old rows are never a reason to fail a query).
nlohmann::json jsonOrNull(const std::string& text);

/// " WHERE module_id = :module [AND activity_id = :activity]" for a non-empty scope, else "".
std::string scopeWhere(const Scope& scope);
/// Binds the parameters named by scopeWhere().
void bindScope(SQLite::Statement& statement, const Scope& scope);

/// The tables that hold per-activity records (every one has module_id and activity_id columns); resets clear them.
inline constexpr std::string_view kActivityTables[] = {"quiz_answers",     "spot_picks", "drag_attempts",
                                                       "step_completions", "help_views", "kernel_runs",
                                                       "time_spans",       "activity_values"};

/// Runs f() inside an IMMEDIATE transaction (the write lock is taken up front, so a concurrent writer waits for the
/// busy timeout instead of failing on lock upgrade) and commits; any exception rolls back and becomes an Error.
template <class F> auto writeTransaction(SQLite::Database& db, std::string_view what, F&& f) -> Expected<decltype(f())>
{
    try {
        SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
        if constexpr (std::is_void_v<decltype(f())>) {
            f();
            tx.commit();
            return {};
        } else {
            auto result = f();
            tx.commit();
            return result;
        }
    } catch (const SQLite::Exception& e) {
        return sqliteError(what, e);
    } catch (const std::exception& e) {
        return internalError(what, e);
    }
}

/// Runs the read f() and turns exceptions into an Error.
template <class F> auto readQuery(std::string_view what, F&& f) -> Expected<decltype(f())>
{
    try {
        return f();
    } catch (const SQLite::Exception& e) {
        return sqliteError(what, e);
    } catch (const std::exception& e) {
        return internalError(what, e);
    }
}

} // namespace tkm::progress::detail
