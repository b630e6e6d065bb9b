// Store: the activity attempts (quiz answers, spot-the-bug picks, drag-match attempts, step-through completions)
// and the help views.
#include "modules/progress/store.h"

#include "modules/progress/detail/sql.h"

#include <SQLiteCpp/Statement.h>

namespace tkm::progress {
using detail::readQuery;
using detail::writeTransaction;

namespace {

Expected<void> checkRef(const ActivityRef& where, std::string_view what)
{
    if (where.moduleId.empty() || where.activityId.empty()) {
        return Error{
            ErrorKind::BadInput, "A " + std::string(what) + " needs the module id and activity id it belongs to.", {}};
    }
    return {};
}

ActivityRef refAt(SQLite::Statement& query, int firstColumn)
{
    return ActivityRef{query.getColumn(firstColumn).getString(), query.getColumn(firstColumn + 1).getString()};
}

std::string_view helpKindName(HelpKind kind)
{
    return kind == HelpKind::Solution ? "solution" : "hint";
}

} // namespace

Expected<int64_t> Store::recordQuizAnswer(const QuizAnswer& answer)
{
    if (auto ok = checkRef(answer.where, "quiz answer"); !ok) {
        return ok.error();
    }
    if (answer.questionId.empty()) {
        return Error{ErrorKind::BadInput, "A quiz answer needs the id of its question.", {}};
    }
    return writeTransaction(*m_db, "record the quiz answer", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO quiz_answers(module_id, activity_id, question_id, choices, "
                                        "correct, at_ms) VALUES(?, ?, ?, ?, ?, ?)");
        insert.bind(1, answer.where.moduleId);
        insert.bind(2, answer.where.activityId);
        insert.bind(3, answer.questionId);
        insert.bind(4, detail::intsToJson(answer.choices));
        insert.bind(5, answer.correct ? 1 : 0);
        insert.bind(6, detail::stampOrNow(answer.atMs));
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<int64_t> Store::recordSpotPick(const SpotPick& pick)
{
    if (auto ok = checkRef(pick.where, "spot-the-bug pick"); !ok) {
        return ok.error();
    }
    return writeTransaction(*m_db, "record the spot-the-bug pick", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO spot_picks(module_id, activity_id, lines, correct, at_ms) "
                                        "VALUES(?, ?, ?, ?, ?)");
        insert.bind(1, pick.where.moduleId);
        insert.bind(2, pick.where.activityId);
        insert.bind(3, detail::intsToJson(pick.lines));
        insert.bind(4, pick.correct ? 1 : 0);
        insert.bind(5, detail::stampOrNow(pick.atMs));
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<int64_t> Store::recordDragAttempt(const DragAttempt& attempt)
{
    if (auto ok = checkRef(attempt.where, "drag-match attempt"); !ok) {
        return ok.error();
    }
    if (attempt.correctCount < 0 || attempt.itemCount <= 0 || attempt.correctCount > attempt.itemCount) {
        return Error{ErrorKind::BadInput,
                     "A drag-match attempt needs 0 ≤ correct count ≤ item count and at least one item (got " +
                         std::to_string(attempt.correctCount) + " of " + std::to_string(attempt.itemCount) + ").",
                     {}};
    }
    const nlohmann::json placement = attempt.placement.is_object() ? attempt.placement : nlohmann::json::object();
    return writeTransaction(*m_db, "record the drag-match attempt", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO drag_attempts(module_id, activity_id, placement, correct_count, "
                                        "item_count, at_ms) VALUES(?, ?, ?, ?, ?, ?)");
        insert.bind(1, attempt.where.moduleId);
        insert.bind(2, attempt.where.activityId);
        insert.bind(3, placement.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        insert.bind(4, attempt.correctCount);
        insert.bind(5, attempt.itemCount);
        insert.bind(6, detail::stampOrNow(attempt.atMs));
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<int64_t> Store::recordStepCompletion(const StepCompletion& done)
{
    if (auto ok = checkRef(done.where, "step-through completion"); !ok) {
        return ok.error();
    }
    return writeTransaction(*m_db, "record the finished step-through", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO step_completions(module_id, activity_id, step_count, at_ms) "
                                        "VALUES(?, ?, ?, ?)");
        insert.bind(1, done.where.moduleId);
        insert.bind(2, done.where.activityId);
        insert.bind(3, done.stepCount);
        insert.bind(4, detail::stampOrNow(done.atMs));
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<int64_t> Store::recordHelpView(const HelpView& view)
{
    if (auto ok = checkRef(view.where, "hint or solution view"); !ok) {
        return ok.error();
    }
    return writeTransaction(*m_db, "record the hint or solution view", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO help_views(module_id, activity_id, kind, hint_index, at_ms) "
                                        "VALUES(?, ?, ?, ?, ?)");
        insert.bind(1, view.where.moduleId);
        insert.bind(2, view.where.activityId);
        insert.bind(3, std::string(helpKindName(view.kind)));
        insert.bind(4, view.kind == HelpKind::Solution ? 0 : view.hintIndex);
        insert.bind(5, detail::stampOrNow(view.atMs));
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<std::vector<QuizAnswer>> Store::quizAnswers(const Scope& scope) const
{
    return readQuery("read the quiz answers", [&] {
        SQLite::Statement query(*m_db, "SELECT id, module_id, activity_id, question_id, choices, correct, at_ms "
                                       "FROM quiz_answers" +
                                           detail::scopeWhere(scope) + " ORDER BY at_ms, id");
        detail::bindScope(query, scope);
        std::vector<QuizAnswer> out;
        while (query.executeStep()) {
            out.push_back(QuizAnswer{query.getColumn(0).getInt64(), refAt(query, 1), query.getColumn(3).getString(),
                                     detail::intsFromJson(query.getColumn(4).getString()),
                                     query.getColumn(5).getInt() != 0, query.getColumn(6).getInt64()});
        }
        return out;
    });
}

Expected<std::vector<SpotPick>> Store::spotPicks(const Scope& scope) const
{
    return readQuery("read the spot-the-bug picks", [&] {
        SQLite::Statement query(*m_db, "SELECT id, module_id, activity_id, lines, correct, at_ms FROM spot_picks" +
                                           detail::scopeWhere(scope) + " ORDER BY at_ms, id");
        detail::bindScope(query, scope);
        std::vector<SpotPick> out;
        while (query.executeStep()) {
            out.push_back(SpotPick{query.getColumn(0).getInt64(), refAt(query, 1),
                                   detail::intsFromJson(query.getColumn(3).getString()),
                                   query.getColumn(4).getInt() != 0, query.getColumn(5).getInt64()});
        }
        return out;
    });
}

Expected<std::vector<DragAttempt>> Store::dragAttempts(const Scope& scope) const
{
    return readQuery("read the drag-match attempts", [&] {
        SQLite::Statement query(*m_db, "SELECT id, module_id, activity_id, placement, correct_count, item_count, "
                                       "at_ms FROM drag_attempts" +
                                           detail::scopeWhere(scope) + " ORDER BY at_ms, id");
        detail::bindScope(query, scope);
        std::vector<DragAttempt> out;
        while (query.executeStep()) {
            out.push_back(DragAttempt{query.getColumn(0).getInt64(), refAt(query, 1),
                                      detail::jsonOrNull(query.getColumn(3).getString()), query.getColumn(4).getInt(),
                                      query.getColumn(5).getInt(), query.getColumn(6).getInt64()});
        }
        return out;
    });
}

Expected<std::vector<StepCompletion>> Store::stepCompletions(const Scope& scope) const
{
    return readQuery("read the finished step-throughs", [&] {
        SQLite::Statement query(*m_db, "SELECT id, module_id, activity_id, step_count, at_ms FROM step_completions" +
                                           detail::scopeWhere(scope) + " ORDER BY at_ms, id");
        detail::bindScope(query, scope);
        std::vector<StepCompletion> out;
        while (query.executeStep()) {
            out.push_back(StepCompletion{query.getColumn(0).getInt64(), refAt(query, 1), query.getColumn(3).getInt(),
                                         query.getColumn(4).getInt64()});
        }
        return out;
    });
}

Expected<std::vector<HelpView>> Store::helpViews(const Scope& scope) const
{
    return readQuery("read the hints and solutions viewed", [&] {
        SQLite::Statement query(*m_db, "SELECT id, module_id, activity_id, kind, hint_index, at_ms FROM help_views" +
                                           detail::scopeWhere(scope) + " ORDER BY at_ms, id");
        detail::bindScope(query, scope);
        std::vector<HelpView> out;
        while (query.executeStep()) {
            const HelpKind kind = query.getColumn(3).getString() == "solution" ? HelpKind::Solution : HelpKind::Hint;
            out.push_back(HelpView{query.getColumn(0).getInt64(), refAt(query, 1), kind, query.getColumn(4).getInt(),
                                   query.getColumn(5).getInt64()});
        }
        return out;
    });
}

} // namespace tkm::progress
