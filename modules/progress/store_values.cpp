// Store: the app's per-activity view state (schema v3, table activity_values).
#include "modules/progress/store.h"

#include "modules/progress/detail/sql.h"

#include <SQLiteCpp/Statement.h>

namespace tkm::progress {

Expected<void> Store::setActivityValue(const ActivityRef& where, const std::string& key, const nlohmann::json& value)
{
    if (where.moduleId.empty() || where.activityId.empty() || key.empty()) {
        return Error{ErrorKind::BadInput, "An activity value needs its module id, activity id and key.", {}};
    }
    return detail::writeTransaction(*m_db, "save the state of the activity", [&] {
        if (value.is_null()) {
            SQLite::Statement del(*m_db,
                                  "DELETE FROM activity_values WHERE module_id = ? AND activity_id = ? AND key = ?");
            del.bind(1, where.moduleId);
            del.bind(2, where.activityId);
            del.bind(3, key);
            del.exec();
            return;
        }
        SQLite::Statement upsert(*m_db, "INSERT INTO activity_values(module_id, activity_id, key, value, at_ms) "
                                        "VALUES(?, ?, ?, ?, ?) ON CONFLICT(module_id, activity_id, key) "
                                        "DO UPDATE SET value = excluded.value, at_ms = excluded.at_ms");
        upsert.bind(1, where.moduleId);
        upsert.bind(2, where.activityId);
        upsert.bind(3, key);
        upsert.bind(4, value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        upsert.bind(5, detail::nowMs());
        upsert.exec();
    });
}

Expected<std::vector<ActivityValue>> Store::activityValues(const Scope& scope) const
{
    return detail::readQuery("read the state of your activities", [&] {
        SQLite::Statement query(*m_db, "SELECT module_id, activity_id, key, value, at_ms FROM activity_values" +
                                           detail::scopeWhere(scope) + " ORDER BY module_id, activity_id, key");
        detail::bindScope(query, scope);
        std::vector<ActivityValue> out;
        while (query.executeStep()) {
            out.push_back(ActivityValue{{query.getColumn(0).getString(), query.getColumn(1).getString()},
                                        query.getColumn(2).getString(),
                                        detail::jsonOrNull(query.getColumn(3).getString()),
                                        query.getColumn(4).getInt64()});
        }
        return out;
    });
}

} // namespace tkm::progress
