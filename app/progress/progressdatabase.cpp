#include "app/progress/progressdatabase.h"

#include "app/common/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QTemporaryDir>

namespace tkm::app {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tkm::app::ProgressDatabase", text);
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

QString defaultDatabasePath()
{
    return appDataDir() + QStringLiteral("/progress.db");
}

QString codeDirForDatabase(const QString& databasePath)
{
    const QFileInfo db(databasePath);
    if (db.absoluteFilePath() == QFileInfo(defaultDatabasePath()).absoluteFilePath())
        return appDataDir() + QStringLiteral("/code");
    return db.absolutePath() + QLatin1Char('/') + db.completeBaseName() + QStringLiteral("-code");
}

ProgressDatabase openProgressDatabase(const QString& path)
{
    ProgressDatabase db;
    db.requestedPath = QFileInfo(path).absoluteFilePath();
    QStringList notices;
    auto opened = progress::Store::open(db.requestedPath.toStdString());
    if (opened) {
        db.path = db.requestedPath;
        if (!opened->openReport().notice.empty())
            notices << qs(opened->openReport().notice);
        db.store = std::make_shared<progress::Store>(std::move(*opened));
        db.lock = std::make_shared<QLockFile>(db.path + QStringLiteral(".lock"));
        db.lock->setStaleLockTime(0); // held for the life of the app; a crashed holder is detected by its pid
        if (!db.lock->tryLock(0)) {
            qint64 pid = 0;
            QString host;
            QString app;
            db.lock->getLockInfo(&pid, &host, &app);
            db.shared = true;
            notices << tr("Another Triton Kernel Mastery window (process %1) is using the same progress database. "
                          "Both record safely — the database takes one write at a time — but each window shows only "
                          "what it recorded itself until you restart it.")
                           .arg(pid);
        }
    } else {
        const progress::Error& e = opened.error();
        QString why = qs(e.message);
        if (e.kind == progress::ErrorKind::Busy)
            why = tr("The progress database %1 is locked by another program that did not let go within a few "
                     "seconds.")
                      .arg(db.requestedPath);
        notices << why;
        db.tempDir = std::make_shared<QTemporaryDir>();
        if (!db.tempDir->isValid()) {
            db.notice = why + QLatin1Char(' ') +
                        tr("No temporary database could be created either (%1).").arg(db.tempDir->errorString());
            return db;
        }
        db.path = db.tempDir->filePath(QStringLiteral("session.db"));
        auto session = progress::Store::open(db.path.toStdString());
        if (!session) {
            db.notice = why + QLatin1Char(' ') + qs(session.error().message);
            return db;
        }
        db.store = std::make_shared<progress::Store>(std::move(*session));
        db.sessionOnly = true;
        notices << tr("You can study as usual, but this session's progress is kept only until you quit (File → "
                      "Export progress report saves it as a report).");
    }
    db.notice = notices.join(QStringLiteral("\n\n"));
    return db;
}

} // namespace tkm::app
