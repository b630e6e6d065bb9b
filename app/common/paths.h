#pragma once
// Where the app finds its content, the engine worker and the learner's files; the QSettings keys it uses.

#include <QString>

namespace tkm::app {

/// Built-in content root: env TKM_CONTENT_DIR, else the compiled-in TKM_CONTENT_DIR define.
QString contentDir();

/// The engine worker: env TKM_RUN, else `tkm-run` beside the app executable.
QString workerPath();

/// Writable app-data folder (QStandardPaths::AppDataLocation), created on demand.
QString appDataDir();

/// File that keeps the learner's code of one exercise ("<code folder>/<module>/<activity>.cu").
QString exerciseCodePath(const QString& moduleId, const QString& activityId);
/// The folder of the learner's code: "<app-data>/code" unless set (the progress feature sets the one that goes with
/// the learner's database, app/progress/progressdatabase.h).
QString codeDir();
/// Sets the folder of the learner's code (empty: back to the default).
void setCodeDir(const QString& dir);

/// QSettings keys shared by the shell and the activities.
namespace settings {
inline constexpr char kGeometry[] = "window/geometry";    ///< QByteArray from saveGeometry()
inline constexpr char kWindowState[] = "window/state";    ///< QByteArray from saveState()
inline constexpr char kLastActivity[] = "course/last";    ///< "module/activity" shown last
inline constexpr char kDeadlineS[] = "engine/deadline_s"; ///< [s] worker deadline per job (default 10)
inline constexpr char kProgressGroup[] = "progress";      ///< group of activity states
} // namespace settings

/// Worker deadline per job from QSettings [ms] (default 10 s, clamped to 1–600 s).
int deadlineMsFromSettings();

} // namespace tkm::app
