// The engine client against fake workers (shell scripts): progress and report parsing, a hang killed at the
// deadline, a crash, a malformed request answer, cancel, and recovery of the next job after each.
#include "apptest.h"

#include "app/engine/engineclient.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using tkm::app::EngineClient;
using tkm::app::EngineJob;
using tkm::report::RunReport;
using tkm::report::Verdict;

class TestEngineClient : public QObject {
  Q_OBJECT
private:
  QTemporaryDir m_dir;

  /// Writes an executable fake worker; `body` runs once per request line with $id set.
  QString fakeWorker(const QString &name, const QString &body)
  {
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
      return {};
    f.write("#!/bin/bash\n"
            "while IFS= read -r line; do\n"
            "  id=$(printf '%s' \"$line\" | sed -E 's/.*\"id\":([0-9]+).*/\\1/')\n");
    f.write(body.toUtf8());
    f.write("\ndone\n");
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    return path;
  }

  static EngineJob job()
  {
    EngineJob j;
    j.exerciseFolder = QStringLiteral("/tmp/nowhere");
    j.source = QStringLiteral("__global__ void k() {}");
    j.title = QStringLiteral("test");
    return j;
  }

private slots:
  void initTestCase()
  {
    tkm::apptest::initTestEnvironment();
    QVERIFY(m_dir.isValid());
  }

  void requestLineIsTheProtocol()
  {
    EngineJob j = job();
    j.meta = {{QStringLiteral("BLOCK_SIZE"), 256}};
    const QJsonObject o = QJsonDocument::fromJson(tkm::app::engineRequestLine(7, j)).object();
    QCOMPARE(o.value(QStringLiteral("id")).toInt(), 7);
    QCOMPARE(o.value(QStringLiteral("op")).toString(), QStringLiteral("run"));
    QCOMPARE(o.value(QStringLiteral("source_name")).toString(), QStringLiteral("kernel.cu"));
    QCOMPARE(o.value(QStringLiteral("meta")).toObject().value(QStringLiteral("BLOCK_SIZE")).toInt(), 256);
    QVERIFY(o.value(QStringLiteral("measure")).toBool());
  }

  void progressThenReport()
  {
    const QString worker = fakeWorker(QStringLiteral("ok.sh"),
        QStringLiteral("  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"progress\\\",\\\"stage\\\":\\\"case\\\",\\\"case\\\":2,\\\"of\\\":7,\\\"text\\\":\\\"checking case 2 of 7\\\"}\"\n"
                       "  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"report\\\",\\\"report\\\":{\\\"schema\\\":\\\"tkm-run-report/1\\\",\\\"verdict\\\":\\\"pass\\\",\\\"summary\\\":\\\"ok\\\"}}\""));
    EngineClient client(worker);
    QSignalSpy progress(&client, &EngineClient::progress);
    QSignalSpy finished(&client, &EngineClient::finished);
    const int id = client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QCOMPARE(finished.first().at(0).toInt(), id);
    QCOMPARE(finished.first().at(1).value<RunReport>().verdict, Verdict::Pass);
    QCOMPARE(progress.count(), 1);
    QCOMPARE(progress.first().at(2).toInt(), 2);
    QCOMPARE(progress.first().at(3).toInt(), 7);
    // The worker stays up: a second job on the same process.
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
    QVERIFY(!client.isBusy());
  }

  void hangIsKilledAtTheDeadlineAndTheNextJobWorks()
  {
    // First request hangs; every later process answers (the marker file tells the fresh worker apart).
    const QString marker = m_dir.filePath(QStringLiteral("hung-once"));
    const QString worker = fakeWorker(QStringLiteral("hang.sh"),
        QStringLiteral("  if [ ! -e %1 ]; then touch %1; sleep 60; fi\n"
                       "  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"report\\\",\\\"report\\\":{\\\"schema\\\":\\\"tkm-run-report/1\\\",\\\"verdict\\\":\\\"pass\\\"}}\"")
            .arg(marker));
    EngineClient client(worker);
    client.setDeadlineMs(800);
    QSignalSpy finished(&client, &EngineClient::finished);
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const RunReport report = finished.first().at(1).value<RunReport>();
    QCOMPARE(report.verdict, Verdict::Timeout);
    // One sentence for app and engine (worker::timeoutReport): the deadline as set, not rounded up.
    QVERIFY(QString::fromStdString(report.summary).contains(QStringLiteral("did not finish in 0.8 s")));
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
    QCOMPARE(finished.at(1).at(1).value<RunReport>().verdict, Verdict::Pass);
  }

  void chattyJobIsNotKilled()
  {
    // The deadline rule (worker::allowedSilence) counts silence: a 2 s job that reports progress every 0.3 s
    // passes a 0.8 s deadline, as in the Qt-free client (tests/runtime/test_client.cpp).
    const QString worker = fakeWorker(QStringLiteral("chatty.sh"),
        QStringLiteral("  for i in 1 2 3 4 5 6 7; do sleep 0.3; echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"progress\\\",\\\"stage\\\":\\\"case\\\",\\\"case\\\":$i,\\\"of\\\":7,\\\"text\\\":\\\"case\\\"}\"; done\n"
                       "  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"report\\\",\\\"report\\\":{\\\"schema\\\":\\\"tkm-run-report/1\\\",\\\"verdict\\\":\\\"pass\\\"}}\""));
    EngineClient client(worker);
    client.setDeadlineMs(800);
    QSignalSpy progress(&client, &EngineClient::progress);
    QSignalSpy finished(&client, &EngineClient::finished);
    QElapsedTimer clock;
    clock.start();
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QCOMPARE(finished.first().at(1).value<RunReport>().verdict, Verdict::Pass);
    QCOMPARE(progress.count(), 7);
    QVERIFY(clock.elapsed() >= 2000);
  }

  void crashIsReportedAndTheNextJobWorks()
  {
    const QString marker = m_dir.filePath(QStringLiteral("crashed-once"));
    const QString worker = fakeWorker(QStringLiteral("crash.sh"),
        QStringLiteral("  if [ ! -e %1 ]; then touch %1; echo 'segfault in the driver' >&2; kill -SEGV $$; fi\n"
                       "  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"report\\\",\\\"report\\\":{\\\"schema\\\":\\\"tkm-run-report/1\\\",\\\"verdict\\\":\\\"pass\\\"}}\"")
            .arg(marker));
    EngineClient client(worker);
    QSignalSpy finished(&client, &EngineClient::finished);
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const RunReport report = finished.first().at(1).value<RunReport>();
    QCOMPARE(report.verdict, Verdict::Error);
    QVERIFY(report.error);
    QCOMPARE(report.error->kind, std::string("worker-crash"));
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
    QCOMPARE(finished.at(1).at(1).value<RunReport>().verdict, Verdict::Pass);
  }

  void stickyErrorExitAfterReport()
  {
    // Status 3 after the report (a sticky CUDA error): the report counts, the next job gets a fresh worker.
    const QString worker = fakeWorker(QStringLiteral("sticky.sh"),
        QStringLiteral("  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"report\\\",\\\"report\\\":{\\\"schema\\\":\\\"tkm-run-report/1\\\",\\\"verdict\\\":\\\"fault\\\"}}\"\n"
                       "  exit 3"));
    EngineClient client(worker);
    QSignalSpy finished(&client, &EngineClient::finished);
    client.submit(job());
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
    QCOMPARE(finished.at(0).at(1).value<RunReport>().verdict, Verdict::Fault);
    QCOMPARE(finished.at(1).at(1).value<RunReport>().verdict, Verdict::Fault);
  }

  void errorMessageAndMissingWorker()
  {
    const QString worker = fakeWorker(QStringLiteral("err.sh"),
        QStringLiteral("  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"error\\\",\\\"message\\\":\\\"unknown op\\\"}\""));
    EngineClient client(worker);
    QSignalSpy finished(&client, &EngineClient::finished);
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QVERIFY(QString::fromStdString(finished.first().at(1).value<RunReport>().summary).contains(QStringLiteral("unknown op")));

    EngineClient missing(m_dir.filePath(QStringLiteral("no-such-worker")));
    QSignalSpy missingFinished(&missing, &EngineClient::finished);
    missing.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(missingFinished.count(), 1, 5000);
    QVERIFY(QString::fromStdString(missingFinished.first().at(1).value<RunReport>().summary).contains(QStringLiteral("TKM_RUN")));
  }

  void unreadableReportIsAnError()
  {
    // The report is read once, at this seam (report::from_json): a verdict the schema does not have is not
    // guessed at, the job ends as an engine error that says so.
    const QString worker = fakeWorker(QStringLiteral("odd.sh"),
        QStringLiteral("  echo \"{\\\"id\\\":$id,\\\"type\\\":\\\"report\\\",\\\"report\\\":{\\\"schema\\\":\\\"tkm-run-report/1\\\",\\\"verdict\\\":\\\"crashed\\\"}}\""));
    EngineClient client(worker);
    QSignalSpy finished(&client, &EngineClient::finished);
    client.submit(job());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const RunReport report = finished.first().at(1).value<RunReport>();
    QCOMPARE(report.verdict, Verdict::Error);
    QVERIFY(report.error);
    QCOMPARE(report.error->kind, std::string("internal"));
    QVERIFY2(QString::fromStdString(report.summary).contains(QStringLiteral("unknown verdict \"crashed\"")),
             report.summary.c_str());
  }

  void cancelKillsTheJob()
  {
    const QString worker = fakeWorker(QStringLiteral("slow.sh"), QStringLiteral("  sleep 30"));
    EngineClient client(worker);
    QSignalSpy cancelled(&client, &EngineClient::cancelled);
    QSignalSpy finished(&client, &EngineClient::finished);
    const int id = client.submit(job());
    QVERIFY(client.isBusy());
    client.cancel();
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.first().at(0).toInt(), id);
    QVERIFY(!client.isBusy());
    QTest::qWait(100);
    QCOMPARE(finished.count(), 0);
  }
};

QTEST_MAIN(TestEngineClient)
#include "tst_engineclient.moc"
