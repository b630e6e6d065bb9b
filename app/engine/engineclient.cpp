#include "app/engine/engineclient.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace tkm::app {

QByteArray engineRequestLine(int id, const EngineJob &job)
{
  QJsonObject request{{QStringLiteral("id"), id}, {QStringLiteral("op"), job.op}};
  if (job.op == QLatin1String("run") || job.op == QLatin1String("compile")) {
    request.insert(QStringLiteral("exercise"), job.exerciseFolder);
    request.insert(QStringLiteral("source"), job.source);
    request.insert(QStringLiteral("source_name"), job.sourceName);
    QJsonObject meta;
    for (const auto &[name, value] : job.meta)
      meta.insert(name, value);
    request.insert(QStringLiteral("meta"), meta);
  }
  if (job.op == QLatin1String("run")) {
    request.insert(QStringLiteral("measure"), job.measure);
    request.insert(QStringLiteral("cases"), QStringLiteral("all"));
    if (!job.configs.isEmpty()) {
      QJsonArray configs;
      for (const auto &config : job.configs) {
        QJsonObject values;
        for (const auto &[name, value] : config)
          values.insert(name, value);
        configs.append(values);
      }
      request.insert(QStringLiteral("configs"), configs);
    }
    if (job.declareReset)
      request.insert(QStringLiteral("reset_to_zero"), QJsonArray::fromStringList(job.resetToZero));
  }
  return QJsonDocument(request).toJson(QJsonDocument::Compact);
}

EngineClient::EngineClient(const QString &workerPath, QObject *parent)
    : QObject(parent), m_workerPath(workerPath)
{
  m_deadline.setSingleShot(true);
  connect(&m_deadline, &QTimer::timeout, this, &EngineClient::onDeadline);
}

EngineClient::~EngineClient()
{
  if (m_worker) {
    m_worker->disconnect(this);
    m_worker->kill();
    m_worker->waitForFinished(2000);
  }
}

int EngineClient::submit(const EngineJob &job)
{
  const bool wasBusy = isBusy();
  const int id = m_nextId++;
  m_queue.append(Pending{id, job});
  if (job.quiet)
    m_quiet.insert(id);
  if (!wasBusy)
    emit busyChanged(true);
  // Started from the event loop, so that the caller knows the job id before any signal about it arrives.
  QMetaObject::invokeMethod(this, &EngineClient::startNext, Qt::QueuedConnection);
  return id;
}

void EngineClient::cancel()
{
  if (!isBusy())
    return;
  QList<int> ids;
  if (m_current.id != 0)
    ids.append(m_current.id);
  for (const Pending &p : std::as_const(m_queue))
    ids.append(p.id);
  m_queue.clear();
  m_current = {};
  m_deadline.stop();
  killWorker();
  for (int id : ids) {
    emit cancelled(id);
    m_quiet.remove(id);
  }
  emit busyChanged(false);
}

bool EngineClient::ensureWorker()
{
  if (m_worker && m_worker->state() == QProcess::Running)
    return true;
  killWorker();
  if (!QFileInfo(m_workerPath).isExecutable())
    return false;
  m_worker = new QProcess(this);
  m_buffer.clear();
  m_stderrTail.clear();
  connect(m_worker, &QProcess::readyReadStandardOutput, this, &EngineClient::onReadyRead);
  connect(m_worker, &QProcess::readyReadStandardError, this, [this] {
    if (!m_worker)
      return;
    m_stderrTail += QString::fromUtf8(m_worker->readAllStandardError());
    if (m_stderrTail.size() > 4000)
      m_stderrTail = m_stderrTail.right(4000);
  });
  connect(m_worker, &QProcess::finished, this, &EngineClient::onWorkerFinished);
  m_worker->start(m_workerPath, {QStringLiteral("--serve")});
  if (!m_worker->waitForStarted(5000)) {
    killWorker();
    return false;
  }
  return true;
}

void EngineClient::startNext()
{
  if (m_current.id != 0 || m_queue.isEmpty())
    return;
  m_current = m_queue.takeFirst();
  m_currentHeard = false;
  m_currentRetried = false;
  emit started(m_current.id, m_current.job.title);
  if (!ensureWorker()) {
    finishCurrent(syntheticReport(
        QStringLiteral("error"),
        tr("The engine worker could not be started from %1. Build it (cmake --build build --target tkm-run) or "
           "set TKM_RUN to its path, then run again.")
            .arg(m_workerPath),
        QStringLiteral("internal")));
    return;
  }
  m_worker->write(engineRequestLine(m_current.id, m_current.job) + '\n');
  m_deadline.start(m_deadlineMs);
}

void EngineClient::onReadyRead()
{
  if (!m_worker)
    return;
  m_buffer += m_worker->readAllStandardOutput();
  for (qsizetype nl = m_buffer.indexOf('\n'); nl >= 0; nl = m_buffer.indexOf('\n')) {
    const QByteArray line = m_buffer.left(nl).trimmed();
    m_buffer.remove(0, nl + 1);
    if (!line.isEmpty())
      handleLine(line);
  }
}

void EngineClient::handleLine(const QByteArray &line)
{
  QJsonParseError error{};
  const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
  if (!doc.isObject())
    return; // not a protocol line (the worker logs to stderr, but be lenient)
  const QJsonObject message = doc.object();
  const int id = message.value(QStringLiteral("id")).toInt();
  if (id == 0 || id != m_current.id)
    return; // a late message of a cancelled job
  m_currentHeard = true;
  const QString type = message.value(QStringLiteral("type")).toString();
  if (type == QLatin1String("progress")) {
    m_deadline.start(m_deadlineMs);
    emit progress(id, message.value(QStringLiteral("stage")).toString(), message.value(QStringLiteral("case")).toInt(),
                  message.value(QStringLiteral("of")).toInt(), message.value(QStringLiteral("text")).toString());
  } else if (type == QLatin1String("report")) {
    finishCurrent(message.value(QStringLiteral("report")).toObject());
  } else if (type == QLatin1String("error")) {
    finishCurrent(syntheticReport(QStringLiteral("error"),
                                  tr("The engine refused the request: %1")
                                      .arg(message.value(QStringLiteral("message")).toString()),
                                  QStringLiteral("internal")));
  }
}

void EngineClient::onWorkerFinished(int exitCode, QProcess::ExitStatus status)
{
  auto *dead = qobject_cast<QProcess *>(sender());
  if (!dead || dead != m_worker) {
    if (dead)
      dead->deleteLater();
    return;
  }
  m_worker = nullptr;
  dead->disconnect(this);
  dead->deleteLater();
  // Lines still buffered when the process ended (its report may be among them).
  const int jobAtExit = m_current.id;
  m_buffer += dead->readAllStandardOutput();
  m_buffer += '\n';
  for (qsizetype nl = m_buffer.indexOf('\n'); nl >= 0 && m_current.id == jobAtExit; nl = m_buffer.indexOf('\n')) {
    const QByteArray line = m_buffer.left(nl).trimmed();
    m_buffer.remove(0, nl + 1);
    if (!line.isEmpty())
      handleLine(line);
  }
  m_buffer.clear();
  if (m_current.id == 0 || m_current.id != jobAtExit)
    return; // exit after its report (status 3 after a sticky CUDA error): the next job starts a fresh worker
  if (!m_currentHeard && !m_currentRetried && status == QProcess::NormalExit && exitCode == 3) {
    // The job was written to a worker that was already on its way out after the previous job's sticky error.
    m_currentRetried = true;
    if (ensureWorker()) {
      m_worker->write(engineRequestLine(m_current.id, m_current.job) + '\n');
      m_deadline.start(m_deadlineMs);
      return;
    }
  }
  const QString how = status == QProcess::CrashExit ? tr("crashed") : tr("exited with status %1").arg(exitCode);
  QString summary = tr("The engine worker %1 before it sent a report. Your code is safe; the next run starts a "
                       "fresh worker.")
                        .arg(how);
  const QString tail = m_stderrTail.trimmed();
  if (!tail.isEmpty())
    summary += QStringLiteral("\n\n") + tr("Its last words: %1").arg(tail.right(600));
  finishCurrent(syntheticReport(QStringLiteral("error"), summary, QStringLiteral("worker-crash")));
}

void EngineClient::onDeadline()
{
  if (m_current.id == 0)
    return;
  killWorker();
  const int seconds = (m_deadlineMs + 999) / 1000;
  finishCurrent(syntheticReport(QStringLiteral("timeout"),
                                tr("the kernel did not finish in %1 s — endless loop?").arg(seconds), QString()));
}

void EngineClient::finishCurrent(const QJsonObject &report)
{
  m_deadline.stop();
  const int id = m_current.id;
  m_current = {};
  emit finished(id, report);
  m_quiet.remove(id);
  if (m_queue.isEmpty())
    emit busyChanged(false);
  else
    startNext();
}

void EngineClient::killWorker()
{
  if (!m_worker)
    return;
  QProcess *worker = m_worker;
  m_worker = nullptr;
  worker->disconnect(this);
  worker->kill();
  worker->waitForFinished(2000);
  worker->deleteLater();
}

QJsonObject EngineClient::syntheticReport(const QString &verdict, const QString &summary,
                                          const QString &errorKind) const
{
  QJsonObject report{{QStringLiteral("schema"), QStringLiteral("tkm-run-report/1")},
                     {QStringLiteral("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
                     {QStringLiteral("verdict"), verdict},
                     {QStringLiteral("summary"), summary},
                     {QStringLiteral("synthetic"), true}};
  if (!m_current.job.title.isEmpty())
    report.insert(QStringLiteral("exercise"), QJsonObject{{QStringLiteral("title"), m_current.job.title}});
  if (!errorKind.isEmpty())
    report.insert(QStringLiteral("error"),
                  QJsonObject{{QStringLiteral("kind"), errorKind}, {QStringLiteral("message"), summary}});
  return report;
}

} // namespace tkm::app
