#include "app/common/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace tkm::app {

QString contentDir()
{
    const QString env = qEnvironmentVariable("TKM_CONTENT_DIR");
    if (!env.isEmpty())
        return env;
    return QStringLiteral(TKM_CONTENT_DIR);
}

QString workerPath()
{
    const QString env = qEnvironmentVariable("TKM_RUN");
    if (!env.isEmpty())
        return env;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/tkm-run");
}

QString appDataDir()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir;
}

namespace {
QString& codeDirOverride()
{
    static QString dir;
    return dir;
}
} // namespace

QString codeDir()
{
    return codeDirOverride().isEmpty() ? appDataDir() + QStringLiteral("/code") : codeDirOverride();
}

void setCodeDir(const QString& dir)
{
    codeDirOverride() = dir;
}

QString exerciseCodePath(const QString& moduleId, const QString& activityId)
{
    return codeDir() + QLatin1Char('/') + moduleId + QLatin1Char('/') + activityId + QStringLiteral(".cu");
}

int deadlineMsFromSettings()
{
    const int seconds = QSettings().value(QLatin1String(settings::kDeadlineS), 10).toInt();
    return std::clamp(seconds, 1, 600) * 1000;
}

} // namespace tkm::app
