#include "app/progress/sqlitestatestore.h"

#include <QJsonDocument>

namespace tkm::app {
namespace {

std::string ss(const QString& s)
{
    return s.toStdString();
}

progress::ActivityRef refOf(const QString& moduleId, const QString& activityId)
{
    return {ss(moduleId), ss(activityId)};
}

nlohmann::json fromVariant(const QVariant& v)
{
    switch (v.typeId()) {
    case QMetaType::Bool:
        return v.toBool();
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::Long:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
        return v.toLongLong();
    case QMetaType::Float:
    case QMetaType::Double:
        return v.toDouble();
    default:
        return v.isValid() ? nlohmann::json(ss(v.toString())) : nlohmann::json();
    }
}

QVariant toVariant(const nlohmann::json& j)
{
    if (j.is_boolean())
        return j.get<bool>();
    if (j.is_number_integer())
        return QVariant::fromValue<qint64>(j.get<int64_t>());
    if (j.is_number())
        return j.get<double>();
    if (j.is_string())
        return QString::fromStdString(j.get<std::string>());
    return {};
}

} // namespace

nlohmann::json toNlohmann(const QJsonObject& object)
{
    return nlohmann::json::parse(QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
}

QJsonObject toQJson(const nlohmann::json& object)
{
    if (!object.is_object())
        return {};
    return QJsonDocument::fromJson(QByteArray::fromStdString(object.dump())).object();
}

SqliteStateStore::SqliteStateStore(std::shared_ptr<progress::Store> store, QObject* parent)
    : ActivityStateStore(parent), m_store(std::move(store))
{
    auto values = m_store->activityValues();
    if (!values)
        return; // an empty cache: the views start fresh, and the first write reports the problem
    for (const progress::ActivityValue& v : *values)
        m_values.insert(cacheKey(QString::fromStdString(v.where.moduleId), QString::fromStdString(v.where.activityId),
                                 QString::fromStdString(v.key)),
                        toVariant(v.value));
}

QString SqliteStateStore::cacheKey(const QString& moduleId, const QString& activityId, const QString& key)
{
    return moduleId + QLatin1Char('/') + activityId + QLatin1Char('/') + key;
}

template <class T>
bool SqliteStateStore::check(const progress::Expected<T>& result, const QString& moduleId, const QString& activityId)
{
    if (!result) {
        emit writeFailed(QString::fromStdString(result.error().message));
        return false;
    }
    emit recorded(moduleId, activityId);
    return true;
}

QVariant SqliteStateStore::value(const QString& moduleId, const QString& activityId, const QString& key,
                                 const QVariant& fallback) const
{
    const auto it = m_values.constFind(cacheKey(moduleId, activityId, key));
    return it != m_values.constEnd() && it->isValid() ? *it : fallback;
}

void SqliteStateStore::setValue(const QString& moduleId, const QString& activityId, const QString& key,
                                const QVariant& value)
{
    m_values.insert(cacheKey(moduleId, activityId, key), value);
    auto written = m_store->setActivityValue(refOf(moduleId, activityId), ss(key), fromVariant(value));
    if (!written)
        emit writeFailed(QString::fromStdString(written.error().message));
}

void SqliteStateStore::resetActivity(const QString& moduleId, const QString& activityId)
{
    const QString prefix = cacheKey(moduleId, activityId, {});
    for (auto it = m_values.begin(); it != m_values.end();)
        it = it.key().startsWith(prefix) ? m_values.erase(it) : std::next(it);
    if (check(m_store->resetActivity(refOf(moduleId, activityId)), moduleId, activityId))
        emit stateChanged(moduleId, activityId, ActivityState::New);
}

bool SqliteStateStore::resetModule(const QString& moduleId)
{
    const auto result = moduleId.isEmpty() ? m_store->resetAll() : m_store->resetModule(ss(moduleId));
    if (!result) {
        emit writeFailed(QString::fromStdString(result.error().message));
        return false;
    }
    QList<QPair<QString, QString>> hadState;
    const QString stateLeaf = QStringLiteral("/state");
    for (auto it = m_values.begin(); it != m_values.end();) {
        const QStringList parts = it.key().split(QLatin1Char('/'));
        if (!moduleId.isEmpty() && parts.value(0) != moduleId) {
            ++it;
            continue;
        }
        if (it.key().endsWith(stateLeaf) && parts.size() == 3)
            hadState.append({parts[0], parts[1]});
        it = m_values.erase(it);
    }
    for (const auto& [m, a] : hadState)
        emit stateChanged(m, a, ActivityState::New);
    emit recorded(moduleId, {});
    return true;
}

void SqliteStateStore::recordQuizAnswer(const QString& moduleId, const QString& activityId, const QString& questionId,
                                        const QList<int>& choices, bool correct)
{
    progress::QuizAnswer answer;
    answer.where = refOf(moduleId, activityId);
    answer.questionId = ss(questionId);
    answer.choices.assign(choices.begin(), choices.end());
    answer.correct = correct;
    check(m_store->recordQuizAnswer(answer), moduleId, activityId);
}

void SqliteStateStore::recordSpotPick(const QString& moduleId, const QString& activityId, int line, bool correct)
{
    check(m_store->recordSpotPick({0, refOf(moduleId, activityId), {line}, correct, 0}), moduleId, activityId);
}

void SqliteStateStore::recordDragAttempt(const QString& moduleId, const QString& activityId,
                                         const QJsonObject& placement, int right, int items)
{
    check(m_store->recordDragAttempt({0, refOf(moduleId, activityId), toNlohmann(placement), right, items, 0}),
          moduleId, activityId);
}

void SqliteStateStore::recordStepCompletion(const QString& moduleId, const QString& activityId, int steps)
{
    check(m_store->recordStepCompletion({0, refOf(moduleId, activityId), steps, 0}), moduleId, activityId);
}

void SqliteStateStore::recordHelpView(const QString& moduleId, const QString& activityId, bool solution,
                                      int hintIndex)
{
    const auto kind = solution ? progress::HelpKind::Solution : progress::HelpKind::Hint;
    check(m_store->recordHelpView({0, refOf(moduleId, activityId), kind, solution ? 0 : hintIndex, 0}), moduleId,
          activityId);
}

void SqliteStateStore::recordKernelRun(const QString& moduleId, const QString& activityId, const QString& source,
                                       const QList<QPair<QString, qint64>>& meta, const report::RunReport& report)
{
    progress::KernelRun run = progress::kernelRunFromReport(refOf(moduleId, activityId), ss(source), report);
    if (!meta.isEmpty()) { // the values the learner chose, also when the run stopped before the report's meta
        run.meta = nlohmann::json::object();
        for (const auto& [name, v] : meta)
            run.meta[ss(name)] = v;
    }
    if (run.exerciseId.empty())
        run.exerciseId = ss(activityId);
    check(m_store->recordKernelRun(run), moduleId, activityId);
}

QString SqliteStateStore::latestRunSource(const QString& moduleId, const QString& activityId) const
{
    auto history = m_store->runHistory({ss(moduleId), ss(activityId)});
    if (!history || history->empty())
        return {};
    auto run = m_store->run(history->front().id);
    return run ? QString::fromStdString(run->source) : QString();
}

} // namespace tkm::app
