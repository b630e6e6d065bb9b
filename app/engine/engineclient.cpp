#include "app/engine/engineclient.h"

#include "engine/worker/protocol.h"

#include <QFileInfo>

#include <chrono>

namespace tkm::app {

namespace {

/// The diagnosis allowance of worker::allowedSilence [ms] (the Qt-free client's default).
constexpr std::chrono::milliseconds kDiagnoseGrace{30000};

std::string utf8(const QString &s) { return s.toStdString(); }

runner::Job engineJob(const EngineJob &job)
{
  runner::Job out;
  out.mode = job.op == QLatin1String("compile") ? runner::Mode::CompileOnly : runner::Mode::Run;
  out.exercise = utf8(job.exerciseFolder);
  out.source = utf8(job.source);
  out.sourceName = utf8(job.sourceName);
  for (const auto &[name, value] : job.meta)
    out.meta[utf8(name)] = value;
  out.measure = job.measure;
  for (const auto &config : job.configs) {
    problem::MetaValues values;
    for (const auto &[name, value] : config)
      values[utf8(name)] = value;
    out.configs.push_back(std::move(values));
  }
  if (job.declareReset) {
    std::vector<std::string> names;
    for (const QString &name : job.resetToZero)
      names.push_back(utf8(name));
    out.resetToZero = std::move(names);
  }
  return out;
}


} // namespace

QByteArray engineRequestLine(int id, const EngineJob &job)
{
  const bool isJob = job.op == QLatin1String("run") || job.op == QLatin1String("compile");
  const nlohmann::json request = isJob                              ? worker::jobRequest(engineJob(job), id)
                                 : job.op == QLatin1String("warm") ? worker::warmRequest(id, utf8(job.exerciseFolder))
                                                                   : worker::simpleRequest(id, utf8(job.op));
  return QByteArray::fromStdString(request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
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

int EngineClient::warmUp(const QString &exerciseFolder)
{
  EngineJob job;
  job.op = QStringLiteral("warm");
  job.exerciseFolder = exerciseFolder;
  job.title = tr("Engine warm-up");
  job.quiet = true;
  return submit(job);
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
  m_lastProgress = {};
  emit started(m_current.id, m_current.job.title);
  if (!ensureWorker()) {
    finishCurrent(syntheticReport(worker::errorReport(
        "internal", utf8(tr("The engine worker could not be started from %1. Build it (cmake --build build --target "
                            "tkm-run) or set TKM_RUN to its path, then run again.")
                             .arg(m_workerPath)))));
    return;
  }
  sendCurrent();
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

void EngineClient::sendCurrent()
{
  m_worker->write(engineRequestLine(m_current.id, m_current.job) + '\n');
  restartDeadline();
}

void EngineClient::restartDeadline()
{
  const auto allowed =
      worker::allowedSilence(m_lastProgress.stage, std::chrono::milliseconds(m_deadlineMs), kDiagnoseGrace);
  m_deadline.start(static_cast<int>(allowed.count()));
}

void EngineClient::handleLine(const QByteArray &line)
{
  const worker::WorkerMessage message = worker::parseWorkerLine(std::string_view(line.constData(), line.size()));
  if (message.type == worker::WorkerMessage::Type::Other)
    return; // not a protocol line (the worker logs to stderr, but be lenient)
  if (m_current.id == 0 || message.id != nlohmann::json(m_current.id))
    return; // a late message of a cancelled job
  m_currentHeard = true;
  const int id = m_current.id;
  switch (message.type) {
  case worker::WorkerMessage::Type::Progress: {
    m_lastProgress = message.progress;
    restartDeadline();
    const runner::Progress &p = message.progress;
    emit progress(id, QString::fromStdString(p.stage), p.index, p.of, QString::fromStdString(p.text));
    break;
  }
  case worker::WorkerMessage::Type::Report:
    finishCurrent(readReport(message.report));
    break;
  case worker::WorkerMessage::Type::Error:
    finishCurrent(syntheticReport(worker::rejectedReport(message.message)));
    break;
  default:
    break;
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
      sendCurrent();
      return;
    }
  }
  const std::string how = status == QProcess::CrashExit ? "it crashed" : "exited with status " + std::to_string(exitCode);
  finishCurrent(syntheticReport(worker::workerCrashReport(how, utf8(m_stderrTail.trimmed().right(600)))));
}

void EngineClient::onDeadline()
{
  if (m_current.id == 0)
    return;
  killWorker();
  finishCurrent(syntheticReport(worker::timeoutReport(std::chrono::milliseconds(m_deadlineMs), m_lastProgress)));
}

report::RunReport EngineClient::readReport(const nlohmann::json &report) const
{
  // The one place the worker's JSON becomes the typed report (report::from_json); every view reads the struct.
  try {
    return report.get<report::RunReport>();
  } catch (const nlohmann::json::exception &e) {
    return syntheticReport(worker::errorReport(
        "internal", utf8(tr("The engine worker sent a report the app cannot read (%1). Rebuild tkm-run and the app "
                            "from the same sources, then run again.")
                             .arg(QString::fromUtf8(e.what())))));
  }
}

void EngineClient::finishCurrent(const report::RunReport &report)
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

report::RunReport EngineClient::syntheticReport(report::RunReport report) const
{
  // The job's title stands in for the exercise, so that the results view can say what ran.
  if (!m_current.job.title.isEmpty() && !report.exercise)
    report.exercise = report::ExerciseInfo{{}, utf8(m_current.job.title), {}};
  return report;
}

} // namespace tkm::app
