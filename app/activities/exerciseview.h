#pragma once
// Coding exercise: the prompt and hints beside the kernel editor; a `Triton | CUDA` track switch (remembered per
// exercise; Triton when the exercise has that track); meta-parameter controls; Run, Reset to starter, Hint (one at a
// time), Show solution (after a pass, or on request with confirmation); compile errors as markers, squiggles,
// inline annotations and a clickable list; a fault's line, program and lane. In the Triton track the Generated
// CUDA / PTX / SASS pane sits beside the editor, its lines mapped to the Triton lines both ways. The learner's code
// of each track is saved as they type and restored.

#include "app/activities/activityview.h"
#include "app/activities/exercisetrack.h"

#include <QJsonObject>
#include <QList>
#include <QPair>

#include <array>

class QComboBox;
class QDialog;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTimer;

namespace tkm::app {

class AutotunePanel;
class EditorSplit;
class GeneratedCodePane;
class KernelEditor;
class MarkdownView;

/// Exercise view.
class ExerciseView : public ActivityView {
  Q_OBJECT
public:
  ExerciseView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);
  ~ExerciseView() override;

  /// The editor.
  KernelEditor *editor() const { return m_editor; }
  /// The compile-diagnostics list.
  QListWidget *diagnosticsList() const { return m_diagnostics; }
  /// Meta-parameter values chosen in the controls, in spec order.
  QList<QPair<QString, qint64>> metaValues() const;
  /// Sets a meta-parameter control; false when unknown or not an allowed value.
  bool setMetaValue(const QString &name, qint64 value);
  /// Submits the kernel to the engine; returns the job id (0 when there is no engine).
  int runKernel();
  /// Shows the next hint; false when every hint is shown.
  bool showNextHint();
  /// Number of hints shown.
  int hintsShown() const { return m_hintsShown; }
  /// Opens the solution (asks first unless the exercise was passed); returns whether it was shown.
  bool showSolution();
  /// The solution window (nullptr before showSolution).
  QDialog *solutionDialog() const { return m_solutionDialog; }
  /// Writes the code to its file now (it is also saved 0.6 s after each edit).
  void saveNow();
  /// The file the code is saved in.
  QString codePath() const { return m_codePath; }
  /// The last report of this view's runs in the track shown (absent before the first).
  const std::optional<report::RunReport> &lastReport() const { return m_runs[static_cast<int>(m_track)].report; }
  /// Shows a run report of `source`: its verdict and diagnostics belong to the track that produced it
  /// (reportTrack(); the shown track when the report names none) and reach the editor only while that track is
  /// shown; each track keeps its own last report across switches.
  void showReport(const report::RunReport &report, const QString &source = QString());
  /// Whether the exercise has been passed (this session or before).
  bool passed() const;
  /// The verdict line under the editor.
  QString verdictText() const;
  /// The autotune table (nullptr unless the exercise's spec has an autotune block).
  AutotunePanel *autotunePanel() const { return m_autotune; }
  /// The track shown.
  Track track() const { return m_track; }
  /// Switches to `track` (saves this track's code, opens the other's); false when the exercise lacks it.
  bool setTrack(Track track);
  /// The Generated CUDA / PTX / SASS pane (hidden in the CUDA track).
  GeneratedCodePane *generatedPane() const { return m_generated; }
  /// The editor | generated-code split (its toggle collapses the pane).
  EditorSplit *codeSplit() const { return m_codeSplit; }
  /// Lowers the editor's Triton kernel now and shows it in the pane (also done 0.5 s after each edit).
  void refreshGenerated();
  /// The prompt view (the track's prompt: Triton prompt, or the CUDA one under a note, or the CUDA prompt).
  MarkdownView *promptView() const { return m_prompt; }
  /// The hints shown so far (this track's).
  MarkdownView *hintsView() const { return m_hints; }

  bool canRun() const override { return true; }
  void run() override { runKernel(); }
  /// Reset to the starter (asks first; undoable in the editor).
  void reset() override;
  bool canFind() const override { return true; }
  void find() override;
  void saveWork() override { saveNow(); }

private:
  void onFinished(int jobId, const report::RunReport &report);
  void onStarted(int jobId);
  void applyDiagnostics();
  void restoreHints();
  QString hintsKey() const;
  void updateHintButton();
  void runSolutionForComparison();
  QWidget *makeTrackSwitch(QWidget *parent);
  void loadTrackCode();
  QString verdictLine(const report::RunReport &report) const;

  KernelEditor *m_editor = nullptr;
  MarkdownView *m_prompt = nullptr;
  MarkdownView *m_hints = nullptr;
  QListWidget *m_diagnostics = nullptr;
  QLabel *m_verdict = nullptr;
  QPushButton *m_run = nullptr;
  QPushButton *m_hint = nullptr;
  QPushButton *m_solution = nullptr;
  QPushButton *m_compare = nullptr;
  QList<QPair<QString, QWidget *>> m_metaControls;
  AutotunePanel *m_autotune = nullptr;
  QTimer *m_saveTimer = nullptr;
  QTimer *m_lowerTimer = nullptr;
  GeneratedCodePane *m_generated = nullptr;
  EditorSplit *m_codeSplit = nullptr;
  QLabel *m_fileLabel = nullptr;
  QPushButton *m_tritonButton = nullptr;
  QPushButton *m_cudaButton = nullptr;
  Track m_track = Track::Cuda;
  QDialog *m_solutionDialog = nullptr;
  QString m_codePath;
  /// The last run of one track: its report and what was run.
  struct TrackRun {
    std::optional<report::RunReport> report;
    QString source;
    QList<QPair<QString, qint64>> meta;
  };
  std::array<TrackRun, 2> m_runs; ///< indexed by Track
  QString m_runSource;                   ///< source of the run in flight (recorded with its report)
  QList<QPair<QString, qint64>> m_runMeta; ///< its meta-parameters
  int m_jobId = 0;
  int m_solutionJobId = 0;
  int m_hintsShown = 0;
  bool m_dirty = false;
};

} // namespace tkm::app
