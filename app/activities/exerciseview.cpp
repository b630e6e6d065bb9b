#include "app/activities/exerciseview.h"

#include "app/activities/autotunepanel.h"
#include "app/activities/markdownview.h"
#include "app/common/format.h"
#include "app/common/paths.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"
#include "app/editor/codeview.h"
#include "app/editor/kerneleditor.h"
#include "app/engine/engineclient.h"

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
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "modules/course/model.h"

namespace tkm::app {

namespace {
constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kColumnRole = Qt::UserRole + 2;
const QString kSourceName = QStringLiteral("kernel.cu");
} // namespace

ExerciseView::ExerciseView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    const auto* ex = activity.as<course::Exercise>();
    m_codePath = exerciseCodePath(moduleId(), activityId());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 8);
    layout->addWidget(makeHeader(activityKindLabel(QStringLiteral("exercise"))));

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    // Left: the prompt and the hints.
    auto* left = new QSplitter(Qt::Vertical, splitter);
    m_prompt = new MarkdownView(left);
    m_prompt->setAccessibleName(tr("Task"));
    m_prompt->setMarkdownText(ex ? qs(ex->prompt) : QString());
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
    // Two rows, so the editor side stays narrow enough for the prompt: the meta-parameters and Run, then the rest.
    bar->addWidget(m_run);
    rightLayout->addLayout(bar);
    auto* actions = new QHBoxLayout;
    for (QPushButton* b : {resetButton, m_hint, m_solution, m_compare, findButton})
        actions->addWidget(b);
    actions->addStretch();
    rightLayout->addLayout(actions);

    auto* editorSplit = new QSplitter(Qt::Vertical, right);
    m_editor = new KernelEditor(editorSplit);
    m_editor->setAccessibleName(tr("Kernel editor"));
    m_diagnostics = new QListWidget(editorSplit);
    m_diagnostics->setAccessibleName(tr("Compile problems"));
    m_diagnostics->hide();
    editorSplit->addWidget(m_editor);
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

    // The learner's code: their file, else the source of their latest recorded run (a database brought from
    // another machine), else the starter.
    QString code = ex ? qs(ex->starter) : QString();
    QFile saved(m_codePath);
    if (saved.open(QIODevice::ReadOnly))
        code = QString::fromUtf8(saved.readAll());
    else if (context.states && !context.states->latestRunSource(moduleId(), activityId()).isEmpty())
        code = context.states->latestRunSource(moduleId(), activityId());
    m_editor->setText(code);
    m_editor->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER);
    m_editor->setModified(false);
    m_hintsShown = 0;
    const int storedHints = storedValue(QStringLiteral("hints_shown"), 0).toInt();
    for (int i = 0; i < storedHints; ++i)
        showNextHint();

    m_saveTimer = new QTimer(this);
    m_saveTimer->setSingleShot(true);
    m_saveTimer->setInterval(600);
    connect(m_saveTimer, &QTimer::timeout, this, &ExerciseView::saveNow);
    connect(m_editor, &QsciScintilla::textChanged, this, [this] {
        m_dirty = true;
        m_saveTimer->start();
        markInProgress();
    });
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
    updateHintButton();
    if (passed()) {
        m_verdict->setText(tr("You passed this exercise before. Run again to see your figures."));
        m_compare->setEnabled(true);
    }
    m_editor->setFocus();
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
    job.sourceName = kSourceName;
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

void ExerciseView::onFinished(int jobId, const QJsonObject& report)
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
    m_lastReport = report;
    if (ActivityStateStore* store = context().states)
        store->recordKernelRun(moduleId(), activityId(), m_runSource, m_runMeta, report);
    applyDiagnostics(report);
    const QString verdict = report.value(QStringLiteral("verdict")).toString();
    const QString summary = report.value(QStringLiteral("summary")).toString().section(QLatin1Char('\n'), 0, 0);
    m_verdict->setText(QStringLiteral("<b style=\"color: %1;\">%2</b> — %3")
                           .arg(verdictColor(verdict, palette()).name(), verdictTitle(verdict).toHtmlEscaped(),
                                summary.toHtmlEscaped()));
    if (verdict == QLatin1String("pass")) {
        storeValue(QStringLiteral("passed"), true);
        m_compare->setEnabled(true);
        markDone();
    }
}

void ExerciseView::applyDiagnostics(const QJsonObject& report)
{
    m_diagnostics->clear();
    QList<EditorDiagnostic> inEditor;
    const QJsonArray diagnostics =
        report.value(QStringLiteral("compile")).toObject().value(QStringLiteral("diagnostics")).toArray();
    for (const QJsonValue& v : diagnostics) {
        const QJsonObject d = v.toObject();
        EditorDiagnostic e;
        e.line = d.value(QStringLiteral("line")).toInt();
        e.column = d.value(QStringLiteral("column")).toInt();
        e.severity = d.value(QStringLiteral("severity")).toString(QStringLiteral("error"));
        e.message = d.value(QStringLiteral("message")).toString();
        const QString file = d.value(QStringLiteral("file")).toString();
        const bool mine = file.isEmpty() || QFileInfo(file).fileName() == kSourceName;
        if (mine && e.line > 0)
            inEditor.append(e);
        auto* item = new QListWidgetItem(QStringLiteral("%1:%2:%3: %4: %5")
                                             .arg(mine ? kSourceName : file)
                                             .arg(e.line)
                                             .arg(e.column)
                                             .arg(e.severity, e.message),
                                         m_diagnostics);
        item->setData(kLineRole, e.line);
        item->setData(kColumnRole, e.column);
        item->setForeground(
            verdictColor(e.severity == QLatin1String("error") ? QStringLiteral("fail") : QString(), palette()));
        item->setToolTip(tr("Go to line %1 (Enter or click)").arg(e.line));
    }
    m_editor->setDiagnostics(inEditor);
    m_diagnostics->setVisible(m_diagnostics->count() > 0);
    if (!inEditor.isEmpty())
        m_editor->goToPosition(inEditor.first().line, inEditor.first().column);
}

bool ExerciseView::showNextHint()
{
    const auto* ex = activity().as<course::Exercise>();
    if (!ex || m_hintsShown >= static_cast<int>(ex->hints.size()))
        return false;
    ++m_hintsShown;
    QString text;
    for (int i = 0; i < m_hintsShown; ++i)
        text += QStringLiteral("**") + tr("Hint %1 of %2").arg(i + 1).arg(ex->hints.size()) + QStringLiteral("** — ") +
                qs(ex->hints[i]) + QStringLiteral("\n\n");
    m_hints->setMarkdownText(text);
    m_hints->show();
    if (m_hintsShown > storedValue(QStringLiteral("hints_shown"), 0).toInt()) { // a new hint, not a restored one
        storeValue(QStringLiteral("hints_shown"), m_hintsShown);
        if (ActivityStateStore* store = context().states)
            store->recordHelpView(moduleId(), activityId(), false, m_hintsShown - 1);
    }
    updateHintButton();
    return true;
}

void ExerciseView::updateHintButton()
{
    const auto* ex = activity().as<course::Exercise>();
    const int total = ex ? static_cast<int>(ex->hints.size()) : 0;
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
        auto* listing = new ListingView(m_solutionDialog);
        listing->setListing(qs(ex->solution), QStringLiteral("cuda"));
        layout->addWidget(listing);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_solutionDialog);
        auto* load = buttons->addButton(tr("&Load into the editor"), QDialogButtonBox::ActionRole);
        load->setToolTip(tr("Replaces your code (Undo in the editor brings it back)."));
        connect(load, &QPushButton::clicked, this, [this, ex] {
            m_editor->replaceAllText(qs(ex->solution));
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
    job.source = qs(ex->solution);
    job.sourceName = QStringLiteral("solution.cu");
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
    m_editor->replaceAllText(qs(ex->starter));
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
