#include "apptest.h"

#include "app/common/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSettings>
#include <QStandardPaths>
#include <QtDebug>

#include "modules/course/loader.h"

namespace tkm::apptest {

void initTestEnvironment()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("tkm-test"));
    // One settings file and app-data folder per test program: ctest -j runs them at once, and each wipes its own.
    QCoreApplication::setApplicationName(QStringLiteral("tkm-gui-test-") +
                                         QFileInfo(QCoreApplication::applicationFilePath()).completeBaseName());
    QSettings().clear();
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
}

QString realContentDir()
{
    return app::contentDir();
}

QString testDataDir()
{
    const QString env = qEnvironmentVariable("TKM_TEST_DATA");
    return env.isEmpty() ? QStringLiteral(TKM_SOURCE_DIR "/tests/data") : env;
}

QString fixtureContentDir()
{
    const QString dir = testDataDir() + QStringLiteral("/content-good");
    return QDir(dir).exists() ? dir : QString();
}

QStringList loadableContentRoots()
{
    QStringList roots;
    for (const QString& root : {realContentDir(), fixtureContentDir()}) {
        if (root.isEmpty())
            continue;
        const auto result = course::loadCourse(root.toStdString());
        if (result.course) {
            roots << root;
            continue;
        }
        qWarning().noquote() << "content root" << root << "does not load:";
        int shown = 0;
        for (const auto& d : result.diagnostics)
            if (d.severity == course::Severity::Error && shown++ < 8)
                qWarning().noquote() << "  " << QString::fromStdString(d.format(root.toStdString()));
    }
    return roots;
}

report::RunReport typedReport(const QJsonObject& report)
{
    const QByteArray text = QJsonDocument(report).toJson(QJsonDocument::Compact);
    return nlohmann::json::parse(text.toStdString()).get<report::RunReport>();
}

report::RunReport loadTypedReport(const QString& name)
{
    QFile file(testDataDir() + QStringLiteral("/reports/") + name);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + file.fileName().toStdString());
    return nlohmann::json::parse(file.readAll().toStdString()).get<report::RunReport>();
}

QString screenshotDir()
{
    const QString dir = QStringLiteral(TKM_BUILD_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

} // namespace tkm::apptest
