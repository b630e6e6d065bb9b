#include "app/activities/exerciseview.h"

#include "app/activities/autotunepanel.h"
#include "app/activities/markdownview.h"
#include "app/common/format.h"
#include "app/common/paths.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"
#include "app/editor/codeview.h"
#include "app/editor/editorsplit.h"
#include "app/editor/generatedpane.h"
#include "app/editor/kerneleditor.h"
#include "app/engine/engineclient.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSettings>
#include <QTextCursor>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "modules/course/model.h"

namespace tkm::app {

namespace {
constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kColumnRole = Qt::UserRole + 2;
const QString kTrackKey = QStringLiteral("track");
} // namespace

ExerciseView::ExerciseView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    const auto* ex = activity.as<course::Exercise>();
    m_track = ex ? parseTrack(storedValue(kTrackKey).toString(), defaultTrack(*ex)) : Track::Cuda;
    if (ex && m_track == Track::Triton && !hasTritonTrack(*ex))
        m_track = Track::Cuda;
    m_codePath = trackCodePath(moduleId(), activityId(), m_track);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 8);
    layout->addWidget(makeHeader(activityKindLabel(QStringLiteral("exercise"))));

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    // Left: the prompt and the hints.
    auto* left = new QSplitter(Qt::Vertical, splitter);
    m_prompt = new MarkdownView(left);
    m_prompt->setAccessibleName(tr("Task"));
    m_hints = new MarkdownView(left);
    m_hints->setAccessibleName(tr("Hints"));
    m_hints->setFrameShape(QFrame::StyledPanel);
    m_hints->hide();
    left->addWidget(m_prompt);
    left->addWidget(m_hints);
    if (ex && ex->spec->autotune) {
        m_autotune = new AutotunePanel(ex->spec, left);
        m_autotune->restoreState(storedValue(QStringLiteral("autotune")).toString());
        connect(m_autotune, &AutotunePanel::changed, this,
                [this] { storeValue(QStringLiteral("autotune"), m_autotune->saveState()); });
        left->addWidget(m_autotune);
    }

    // Right: controls, editor, diagnostics.
    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    if (ex && hasTritonTrack(*ex))
        bar->addWidget(makeTrackSwitch(right));
    if (ex) {
        for (const course::ExerciseMeta& meta : ex->meta) {
            const QString name = qs(meta.name);
            auto* label = new QLabel(name + QLatin1Char(':'), right);
            QWidget* control = nullptr;
            const qint64 stored =
                storedValue(QStringLiteral("meta/") + name, static_cast<qint64>(meta.defaultValue)).toLongLong();
            if (!meta.allowed.empty()) {
                auto* combo = new QComboBox(right);
                for (long long v : meta.allowed)
                    combo->addItem(QString::number(v), static_cast<qint64>(v));
                const int index = combo->findData(stored);
                combo->setCurrentIndex(index >= 0 ? index : combo->findData(static_cast<qint64>(meta.defaultValue)));
                connect(combo, &QComboBox::currentIndexChanged, this,
                        [this, combo, name] { storeValue(QStringLiteral("meta/") + name, combo->currentData()); });
                control = combo;
            } else {
                auto* spin = new QSpinBox(right);
                spin->setRange(1, 1 << 20);
                spin->setValue(static_cast<int>(stored));
                connect(spin, &QSpinBox::valueChanged, this,
                        [this, name](int v) { storeValue(QStringLiteral("meta/") + name, static_cast<qint64>(v)); });
                control = spin;
            }
            control->setToolTip(
                tr("%1 is a compile-time constant (like tl.constexpr), passed as -D%1=value.").arg(name));
            control->setAccessibleName(name);
            label->setBuddy(control);
            bar->addWidget(label);
            bar->addWidget(control);
            m_metaControls.append({name, control});
        }
    }
    bar->addStretch();
    m_run = new QPushButton(QIcon(QStringLiteral(":/icons/run.svg")), tr("&Run"), right);
    m_run->setToolTip(tr("Compile, check every case and measure (Ctrl+Return)"));
    auto* resetButton = new QPushButton(tr("Reset to s&tarter"), right);
    m_hint = new QPushButton(right);
    m_solution = new QPushButton(tr("Show so&lution"), right);
    m_compare = new QPushButton(tr("&Compare with the solution"), right);
    m_compare->setToolTip(tr("Run the solution too and draw it beside your kernel in the results charts."));
    m_compare->setEnabled(false);
    auto* findButton = new QPushButton(tr("&Find…"), right);
    auto* wrap = new QCheckBox(tr("&Wrap lines"), right);
    wrap->setToolTip(tr("Wrap long lines at the editor's edge instead of scrolling sideways."));
    // Two rows, so the editor side stays narrow enough for the prompt: the meta-parameters and Run, then the rest.
    bar->addWidget(m_run);
    rightLayout->addLayout(bar);
    auto* actions = new QHBoxLayout;
    for (QPushButton* b : {resetButton, m_hint, m_solution, m_compare, findButton})
        actions->addWidget(b);
    actions->addWidget(wrap);
    actions->addStretch();
    rightLayout->addLayout(actions);

    auto* editorSplit = new QSplitter(Qt::Vertical, right);
    // The editor and, in the Triton track, what it became beside it (collapsible, the split remembered).
    m_editor = new KernelEditor;
    m_editor->setAccessibleName(tr("Kernel editor"));
    m_generated = new GeneratedCodePane;
    m_codeSplit = new EditorSplit(m_editor, m_generated, editorSplit);
    auto* fileRow = new QHBoxLayout;
    m_fileLabel = new QLabel(right);
    m_fileLabel->setTextFormat(Qt::PlainText);
    fileRow->addWidget(m_fileLabel, 1);
    fileRow->addWidget(m_codeSplit->toggleButton());
    rightLayout->addLayout(fileRow);
    m_diagnostics = new QListWidget(editorSplit);
    m_diagnostics->setAccessibleName(tr("Compile problems"));
    m_diagnostics->hide();
    editorSplit->addWidget(m_codeSplit);
    editorSplit->addWidget(m_diagnostics);
    editorSplit->setStretchFactor(0, 4);
    editorSplit->setStretchFactor(1, 1);
    rightLayout->addWidget(editorSplit, 1);
    m_verdict = new QLabel(right);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    rightLayout->addWidget(m_verdict);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({440, 860});
    left->setSizes(m_autotune ? QList<int>{320, 140, 380} : QList<int>{560, 200});
    layout->addWidget(splitter, 1);

    loadTrackCode();

    m_saveTimer = new QTimer(this);
    m_saveTimer->setSingleShot(true);
    m_saveTimer->setInterval(600);
    connect(m_saveTimer, &QTimer::timeout, this, &ExerciseView::saveNow);
    m_lowerTimer = new QTimer(this);
    m_lowerTimer->setSingleShot(true);
    m_lowerTimer->setInterval(500);
    connect(m_lowerTimer, &QTimer::timeout, this, &ExerciseView::refreshGenerated);
    connect(m_editor, &QsciScintilla::textChanged, this, [this] {
        m_dirty = true;
        m_saveTimer->start();
        if (m_track == Track::Triton)
            m_lowerTimer->start();
        markInProgress();
    });
    // The mapping both ways: the cursor's Triton line tints its generated lines; a generated line clicked tints
    // the Triton line it came from.
    connect(m_editor, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
        if (m_track == Track::Triton)
            m_generated->highlightTritonLine(line + 1);
    });
    connect(m_generated, &GeneratedCodePane::tritonLineClicked, this,
            [this](int line) { m_editor->setHighlightedLines({line}); });
    wrap->setChecked(QSettings().value(QStringLiteral("editor/wrap"), false).toBool());
    m_editor->setWordWrap(wrap->isChecked());
    connect(wrap, &QCheckBox::toggled, this, [this](bool on) {
        m_editor->setWordWrap(on);
        QSettings().setValue(QStringLiteral("editor/wrap"), on);
    });
    for (const auto& [name, control] : m_metaControls) {
        if (auto* combo = qobject_cast<QComboBox*>(control))
            connect(combo, &QComboBox::currentIndexChanged, m_lowerTimer, qOverload<>(&QTimer::start));
        else if (auto* spin = qobject_cast<QSpinBox*>(control))
            connect(spin, &QSpinBox::valueChanged, m_lowerTimer, qOverload<>(&QTimer::start));
    }
    connect(m_diagnostics, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        m_editor->goToPosition(item->data(kLineRole).toInt(), item->data(kColumnRole).toInt());
    });
    connect(m_diagnostics, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        m_editor->goToPosition(item->data(kLineRole).toInt(), item->data(kColumnRole).toInt());
    });
    connect(m_run, &QPushButton::clicked, this, [this] { runKernel(); });
    connect(resetButton, &QPushButton::clicked, this, [this] { reset(); });
    connect(m_hint, &QPushButton::clicked, this, [this] { showNextHint(); });
    connect(m_solution, &QPushButton::clicked, this, [this] { showSolution(); });
    connect(m_compare, &QPushButton::clicked, this, &ExerciseView::runSolutionForComparison);
    connect(findButton, &QPushButton::clicked, this, [this] { find(); });
    if (context.engine) {
        connect(context.engine, &EngineClient::finished, this, &ExerciseView::onFinished);
        connect(context.engine, &EngineClient::started, this, [this](int id) { onStarted(id); });
        connect(context.engine, &EngineClient::cancelled, this, [this](int id) {
            if (id == m_jobId) {
                m_jobId = 0;
                m_run->setEnabled(true);
                m_verdict->setText(tr("Run cancelled."));
            }
        });
    }
    if (passed()) {
        m_verdict->setText(tr("You passed this exercise before. Run again to see your figures."));
        m_compare->setEnabled(true);
    }
    m_editor->setFocus();
    // The task is read from its beginning (a long prompt must not open scrolled to its middle).
    m_prompt->moveCursor(QTextCursor::Start);
    m_prompt->verticalScrollBar()->setValue(0);
}

QWidget* ExerciseView::makeTrackSwitch(QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 8, 0);
    row->setSpacing(0);
    m_tritonButton = new QPushButton(tr("Triton"), box);
    m_cudaButton = new QPushButton(tr("CUDA"), box);
    auto* group = new QButtonGroup(box);
    for (QPushButton* b : {m_tritonButton, m_cudaButton}) {
        b->setCheckable(true);
        b->setAutoDefault(false);
        group->addButton(b);
        row->addWidget(b);
    }
    m_tritonButton->setToolTip(tr("Write this exercise in Triton (kernel.py): runs on the CPU interpreter without a "
                                  "GPU, and shows the CUDA it became."));
    m_cudaButton->setToolTip(tr("Write this exercise in CUDA C++ (kernel.cu), as CUDA interviews ask."));
    m_tritonButton->setAccessibleName(tr("Triton track"));
    m_cudaButton->setAccessibleName(tr("CUDA track"));
    (m_track == Track::Triton ? m_tritonButton : m_cudaButton)->setChecked(true);
    connect(m_tritonButton, &QPushButton::clicked, this, [this] { setTrack(Track::Triton); });
    connect(m_cudaButton, &QPushButton::clicked, this, [this] { setTrack(Track::Cuda); });
    return box;
}

void ExerciseView::loadTrackCode()
{
    const auto* ex = activity().as<course::Exercise>();
    const TrackCode files = ex ? trackCode(*ex, m_track) : TrackCode{};
    m_editor->setLanguage(files.language.isEmpty() ? QStringLiteral("cuda") : files.language);
    m_fileLabel->setText(m_track == Track::Triton
                             ? tr("%1 — your @triton.jit kernel").arg(files.fileName)
                             : tr("%1 — your CUDA C++ kernel").arg(files.fileName));
    // The learner's code: their file, else the source of their latest recorded run of this track (a database
    // brought from another machine), else the starter.
    QString code = files.starter;
    QFile saved(m_codePath);
    const QString recorded =
        context().states ? context().states->latestRunSource(moduleId(), activityId()) : QString();
    const bool recordedIsTriton = recorded.contains(QStringLiteral("@triton.jit"));
    if (saved.open(QIODevice::ReadOnly))
        code = QString::fromUtf8(saved.readAll());
    else if (!recorded.isEmpty() && recordedIsTriton == (m_track == Track::Triton))
        code = recorded;
    const bool blocked = m_editor->blockSignals(true);
    m_editor->setText(code);
    m_editor->blockSignals(blocked);
    m_editor->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER);
    m_editor->setModified(false);
    m_editor->clearDiagnostics();
    m_editor->setHighlightedLines({});
    m_codeSplit->setPaneAvailable(m_track == Track::Triton);
    if (m_track == Track::Triton)
        refreshGenerated();
    m_prompt->setMarkdownText(files.prompt);
    m_prompt->moveCursor(QTextCursor::Start);
    restoreHints();
}

QString ExerciseView::hintsKey() const
{
    // The CUDA track keeps the key of the time before tracks had hints of their own.
    return m_track == Track::Cuda ? QStringLiteral("hints_shown") : QStringLiteral("triton/hints_shown");
}

void ExerciseView::restoreHints()
{
    m_hintsShown = 0;
    m_hints->clear();
    m_hints->hide();
    const int stored = storedValue(hintsKey(), 0).toInt();
    for (int i = 0; i < stored; ++i)
        showNextHint();
    updateHintButton();
}

bool ExerciseView::setTrack(Track track)
{
    const auto* ex = activity().as<course::Exercise>();
    if (!ex || (track == Track::Triton && !hasTritonTrack(*ex)))
        return false;
    if (track == m_track)
        return true;
    saveNow();
    m_track = track;
    storeValue(kTrackKey, trackName(track));
    m_codePath = trackCodePath(moduleId(), activityId(), track);
    if (m_tritonButton)
        (track == Track::Triton ? m_tritonButton : m_cudaButton)->setChecked(true);
    loadTrackCode();
    // This track's own last run: its verdict and diagnostics come back, the other track's stay with it.
    applyDiagnostics();
    const std::optional<report::RunReport>& report = m_runs[static_cast<int>(track)].report;
    m_verdict->setText(report ? verdictLine(*report) : QString());
    delete m_solutionDialog; // it shows the other track's solution
    m_solutionDialog = nullptr;
    return true;
}

void ExerciseView::refreshGenerated()
{
    const auto* ex = activity().as<course::Exercise>();
    if (!ex || m_track != Track::Triton)
        return;
    if (m_lowerTimer) // not yet when the constructor loads the code
        m_lowerTimer->stop();
    m_generated->setLowering(lowerTriton(*ex->spec, m_editor->text(), metaValues()));
    int line = 0, index = 0;
    m_editor->getCursorPosition(&line, &index);
    m_generated->highlightTritonLine(line + 1);
}

ExerciseView::~ExerciseView()
{
    if (m_dirty)
        saveNow();
}

void ExerciseView::saveNow()
{
    m_saveTimer->stop();
    QDir().mkpath(QFileInfo(m_codePath).absolutePath());
    QSaveFile file(m_codePath);
    if (!file.open(QIODevice::WriteOnly)) {
        emit statusMessage(tr("Your code could not be saved to %1: %2").arg(m_codePath, file.errorString()));
        return;
    }
    file.write(m_editor->text().toUtf8());
    if (file.commit())
        m_dirty = false;
    else
        emit statusMessage(tr("Your code could not be saved to %1: %2").arg(m_codePath, file.errorString()));
}

QList<QPair<QString, qint64>> ExerciseView::metaValues() const
{
    QList<QPair<QString, qint64>> values;
    for (const auto& [name, control] : m_metaControls) {
        if (auto* combo = qobject_cast<QComboBox*>(control))
            values.append({name, combo->currentData().toLongLong()});
        else if (auto* spin = qobject_cast<QSpinBox*>(control))
            values.append({name, spin->value()});
    }
    return values;
}

bool ExerciseView::setMetaValue(const QString& name, qint64 value)
{
    for (const auto& [n, control] : m_metaControls) {
        if (n != name)
            continue;
        if (auto* combo = qobject_cast<QComboBox*>(control)) {
            const int index = combo->findData(value);
            if (index < 0)
                return false;
            combo->setCurrentIndex(index);
            return true;
        }
        if (auto* spin = qobject_cast<QSpinBox*>(control)) {
            spin->setValue(static_cast<int>(value));
            return spin->value() == value;
        }
    }
    return false;
}

int ExerciseView::runKernel()
{
    const auto* ex = activity().as<course::Exercise>();
    if (!ex || !context().engine)
        return 0;
    saveNow();
    EngineJob job;
    job.op = QStringLiteral("run");
    job.exerciseFolder = QFileInfo(qs(ex->folder)).absoluteFilePath();
    job.source = m_editor->text();
    job.sourceName = trackCode(*ex, m_track).fileName;
    job.meta = metaValues();
    job.measure = true;
    m_runSource = job.source;
    m_runMeta = job.meta;
    job.title = tr("Your kernel");
    if (m_autotune && m_autotune->tuningEnabled()) {
        job.configs = m_autotune->configs();
        job.resetToZero = m_autotune->resetToZero();
        job.declareReset = !job.resetToZero.isEmpty();
        job.title = tr("Autotuning your kernel");
    }
    m_jobId = context().engine->submit(job);
    m_run->setEnabled(false);
    m_verdict->setText(tr("Queued…"));
    markInProgress();
    return m_jobId;
}

void ExerciseView::onStarted(int jobId)
{
    if (jobId == m_jobId)
        m_verdict->setText(tr("Running… (Esc cancels)"));
}

void ExerciseView::onFinished(int jobId, const report::RunReport& report)
{
    if (jobId == m_solutionJobId) {
        m_solutionJobId = 0;
        m_compare->setEnabled(true);
        emit comparisonReport(tr("Solution"), report);
        return;
    }
    if (jobId != m_jobId)
        return;
    m_jobId = 0;
    m_run->setEnabled(true);
    if (ActivityStateStore* store = context().states)
        store->recordKernelRun(moduleId(), activityId(), m_runSource, m_runMeta, report);
    showReport(report, m_runSource);
    if (report.verdict == report::Verdict::Pass) {
        storeValue(QStringLiteral("passed"), true);
        m_compare->setEnabled(true);
        markDone();
    }
}

void ExerciseView::showReport(const report::RunReport& report, const QString& source)
{
    const Track from = reportTrack(report).value_or(m_track);
    TrackRun& run = m_runs[static_cast<int>(from)];
    run.report = report;
    run.source = source.isEmpty() && from == m_track ? m_editor->text() : source;
    run.meta = from == m_track ? m_runMeta : QList<QPair<QString, qint64>>{};
    if (from != m_track)
        return; // kept for when the learner switches back
    applyDiagnostics();
    m_verdict->setText(verdictLine(report));
}

void ExerciseView::applyDiagnostics()
{
    m_diagnostics->clear();
    const auto* ex = activity().as<course::Exercise>();
    const TrackRun& run = m_runs[static_cast<int>(m_track)];
    const QString fileName = ex ? trackCode(*ex, m_track).fileName : QStringLiteral("kernel.cu");
    QList<EditorDiagnostic> inEditor =
        run.report ? trackDiagnostics(*run.report, m_track, fileName, run.source) : QList<EditorDiagnostic>{};
    if (m_track == Track::Triton && ex && !inEditor.isEmpty()) {
        // The engine ran our own checker: run it here too for the ranges to underline and the notes to hover.
        const QList<EditorDiagnostic> detailed = lowerTriton(*ex->spec, run.source, run.meta).diagnostics;
        for (EditorDiagnostic& d : inEditor)
            for (const EditorDiagnostic& full : detailed)
                if (full.line == d.line && full.column == d.column && d.message.startsWith(full.message)) {
                    d.ranges = full.ranges;
                    d.notes = full.notes;
                    d.message = full.message;
                }
    }
    for (const EditorDiagnostic& e : std::as_const(inEditor)) {
        QString text = e.column > 0 ? tr("Line %1, column %2 — %3: %4").arg(e.line).arg(e.column).arg(e.severity,
                                                                                                     e.message)
                                    : tr("Line %1 — %2: %3").arg(e.line).arg(e.severity, e.message);
        for (const QString& note : e.notes)
            text += QStringLiteral("\n    ") + tr("note: %1").arg(note);
        auto* item = new QListWidgetItem(text, m_diagnostics);
        item->setData(kLineRole, e.line);
        item->setData(kColumnRole, e.column);
        item->setForeground(
            toneColor(e.severity == QLatin1String("error") ? Tone::Wrong : Tone::Caution, palette()));
        item->setToolTip(tr("Go to line %1 (Enter or click)").arg(e.line));
    }
    QList<EditorDiagnostic> placed;
    for (const EditorDiagnostic& e : std::as_const(inEditor))
        if (e.line > 0)
            placed.append(e);
    m_editor->setDiagnostics(placed);
    m_diagnostics->setVisible(m_diagnostics->count() > 0);
    // Jump to the first error (a fault's line first); warnings alone leave the cursor where the learner was.
    for (const EditorDiagnostic& e : std::as_const(placed))
        if (e.severity == QLatin1String("error")) {
            m_editor->goToPosition(e.line, e.column);
            break;
        }
}

QString ExerciseView::verdictLine(const report::RunReport& report) const
{
    const report::Verdict verdict = report.verdict;
    QString summary = qs(report.summary).section(QLatin1Char('\n'), 0, 0);
    // The learner's file has no name on screen but the label above the editor: speak of lines.
    for (const QString& name : {QStringLiteral("kernel.cu:"), QStringLiteral("kernel.py:")})
        summary.replace(name, tr("line "));
    QString html = QStringLiteral("<b style=\"color: %1;\">%2</b> — %3")
                       .arg(verdictColor(verdict, palette()).name(), verdictTitle(verdict).toHtmlEscaped(),
                            summary.toHtmlEscaped());
    const QString where = faultSummary(report);
    if (!where.isEmpty())
        html += QStringLiteral("<br>") + tr("Fault at %1.").arg(where).toHtmlEscaped();
    // Said once: the engine's summary may already say where the run ran.
    if (report.executor == "cpu-interpreter" &&
        !summary.contains(QStringLiteral("CPU interpreter")))
        html += QStringLiteral("<br><i>%1</i>").arg(interpreterNote().toHtmlEscaped());
    return html;
}

bool ExerciseView::showNextHint()
{
    const auto* ex = activity().as<course::Exercise>();
    const QStringList hints = ex ? trackHints(*ex, m_track) : QStringList();
    if (m_hintsShown >= hints.size())
        return false;
    ++m_hintsShown;
    QString text;
    for (int i = 0; i < m_hintsShown; ++i)
        text += QStringLiteral("**") + tr("Hint %1 of %2").arg(i + 1).arg(hints.size()) + QStringLiteral("** — ") +
                hints[i] + QStringLiteral("\n\n");
    m_hints->setMarkdownText(text);
    m_hints->show();
    if (m_hintsShown > storedValue(hintsKey(), 0).toInt()) { // a new hint, not a restored one
        storeValue(hintsKey(), m_hintsShown);
        if (ActivityStateStore* store = context().states)
            store->recordHelpView(moduleId(), activityId(), false, m_hintsShown - 1);
    }
    updateHintButton();
    return true;
}

void ExerciseView::updateHintButton()
{
    const auto* ex = activity().as<course::Exercise>();
    const int total = ex ? static_cast<int>(trackHints(*ex, m_track).size()) : 0;
    m_hint->setText(m_hintsShown < total ? tr("&Hint (%1 of %2)").arg(m_hintsShown + 1).arg(total)
                                         : tr("No more &hints"));
    m_hint->setEnabled(m_hintsShown < total);
}

bool ExerciseView::passed() const
{
    return storedValue(QStringLiteral("passed"), false).toBool();
}

bool ExerciseView::showSolution()
{
    const auto* ex = activity().as<course::Exercise>();
    if (!ex)
        return false;
    if (!passed() && !confirm(tr("Show the solution before your kernel passes? Working it out yourself is what the "
                                 "interview asks; the hints may be enough.")))
        return false;
    storeValue(QStringLiteral("solution_viewed"), true);
    if (ActivityStateStore* store = context().states)
        store->recordHelpView(moduleId(), activityId(), true, 0);
    if (!m_solutionDialog) {
        m_solutionDialog = new QDialog(this);
        m_solutionDialog->setWindowTitle(tr("Solution — %1").arg(qs(activity().title)));
        auto* layout = new QVBoxLayout(m_solutionDialog);
        const TrackCode files = trackCode(*ex, m_track);
        auto* listing = new ListingView(m_solutionDialog);
        listing->setListing(files.solution, files.language);
        layout->addWidget(listing);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_solutionDialog);
        auto* load = buttons->addButton(tr("&Load into the editor"), QDialogButtonBox::ActionRole);
        load->setToolTip(tr("Replaces your code (Undo in the editor brings it back)."));
        connect(load, &QPushButton::clicked, this, [this, solution = files.solution] {
            m_editor->replaceAllText(solution);
            m_solutionDialog->hide();
        });
        connect(buttons, &QDialogButtonBox::rejected, m_solutionDialog, &QDialog::hide);
        layout->addWidget(buttons);
        m_solutionDialog->resize(820, 620);
    }
    m_solutionDialog->show();
    m_solutionDialog->raise();
    return true;
}

void ExerciseView::runSolutionForComparison()
{
    const auto* ex = activity().as<course::Exercise>();
    if (!ex || !context().engine)
        return;
    EngineJob job;
    job.op = QStringLiteral("run");
    job.exerciseFolder = QFileInfo(qs(ex->folder)).absoluteFilePath();
    const TrackCode files = trackCode(*ex, m_track);
    job.source = files.solution;
    job.sourceName = m_track == Track::Triton ? QStringLiteral("solution.py") : QStringLiteral("solution.cu");
    job.meta = metaValues();
    job.title = tr("Solution (for comparison)");
    job.quiet = true;
    m_solutionJobId = context().engine->submit(job);
    m_compare->setEnabled(false);
    emit statusMessage(tr("Measuring the solution for the charts…"));
}

void ExerciseView::reset()
{
    const auto* ex = activity().as<course::Exercise>();
    if (!ex || !confirm(tr("Replace your code with the starter? (Undo in the editor brings it back.)")))
        return;
    m_editor->replaceAllText(trackCode(*ex, m_track).starter);
    m_editor->clearDiagnostics();
    m_diagnostics->clear();
    m_diagnostics->hide();
    m_verdict->clear();
    saveNow();
}

void ExerciseView::find()
{
    m_editor->showFindReplace();
}

QString ExerciseView::verdictText() const
{
    return m_verdict->text();
}

} // namespace tkm::app
