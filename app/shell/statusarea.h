#pragma once
// Status-bar area: the GPU in use (name, compute capability, memory) from the worker's `devices` op, or the
// no-GPU banner; and the line of the running job.

#include "engine/report/run_report.h"

#include <QJsonObject>
#include <QWidget>

class QLabel;

namespace tkm::app {

class EngineClient;

/// What the worker said about the GPU.
struct GpuInfo {
  bool present = false;  ///< a usable NVIDIA GPU was found
  QString name;          ///< e.g. "NVIDIA H200"
  QString cc;            ///< compute capability, e.g. "9.0"
  double memoryBytes = 0; ///< [bytes] device memory
  QString message;       ///< why there is none (no GPU, no driver, worker missing), for the tooltip
};

/// Reads the worker's reply to `{"op": "devices"}` (a report whose `device` is the first GPU, or an error).
GpuInfo parseDevicesReport(const report::RunReport &report);

/// The GPU line and banner.
class StatusArea : public QWidget {
  Q_OBJECT
public:
  explicit StatusArea(QWidget *parent = nullptr);

  /// Asks `engine` for its devices (asynchronous); the label says "Looking for a GPU…" meanwhile.
  void queryDevices(EngineClient *engine);
  /// Shows `info` (public for tests and for callers that already know).
  void showGpu(const GpuInfo &info);
  /// The last GPU information shown.
  const GpuInfo &gpu() const { return m_gpu; }
  /// The label text (for tests).
  QString text() const;
  /// The "details" link shown beside the no-GPU sentence (for tests).
  QLabel *detailsLink() const { return m_details; }

signals:
  /// The GPU information is known.
  void gpuKnown(const tkm::app::GpuInfo &info);

private:
  QLabel *m_label = nullptr;
  QLabel *m_details = nullptr; ///< "details": the raw reason when there is no GPU
  GpuInfo m_gpu;
  int m_jobId = 0;
};

/// The banner sentence shown when no GPU is usable.
QString noGpuSentence();

} // namespace tkm::app
