#include "app/instructor/exercise/exerciseeditor.h"

#include "app/common/paths.h"
#include "app/editor/kerneleditor.h"
#include "app/instructor/exercise/specform.h"
#include "app/instructor/exercise/verdictview.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

#include "engine/problem/spec.h"
#include "modules/packs/exercise_check.h"
#include "modules/packs/weak_cases.h"

namespace tkm::app {

/// One spec change: the value (or absence) before and after.
class SpecEditCommand : public QUndoCommand
{
public:
    SpecEditCommand(ExerciseEditor* editor, std::string pointer, SpecJson before, SpecJson after, const QString& text)
        : QUndoCommand(text), m_editor(editor), m_pointer(std::move(pointer)), m_before(std::move(before)),
          m_after(std::move(after))
    {
    }
    void undo() override { m_editor->applySpec(m_pointer, m_before); }
    void redo() override { m_editor->applySpec(m_pointer, m_after); }

private:
    ExerciseEditor* m_editor;
    std::string m_pointer;
    SpecJson m_before;
    SpecJson m_after;
};

/// One undo action of a kernel editor (QScintilla keeps the text; this replays it in the shared history).
class CodeEditCommand : public QUndoCommand
{
public:
    CodeEditCommand(ExerciseEditor* editor, QString rel)
        : QUndoCommand(QObject::tr("Edit %1").arg(rel)), m_editor(editor), m_rel(std::move(rel))
    {
    }
    void undo() override { replay(true); }
    void redo() override
    {
        if (m_first) { // the edit itself already happened in the editor
            m_first = false;
            return;
        }
        replay(false);
    }

private:
    void replay(bool undo)
    {
        KernelEditor* e = m_editor->sourceEditor(m_rel);
        if (!e)
            return;
        m_editor->showSource(m_rel);
        m_editor->m_replaying = true;
        undo ? e->undo() : e->redo();
        m_editor->m_replaying = false;
    }

    ExerciseEditor* m_editor;
    QString m_rel;
    bool m_first = true;
};

namespace {

QString tabLabel(const ExerciseDocument& doc, const QString& rel)
{
    const auto str = [&](const char* p) {
        return QString::fromStdString(doc.value(p).is_string() ? doc.value(p).get<std::string>() : std::string());
    };
    if (rel == str("/starter"))
        return QObject::tr("Starter");
    if (rel == str("/solution"))
        return QObject::tr("Solution");
    if (rel == str("/reference/file"))
        return QObject::tr("Reference");
    if (rel == str("/triton/starter"))
        return QObject::tr("Triton starter");
    if (rel == str("/triton/solution"))
        return QObject::tr("Triton solution");
    if (rel == str("/triton/reference/file"))
        return QObject::tr("Triton reference");
    if (rel == str("/prompt"))
        return QObject::tr("Prompt");
    if (rel == str("/triton/prompt"))
        return QObject::tr("Triton prompt");
    if (rel.endsWith(QLatin1String(".py")))
        return QObject::tr("Triton bug · %1").arg(QFileInfo(rel).fileName());
    return QObject::tr("Bug · %1").arg(QFileInfo(rel).fileName());
}

} // namespace

ExerciseEditor::ExerciseEditor(QWidget* parent) : QWidget(parent), m_enginePath(workerPath())
{
    m_undo = new QUndoStack(this);
    auto* toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_saveAction = toolbar->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Save"), this, [this] {
        QString error;
        if (!save(&error))
            QMessageBox::warning(this, tr("Save"), error);
    });
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_undoAction = m_undo->createUndoAction(this, tr("Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_redoAction = m_undo->createRedoAction(this, tr("Redo"));
    m_redoAction->setShortcut(QKeySequence::Redo);
    m_redoAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    toolbar->addAction(m_undoAction);
    toolbar->addAction(m_redoAction);
    addAction(m_saveAction);
    addAction(m_undoAction);
    addAction(m_redoAction);
    toolbar->addSeparator();
    m_validateAction = toolbar->addAction(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("Validate"), this,
                                          &ExerciseEditor::validate);
    m_validateAction->setToolTip(tr("Compile every source and check the cases; with an NVIDIA GPU also run the "
                                    "solution, each bug variant and the starter"));
    toolbar->addSeparator();
    m_title = new QLabel(toolbar);
    toolbar->addWidget(m_title);

    m_form = new SpecForm;
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(460);
    m_code = new QTabWidget(this);
    m_code->setDocumentMode(true);
    m_verdicts = new VerdictView(this);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_code);
    right->addWidget(m_verdicts);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setSizes({560, 380});
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({520, 980});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar);
    layout->addWidget(split, 1);

    m_checkTimer = new QTimer(this);
    m_checkTimer->setSingleShot(true);
    m_checkTimer->setInterval(250);
    connect(m_checkTimer, &QTimer::timeout, this, &ExerciseEditor::checkSpec);
    m_form->setEditHandler([this](const std::string& pointer, const SpecJson& value, const QString& what) {
        setSpecValue(pointer, value, what);
    });
    connect(m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) {
        updateTitleLabel();
        emit modifiedChanged(!clean);
    });
    connect(m_verdicts, &VerdictView::pointerActivated, this, &ExerciseEditor::focusField);
    connect(m_verdicts, &VerdictView::sourceActivated, this, &ExerciseEditor::showSource);
}

ExerciseEditor::~ExerciseEditor()
{
    // The undo stack outlives the members it would report on (it is a child, deleted after them).
    m_undo->disconnect(this);
    m_form->detach();
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

bool ExerciseEditor::load(const QString& dir, QString* error)
{
    ExerciseDocument doc;
    QString warning;
    if (!doc.load(dir, &warning)) {
        if (error)
            *error = warning;
        return false;
    }
    m_doc = std::move(doc);
    m_undo->clear();
    for (KernelEditor* e : std::as_const(m_editors))
        e->deleteLater();
    m_editors.clear();
    m_code->clear();
    rebuildCodeTabs();
    m_form->setDocument(&m_doc);
    m_verdicts->setFailure(
        tr("Press Validate to compile every source and, with an NVIDIA GPU, run the verdict table."));
    checkSpec();
    updateTitleLabel();
    if (error)
        *error = warning; // missing sources, if any: they open empty
    return true;
}

bool ExerciseEditor::save(QString* error)
{
    if (!m_doc.save(error))
        return false;
    m_undo->setClean();
    updateTitleLabel();
    emit saved(folder());
    return true;
}

bool ExerciseEditor::isModified() const
{
    return !m_undo->isClean();
}

bool ExerciseEditor::maybeSave()
{
    if (!isModified())
        return true;
    const QString what =
        QString::fromStdString(m_doc.value("/id").is_string() ? m_doc.value("/id").get<std::string>() : "");
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    if (m_prompt) {
        answer = m_prompt(what);
    } else {
        answer = QMessageBox::warning(
            this, tr("Unsaved changes"), tr("The exercise \"%1\" has unsaved changes. Save them?").arg(what),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    }
    if (answer == QMessageBox::Discard)
        return true;
    if (answer != QMessageBox::Save)
        return false;
    QString error;
    if (save(&error))
        return true;
    QMessageBox::warning(this, tr("Save"), error);
    return false;
}

void ExerciseEditor::setSpecValue(const std::string& pointer, const SpecJson& value, const QString& what)
{
    const SpecJson before = m_doc.contains(pointer) ? m_doc.value(pointer) : SpecJson(SpecJson::value_t::discarded);
    m_undo->push(new SpecEditCommand(this, pointer, before, value,
                                     what.isEmpty() ? tr("Change %1").arg(QString::fromStdString(pointer)) : what));
}

void ExerciseEditor::applySpec(const std::string& pointer, const SpecJson& value)
{
    const bool existed = m_doc.contains(pointer);
    const SpecJson old = m_doc.value(pointer);
    m_doc.setValue(pointer, value);
    // A renamed source keeps its text under the new name.
    if (old.is_string() && value.is_string() &&
        m_doc.sourceFiles().contains(QString::fromStdString(value.get<std::string>()))) {
        const QString from = QString::fromStdString(old.get<std::string>());
        const QString to = QString::fromStdString(value.get<std::string>());
        if (!m_doc.sources().contains(to) && m_doc.sources().contains(from))
            m_doc.setSource(to, m_doc.source(from));
    }
    // A new bug variant starts from the solution, a new Triton prompt from the CUDA prompt.
    for (const QString& rel : m_doc.sourceFiles()) {
        if (!m_doc.sources().contains(rel)) {
            const SpecJson tritonPrompt = m_doc.value("/triton/prompt");
            const bool isPrompt = tritonPrompt.is_string() && rel == QString::fromStdString(tritonPrompt.get<std::string>());
            const SpecJson from = m_doc.value(isPrompt ? "/prompt" : "/solution");
            m_doc.setSource(rel, from.is_string() ? m_doc.source(QString::fromStdString(from.get<std::string>()))
                                                  : QString());
        }
    }
    const bool structural = value.is_structured() || old.is_structured() || existed == value.is_discarded();
    if (structural)
        m_form->rebuild();
    else
        m_form->refreshValues();
    rebuildCodeTabs();
    m_checkTimer->start();
}

KernelEditor* ExerciseEditor::makeEditor(const QString& rel)
{
    auto* editor = new KernelEditor;
    editor->setObjectName(rel);
    editor->setLanguage(rel.endsWith(QLatin1String(".py"))   ? QStringLiteral("python")
                        : rel.endsWith(QLatin1String(".md")) ? QStringLiteral("markdown")
                                                             : QStringLiteral("cuda"));
    m_replaying = true;
    editor->setText(m_doc.source(rel));
    editor->SendScintilla(QsciScintillaBase::SCI_EMPTYUNDOBUFFER);
    m_replaying = false;
    // Undo and redo go through the shared history: take the keys from QScintilla, give them to our actions.
    for (const long key : {long('Z') + (long(QsciScintillaBase::SCMOD_CTRL) << 16),
                           long('Y') + (long(QsciScintillaBase::SCMOD_CTRL) << 16),
                           long('Z') + (long(QsciScintillaBase::SCMOD_CTRL | QsciScintillaBase::SCMOD_SHIFT) << 16),
                           long(QsciScintillaBase::SCK_BACK) + (long(QsciScintillaBase::SCMOD_ALT) << 16)})
        editor->SendScintilla(QsciScintillaBase::SCI_CLEARCMDKEY, key);
    editor->setContextMenuPolicy(Qt::ActionsContextMenu);
    editor->addAction(m_undoAction);
    editor->addAction(m_redoAction);
    connect(editor, &QsciScintillaBase::SCN_MODIFIED, this,
            [this, editor](int, int type, const char*, int, int, int, int, int, int, int) {
                onCodeModified(editor, type);
            });
    m_editors.insert(rel, editor);
    return editor;
}

void ExerciseEditor::onCodeModified(KernelEditor* editor, int type)
{
    constexpr int textChange = QsciScintillaBase::SC_MOD_INSERTTEXT | QsciScintillaBase::SC_MOD_DELETETEXT;
    if (!(type & textChange))
        return;
    const QString rel = m_editors.key(editor);
    m_doc.setSource(rel, editor->text());
    if (m_replaying)
        return;
    // One history entry per QScintilla undo action (typing is coalesced by QScintilla itself).
    if ((type & QsciScintillaBase::SC_STARTACTION) &&
        !(type & (QsciScintillaBase::SC_PERFORMED_UNDO | QsciScintillaBase::SC_PERFORMED_REDO)))
        m_undo->push(new CodeEditCommand(this, rel));
}

void ExerciseEditor::rebuildCodeTabs()
{
    const QStringList files = m_doc.sourceFiles();
    QStringList shown;
    for (int i = 0; i < m_code->count(); ++i)
        shown << m_code->tabToolTip(i);
    if (shown == files) {
        // Same sources: only the labels may have changed (a renamed starter, say).
        for (int i = 0; i < m_code->count(); ++i)
            m_code->setTabText(i, tabLabel(m_doc, files[i]));
        return;
    }
    QWidget* current = m_code->currentWidget();
    for (auto it = m_editors.begin(); it != m_editors.end();) {
        if (!files.contains(it.key())) {
            // Undo history entries of a removed source replay nothing; its text stays in the document.
            it.value()->deleteLater();
            it = m_editors.erase(it);
        } else {
            ++it;
        }
    }
    m_code->blockSignals(true);
    while (m_code->count() > 0)
        m_code->removeTab(0);
    for (const QString& rel : files) {
        KernelEditor* editor = m_editors.value(rel);
        if (!editor)
            editor = makeEditor(rel);
        m_code->addTab(editor, tabLabel(m_doc, rel));
        m_code->setTabToolTip(m_code->count() - 1, rel);
    }
    const int index = current ? m_code->indexOf(current) : -1;
    m_code->setCurrentIndex(index >= 0 ? index : 0);
    m_code->blockSignals(false);
}

void ExerciseEditor::showSource(const QString& relativePath, int line, int column)
{
    KernelEditor* editor = m_editors.value(relativePath);
    if (!editor) {
        // Diagnostics name files by their base name.
        for (auto it = m_editors.cbegin(); it != m_editors.cend() && !editor; ++it)
            if (QFileInfo(it.key()).fileName() == relativePath)
                editor = it.value();
    }
    if (!editor)
        return;
    m_code->setCurrentWidget(editor);
    if (line > 0)
        editor->goToPosition(line, column);
}

void ExerciseEditor::focusField(const QString& pointer)
{
    // A source's file field: show its code too.
    const SpecJson v = m_doc.value(pointer.toStdString());
    if (v.is_string() && m_editors.contains(QString::fromStdString(v.get<std::string>())))
        showSource(QString::fromStdString(v.get<std::string>()));
    m_form->focusField(pointer);
}

void ExerciseEditor::checkSpec()
{
    // The engine's own parser, on what is on screen (files may not be saved yet: they are not checked here).
    problem::ParseOptions options;
    options.checkFiles = false;
    const auto spec = problem::parseSpec(m_doc.spec().dump(), m_doc.dir().toStdString(), options);
    QHash<QString, QString> errors;
    QHash<QString, QString> warnings;
    if (!spec) {
        const auto [pointer, message] = packs::splitSpecError(spec.error().message);
        errors.insert(QString::fromStdString(pointer), QString::fromStdString(message));
    } else {
        for (const packs::SpecWarning& w : packs::weakCaseWarnings(*spec))
            warnings.insert(QString::fromStdString(w.pointer), QString::fromStdString(w.message));
    }
    m_form->setMessages(QStringLiteral("warning"), warnings);
    m_form->setMessages(QStringLiteral("error"), errors);
}

void ExerciseEditor::updateTitleLabel()
{
    const SpecJson title = m_doc.value("/title");
    m_title->setText(QStringLiteral("%1%2 — %3")
                         .arg(isModified() ? QStringLiteral("* ") : QString(),
                              title.is_string() ? QString::fromStdString(title.get<std::string>()) : QString(),
                              QDir::toNativeSeparators(m_doc.dir())));
    m_saveAction->setEnabled(isModified());
}

bool ExerciseEditor::isValidating() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void ExerciseEditor::validate()
{
    if (isValidating() || m_doc.dir().isEmpty())
        return;
    m_validationDir = std::make_unique<QTemporaryDir>();
    const QString copy = QDir(m_validationDir->path()).filePath(QFileInfo(m_doc.dir()).fileName());
    QString error;
    if (!m_validationDir->isValid() || !m_doc.writeCopy(copy, &error)) {
        m_verdicts->setFailure(error.isEmpty() ? tr("Could not create a temporary folder to validate in.") : error);
        return;
    }
    if (!QFileInfo(m_enginePath).isExecutable()) {
        m_verdicts->setFailure(tr("The engine (tkm-run) was not found at %1; reinstall the app or set TKM_RUN.")
                                   .arg(QDir::toNativeSeparators(m_enginePath)));
        return;
    }
    m_process = new QProcess(this);
    m_validationOut.clear();
    m_validationErr.clear();
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { m_validationOut += m_process->readAllStandardOutput(); });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_validationErr += QString::fromUtf8(m_process->readAllStandardError());
        const QStringList lines = m_validationErr.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (!lines.isEmpty())
            m_verdicts->setRunning(lines.last());
    });
    connect(m_process, &QProcess::finished, this, &ExerciseEditor::onValidationFinished);
    m_validateAction->setEnabled(false);
    m_verdicts->setRunning(tr("starting the engine"));
    m_process->start(m_enginePath, {QStringLiteral("validate"), copy, QStringLiteral("--json"),
                                    QStringLiteral("--timeout"), QStringLiteral("30")});
}

void ExerciseEditor::onValidationFinished(int exitCode, QProcess::ExitStatus status)
{
    m_validationOut += m_process->readAllStandardOutput();
    m_process->deleteLater();
    m_process = nullptr;
    m_validateAction->setEnabled(true);
    const QJsonDocument doc = QJsonDocument::fromJson(m_validationOut);
    if (status != QProcess::NormalExit || !doc.isObject()) {
        m_verdicts->setFailure(tr("The validation did not finish (exit code %1): %2")
                                   .arg(exitCode)
                                   .arg(m_validationErr.right(600).trimmed()));
        emit validationFinished(false);
        return;
    }
    showValidationResult(doc.object());
    const QJsonArray exercises = doc.object().value(QStringLiteral("exercises")).toArray();
    emit validationFinished(!exercises.isEmpty() && exercises.first().toObject().value(QStringLiteral("ok")).toBool());
}

void ExerciseEditor::showValidationResult(const QJsonObject& document)
{
    m_verdicts->setResult(document);
    const QJsonArray exercises = document.value(QStringLiteral("exercises")).toArray();
    const QJsonObject ex = exercises.isEmpty() ? QJsonObject() : exercises.first().toObject();
    // Compile diagnostics on the code, warnings (the GPU's bug-passes too) on the form.
    for (KernelEditor* e : std::as_const(m_editors))
        e->clearDiagnostics();
    for (const QJsonValue& v : ex.value(QStringLiteral("sources")).toArray()) {
        const QJsonObject row = v.toObject();
        KernelEditor* editor = m_editors.value(row.value(QStringLiteral("file")).toString());
        if (!editor)
            continue;
        QList<EditorDiagnostic> diagnostics;
        for (const QJsonValue& d :
             row.value(QStringLiteral("compile")).toObject().value(QStringLiteral("diagnostics")).toArray()) {
            const QJsonObject o = d.toObject();
            diagnostics.append({o.value(QStringLiteral("line")).toInt(), o.value(QStringLiteral("column")).toInt(),
                                o.value(QStringLiteral("severity")).toString(),
                                o.value(QStringLiteral("message")).toString()});
        }
        editor->setDiagnostics(diagnostics);
    }
    QHash<QString, QString> warnings;
    for (const QJsonValue& v : ex.value(QStringLiteral("warnings")).toArray()) {
        const QJsonObject w = v.toObject();
        warnings.insert(w.value(QStringLiteral("pointer")).toString(), w.value(QStringLiteral("message")).toString());
    }
    m_form->setMessages(QStringLiteral("warning"), warnings);
}

} // namespace tkm::app
