#pragma once
// Opening the learner's progress database for the app: the platform app-data folder by default or `--db FILE`,
// with every way it can go wrong turned into a sentence for the learner and a database that still works:
//   - an unreadable file is moved aside by the store (the notice says where it went) and a new one starts;
//   - a file from a newer version, a folder that cannot be written, or a file locked past the busy timeout is left
//     alone; this session's progress then goes to a temporary database (lost at quit unless exported), and the
//     notice says so;
//   - a second app instance on the same file is told so (SQLite serialises the writes of both; each window shows
//     what it recorded itself until restarted).

#include "modules/progress/store.h"

#include <QString>

#include <memory>

class QLockFile;
class QTemporaryDir;

namespace tkm::app {

/// The database the app uses and what the learner must be told about it.
struct ProgressDatabase
{
    std::shared_ptr<progress::Store> store; ///< never null after openProgressDatabase()
    QString requestedPath;                  ///< the file asked for (default or --db)
    QString path;                           ///< the file in use (a temporary one when sessionOnly)
    bool sessionOnly = false;               ///< the requested file is not used: progress lasts until quit
    bool shared = false;                    ///< another running instance has the same file open
    QString notice;                         ///< sentences for the learner; empty when all is well
    std::shared_ptr<QTemporaryDir> tempDir; ///< holds the session-only database
    std::shared_ptr<QLockFile> lock;        ///< "<file>.lock": tells a second instance it is not alone
};

/// The default database file: <app-data>/progress.db (QStandardPaths::AppDataLocation).
QString defaultDatabasePath();

/// Opens (creating or migrating) the database at `path`; see the file comment for the fallbacks. Fails only when
/// not even a temporary database can be created (then `store` is null and `notice` says why).
ProgressDatabase openProgressDatabase(const QString& path);

/// The folder of the learner's exercise code that goes with a database: <app-data>/code for the default one,
/// "<folder>/<name>-code" beside any other (so each learner of `--db` keeps their own code).
QString codeDirForDatabase(const QString& databasePath);

} // namespace tkm::app
