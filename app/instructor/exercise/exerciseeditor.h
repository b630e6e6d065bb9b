#pragma once
// The instructor's exercise editor (issue 7): an exercise folder's spec as a form (SpecForm) beside its starter,
// solution, reference and bug variants in kernel editors, one undo history over the form and the code, live spec
// checks shown on the field they concern, and "Validate": `tkm-run validate --json` on a copy of what is on screen
// (NVRTC compiles, weak-case warnings and, with an NVIDIA GPU, the verdict table; docs/packs.md).
//
// Instructor mode opens it on a pack's exercise folder (`editExerciseRequested(dir)`) and asks maybeSave() before
// switching away.

#include "app/instructor/exercise/exercisedocument.h"

#include <QHash>
#include <QJsonObject>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QWidget>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QTabWidget;
class QTemporaryDir;
class QTimer;
class QUndoStack;

namespace tkm::app {

class KernelEditor;
class SpecForm;
class VerdictView;

/// Editor of one exercise folder.
class ExerciseEditor : public QWidget
{
    Q_OBJECT
public:
    /// Asks whether to save unsaved changes; returns Save, Discard or Cancel. `what` names the exercise.
    using PromptHandler = std::function<QMessageBox::StandardButton(const QString& what)>;

    explicit ExerciseEditor(QWidget* parent = nullptr);
    ~ExerciseEditor() override;

    /// Opens `dir` (holds exercise.json). False with `error` set when it has no readable, valid JSON spec; a spec
    /// that parses as JSON but breaks the spec rules opens, with the error on its field. Clears the undo history.
    bool load(const QString& dir, QString* error);
    /// Writes exercise.json and the changed sources back; marks the editor clean. False with `error` set.
    bool save(QString* error);
    /// Whether there are unsaved changes.
    bool isModified() const;
    /// When modified, asks Save / Discard / Cancel (through the prompt handler, a message box by default) and saves
    /// on Save; true when the caller may go on (saved, discarded or nothing to save).
    bool maybeSave();
    /// Replaces the unsaved-changes question (tests, or the shell's own confirm handler).
    void setPromptHandler(PromptHandler handler) { m_prompt = std::move(handler); }

    /// The undo history of form and code edits.
    QUndoStack* undoStack() const { return m_undo; }
    /// The folder being edited.
    QString folder() const { return m_doc.dir(); }
    /// The document (spec and sources as edited).
    const ExerciseDocument& document() const { return m_doc; }
    /// Changes one spec value as the form does (one undoable step; a discarded value removes it).
    void setSpecValue(const std::string& pointer, const SpecJson& value, const QString& what = {});

    /// Runs `tkm-run validate --json` on a copy of what is on screen; the result shows in verdicts().
    void validate();
    /// Whether a validation is running.
    bool isValidating() const;
    /// Shows a `tkm-run validate --json` document as if a validation had just produced it (also used by validate()).
    void showValidationResult(const QJsonObject& document);
    /// The engine executable (default: workerPath(), app/common/paths.h).
    void setEnginePath(const QString& path) { m_enginePath = path; }

    /// The form.
    SpecForm* form() const { return m_form; }
    /// The verdict table and messages.
    VerdictView* verdicts() const { return m_verdicts; }
    /// The kernel editor of a spec-relative source path, or nullptr.
    KernelEditor* sourceEditor(const QString& relativePath) const { return m_editors.value(relativePath); }
    /// Shows the code tab of `relativePath` at `line`, `column` [1-based].
    void showSource(const QString& relativePath, int line = 0, int column = 0);
    /// Focuses the form field at `pointer` (warnings and errors call this).
    void focusField(const QString& pointer);

signals:
    /// isModified() changed.
    void modifiedChanged(bool modified);
    /// save() wrote the exercise to `folder` (from the toolbar, Ctrl+S, maybeSave() or a caller).
    void saved(const QString& folder);
    /// A validation ended; `ok` when every row is as expected (warnings allowed).
    void validationFinished(bool ok);

private:
    friend class CodeEditCommand;
    friend class SpecEditCommand;

    void applySpec(const std::string& pointer, const SpecJson& value);
    void rebuildCodeTabs();
    KernelEditor* makeEditor(const QString& rel);
    void onCodeModified(KernelEditor* editor, int modificationType);
    void checkSpec();
    void onValidationFinished(int exitCode, QProcess::ExitStatus status);
    void updateTitleLabel();

    ExerciseDocument m_doc;
    QUndoStack* m_undo = nullptr;
    SpecForm* m_form = nullptr;
    QTabWidget* m_code = nullptr;
    VerdictView* m_verdicts = nullptr;
    QLabel* m_title = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_validateAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QTimer* m_checkTimer = nullptr;
    QHash<QString, KernelEditor*> m_editors;
    QProcess* m_process = nullptr;
    std::unique_ptr<QTemporaryDir> m_validationDir;
    QByteArray m_validationOut;
    QString m_validationErr;
    QString m_enginePath;
    PromptHandler m_prompt;
    bool m_replaying = false; ///< an undo/redo or a load is changing editor text: do not record it
};

} // namespace tkm::app
