#include "app/course/activitystate.h"

#include "app/common/paths.h"

#include <QCoreApplication>
#include <QSettings>

namespace tkm::app {

ActivityStateStore::ActivityStateStore(QObject* parent) : QObject(parent) {}

QString ActivityStateStore::key(const QString& moduleId, const QString& activityId, const QString& leaf)
{
    return QLatin1String(settings::kProgressGroup) + QLatin1Char('/') + moduleId + QLatin1Char('/') + activityId +
           QLatin1Char('/') + leaf;
}

ActivityState ActivityStateStore::state(const QString& moduleId, const QString& activityId) const
{
    const int v = value(moduleId, activityId, QStringLiteral("state"), 0).toInt();
    return v == 2 ? ActivityState::Done : (v == 1 ? ActivityState::InProgress : ActivityState::New);
}

void ActivityStateStore::setState(const QString& moduleId, const QString& activityId, ActivityState state)
{
    if (this->state(moduleId, activityId) == state)
        return;
    setValue(moduleId, activityId, QStringLiteral("state"), static_cast<int>(state));
    emit stateChanged(moduleId, activityId, state);
}

void ActivityStateStore::advance(const QString& moduleId, const QString& activityId, ActivityState state)
{
    if (static_cast<int>(state) > static_cast<int>(this->state(moduleId, activityId)))
        setState(moduleId, activityId, state);
}

QVariant ActivityStateStore::value(const QString& moduleId, const QString& activityId, const QString& key,
                                   const QVariant& fallback) const
{
    const QString k = ActivityStateStore::key(moduleId, activityId, key);
    auto it = m_cache.constFind(k);
    if (it == m_cache.constEnd())
        it = m_cache.insert(k, QSettings().value(k));
    return it->isValid() ? *it : fallback;
}

void ActivityStateStore::setValue(const QString& moduleId, const QString& activityId, const QString& key,
                                  const QVariant& value)
{
    const QString k = ActivityStateStore::key(moduleId, activityId, key);
    m_cache.insert(k, value);
    QSettings().setValue(k, value);
}

void ActivityStateStore::resetActivity(const QString& moduleId, const QString& activityId)
{
    const QString prefix =
        QLatin1String(settings::kProgressGroup) + QLatin1Char('/') + moduleId + QLatin1Char('/') + activityId;
    QSettings().remove(prefix);
    for (auto it = m_cache.begin(); it != m_cache.end();)
        it = it.key().startsWith(prefix + QLatin1Char('/')) ? m_cache.erase(it) : std::next(it);
    emit stateChanged(moduleId, activityId, ActivityState::New);
}

// The QSettings store keeps states and values only; these events have nowhere to go.
void ActivityStateStore::recordQuizAnswer(const QString&, const QString&, const QString&, const QList<int>&, bool) {}
void ActivityStateStore::recordSpotPick(const QString&, const QString&, int, bool) {}
void ActivityStateStore::recordDragAttempt(const QString&, const QString&, const QJsonObject&, int, int) {}
void ActivityStateStore::recordStepCompletion(const QString&, const QString&, int) {}
void ActivityStateStore::recordHelpView(const QString&, const QString&, bool, int) {}
void ActivityStateStore::recordKernelRun(const QString&, const QString&, const QString&,
                                         const QList<QPair<QString, qint64>>&, const report::RunReport&)
{
}
QString ActivityStateStore::latestRunSource(const QString&, const QString&) const
{
    return {};
}

QString ActivityStateStore::stateName(ActivityState state)
{
    switch (state) {
    case ActivityState::New:
        return QCoreApplication::translate("tkm::app::ActivityStateStore", "new");
    case ActivityState::InProgress:
        return QCoreApplication::translate("tkm::app::ActivityStateStore", "in progress");
    case ActivityState::Done:
        return QCoreApplication::translate("tkm::app::ActivityStateStore", "done");
    }
    return {};
}

} // namespace tkm::app
