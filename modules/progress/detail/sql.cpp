#include "modules/progress/detail/sql.h"

#include <sqlite3.h>

#include <chrono>

namespace tkm::progress::detail {

Error sqliteError(std::string_view what, const SQLite::Exception& e)
{
    const int primary = e.getErrorCode() & 0xff;
    std::string detail = std::string(e.what()) + " (SQLite code " + std::to_string(e.getExtendedErrorCode()) + ")";
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
        return Error{ErrorKind::Busy,
                     "Could not " + std::string(what) +
                         ": another Triton Kernel Mastery window or tool kept the progress database locked. "
                         "Close the other window or try again.",
                     std::move(detail)};
    }
    if (primary == SQLITE_FULL) {
        return Error{ErrorKind::Io,
                     "Could not " + std::string(what) +
                         ": the disk holding the progress database is full. "
                         "Free some space and try again.",
                     std::move(detail)};
    }
    if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM || primary == SQLITE_IOERR) {
        return Error{ErrorKind::Io,
                     "Could not " + std::string(what) +
                         ": the progress database file cannot be written. Check its permissions and free space.",
                     std::move(detail)};
    }
    return Error{ErrorKind::Sqlite, "Could not " + std::string(what) + ": " + e.what() + ".", std::move(detail)};
}

Error internalError(std::string_view what, const std::exception& e)
{
    return Error{ErrorKind::Sqlite, "Could not " + std::string(what) + ": " + e.what() + ".", {}};
}

int64_t nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

int64_t stampOrNow(int64_t atMs)
{
    return atMs != 0 ? atMs : nowMs();
}

std::string intsToJson(const std::vector<int>& values)
{
    return nlohmann::json(values).dump();
}

std::vector<int> intsFromJson(const std::string& text)
{
    const nlohmann::json j = jsonOrNull(text);
    std::vector<int> out;
    if (!j.is_array()) {
        return out;
    }
    for (const auto& v : j) {
        if (v.is_number_integer()) {
            out.push_back(v.get<int>());
        }
    }
    return out;
}

nlohmann::json jsonOrNull(const std::string& text)
{
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    return j.is_discarded() ? nlohmann::json() : j;
}

std::string scopeWhere(const Scope& scope)
{
    if (scope.moduleId.empty()) {
        return {};
    }
    return scope.activityId.empty() ? " WHERE module_id = :module"
                                    : " WHERE module_id = :module AND activity_id = :activity";
}

void bindScope(SQLite::Statement& statement, const Scope& scope)
{
    if (scope.moduleId.empty()) {
        return;
    }
    statement.bind(":module", scope.moduleId);
    if (!scope.activityId.empty()) {
        statement.bind(":activity", scope.activityId);
    }
}

} // namespace tkm::progress::detail
