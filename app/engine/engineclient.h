#pragma once
// Client of the engine worker `tkm-run --serve` (docs/run-report.md, "Worker protocol").
//
// The app holds no CUDA state: every compile, run and device query goes to a separate worker process over JSON
// lines. One job runs at a time; later jobs wait in a queue. Nothing here blocks the UI thread: output is parsed as
// it arrives. This class is only the QProcess transport, the queue and the signals: requests, messages, the
// deadline rule and the synthetic reports are the engine's (engine/worker/protocol.h), shared with the Qt-free
// worker::Client. A job that stays silent past the deadline (worker::allowedSilence) is killed and reported as
// `verdict: "timeout"`; a worker that dies without a report is reported as `error.kind: "worker-crash"`; either way
// the next job starts a fresh worker.

#include "engine/report/run_report.h"
#include "engine/runner/job.h"


#include <QList>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace tkm::app {

/// One job for the worker.
struct EngineJob {
  QString op = QStringLiteral("run");  ///< "run", "compile", "devices" or "warm"
  QString exerciseFolder;              ///< absolute path of the exercise folder (run, compile)
  QString source;                      ///< kernel source text (run, compile)
  QString sourceName = QStringLiteral("kernel.cu"); ///< file name diagnostics refer to
  QList<QPair<QString, qint64>> meta;  ///< meta-parameter values, e.g. {"BLOCK_SIZE", 256}
  bool measure = true;                 ///< run: time and profile after the cases pass
  /// run: a tuning job — meta-parameter sets checked and timed as @triton.autotune (request field "configs")
  QList<QList<QPair<QString, qint64>>> configs;
  /// run: declared reset_to_zero outputs (request field "reset_to_zero"); sent only when `declareReset` is set
  QStringList resetToZero;
  bool declareReset = false;           ///< send `resetToZero` (an empty list is a declaration too)
  QString title;                       ///< what the job is, for the progress line ("Your kernel", "Solution")
  bool quiet = false;                  ///< a background job (device query): not shown in the results view
};

/// Asynchronous client of `tkm-run --serve`.
class EngineClient : public QObject {
  Q_OBJECT
public:
  /// Uses `workerPath` (see app/common/paths.h: workerPath()) as the worker executable.
  explicit EngineClient(const QString &workerPath, QObject *parent = nullptr);
  ~EngineClient() override;
  EngineClient(const EngineClient &) = delete;
  EngineClient &operator=(const EngineClient &) = delete;

  /// Queues a job; returns its id (> 0). `started`, `progress` and then `finished` or `cancelled` follow.
  int submit(const EngineJob &job);
  /// Queues a quiet warm-up of the worker (request "warm", docs/run-report.md): it starts the worker, its GPU
  /// context, the CUPTI set-up and the ceilings (and, with `exerciseFolder`, that exercise's performance case) in the
  /// background, so that the learner's first Run is as fast as later ones. Returns the job id.
  int warmUp(const QString &exerciseFolder = {});
  /// Kills the running job (and drops queued ones); emits `cancelled` for each.
  void cancel();

  /// Silence allowed from sending a job, and from each of its progress messages, before it is killed [ms]
  /// (default 10 000; worker::allowedSilence).
  void setDeadlineMs(int ms) { m_deadlineMs = ms; }
  /// See setDeadlineMs [ms].
  int deadlineMs() const { return m_deadlineMs; }
  /// The worker executable.
  QString workerPath() const { return m_workerPath; }
  /// Whether a job is running or queued.
  bool isBusy() const { return m_current.id != 0 || !m_queue.isEmpty(); }
  /// Whether `jobId` was submitted as quiet (valid until its finished/cancelled signal has returned).
  bool isQuiet(int jobId) const { return m_quiet.contains(jobId); }
  /// Id of the running job (0 when idle).
  int currentJobId() const { return m_current.id; }

signals:
  /// The job left the queue and went to the worker.
  void started(int jobId, const QString &title);
  /// A progress message: stage is compile, case, timing, traffic, baseline or diagnose; index/of for cases.
  void progress(int jobId, const QString &stage, int index, int of, const QString &text);
  /// The job's run report (docs/run-report.md), read once from the worker's JSON (report::from_json); synthesised
  /// by the client for time-outs, crashes and a report it cannot read (verdict error, error.kind internal).
  void finished(int jobId, const tkm::report::RunReport &report);
  /// The job was cancelled by the learner; no report follows.
  void cancelled(int jobId);
  /// isBusy() changed.
  void busyChanged(bool busy);

private:
  struct Pending {
    int id = 0;
    EngineJob job;
  };

  void startNext();
  bool ensureWorker();
  void onReadyRead();
  void handleLine(const QByteArray &line);
  void sendCurrent();
  void restartDeadline();
  void onWorkerFinished(int exitCode, QProcess::ExitStatus status);
  void onDeadline();
  void finishCurrent(const report::RunReport &report);
  void killWorker();
  report::RunReport readReport(const nlohmann::json &report) const;
  report::RunReport syntheticReport(report::RunReport report) const;

  QString m_workerPath;
  QProcess *m_worker = nullptr;
  QByteArray m_buffer;
  QTimer m_deadline;
  int m_deadlineMs = 10000;
  int m_nextId = 1;
  Pending m_current;
  QList<Pending> m_queue;
  bool m_currentHeard = false;   ///< the running job got at least one message
  bool m_currentRetried = false; ///< the running job was re-sent to a fresh worker once
  runner::Progress m_lastProgress; ///< the running job's last progress message (for the deadline rule)
  QString m_stderrTail;
  QSet<int> m_quiet;
};

/// Builds the JSON request line of a job (without the trailing newline).
QByteArray engineRequestLine(int id, const EngineJob &job);

} // namespace tkm::app
