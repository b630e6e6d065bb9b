#pragma once
// Shared set-up of the GUI tests: test-mode paths, fresh settings, where the content and fixtures are.

#include "engine/report/run_report.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace tkm::course {
struct Course;
}

namespace tkm::apptest {

/// Puts QStandardPaths in test mode, names the app after the test program (so parallel tests do not share
/// settings or app-data), and wipes the settings and app-data of its earlier runs.
void initTestEnvironment();
/// The built-in content root (env TKM_CONTENT_DIR, else the compiled-in one).
QString realContentDir();
/// The fixture course of the course helper (tests/data/content-good), or empty when absent.
QString fixtureContentDir();
/// Test data folder (env TKM_TEST_DATA, else <source>/tests/data).
QString testDataDir();
/// Every content root that loads (real content first); prints why a root is skipped.
QStringList loadableContentRoots();
/// A run report held as JSON (a fixture) as the typed report, through report::from_json as the app reads the
/// worker's; throws nlohmann::json::exception when it is not a run report.
report::RunReport typedReport(const QJsonObject& report);
/// tests/data/reports/<name> as the typed report (throws as typedReport; an unreadable file throws too).
report::RunReport loadTypedReport(const QString& name);
/// Folder for screenshots: <build>/screenshots (created).
QString screenshotDir();

} // namespace tkm::apptest
