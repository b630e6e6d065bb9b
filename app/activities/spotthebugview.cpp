#include "app/activities/spotthebugview.h"

#include "app/activities/exercisetrack.h"
#include "app/activities/markdownview.h"
#include "app/activities/runnablebug.h"
#include "app/common/format.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"
#include "app/editor/codeview.h"
#include "app/engine/engineclient.h"

#include "engine/report/figures.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include "modules/course/grading.h"
#include "modules/course/model.h"

namespace tkm::app {

namespace {
QString resolve(const std::filesystem::path& path, const course::Module* module)
{
    if (path.is_absolute() || !module)
        return qs(path);
    return qs(module->folder / path);
}
} // namespace

SpotTheBugView::SpotTheBugView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    const auto* item = activity.as<course::SpotTheBug>();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(makeHeader(activityKindLabel(QStringLiteral("spot-the-bug"))));
    auto* hint = new QLabel(tr("One line of this listing is wrong. Click it — or move there with the arrow keys and "
                               "press Enter."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    auto* codes = new QSplitter(Qt::Horizontal, splitter);
    m_listing = new ListingView(codes);
    m_listing->setAccessibleName(tr("Listing with a bug"));
    m_fixed = new ListingView(codes);
    m_fixed->setAccessibleName(tr("Fixed listing"));
    m_fixed->hide();
    if (item) {
        m_listing->setListing(qs(item->code), qs(item->language));
        if (!item->fixedCode.empty())
            m_fixed->setListing(qs(item->fixedCode), qs(item->language));
    }
    connect(m_listing, &ListingView::lineActivated, this, [this](int line) { pick(line); });

    auto* lower = new QWidget(splitter);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 6, 0, 0);
    m_feedback = new MarkdownView(lower);
    m_feedback->setFrameShape(QFrame::StyledPanel);
    m_feedback->setMarkdownText(tr("Pick the line you think is wrong."));
    lowerLayout->addWidget(m_feedback, 1);
    auto* buttons = new QHBoxLayout;
    m_reveal = new QPushButton(tr("&Show the answer"), lower);
    m_reveal->hide();
    m_showFixed = new QPushButton(tr("Show the &fixed code"), lower);
    m_showFixed->setCheckable(true);
    m_showFixed->setEnabled(false);
    m_showFixed->setVisible(item && !item->fixedCode.empty());
    m_runButton = new QPushButton(QIcon(QStringLiteral(":/icons/run.svg")), tr("&Run it on my GPU"), lower);
    m_runButton->setToolTip(tr("Runs this faulty kernel through the engine on guarded memory (Ctrl+Return) and shows "
                               "what really happens."));
    m_runButton->setVisible(hasRunnableKernel());
    buttons->addWidget(m_reveal);
    buttons->addWidget(m_showFixed);
    buttons->addStretch();
    buttons->addWidget(m_runButton);
    // "Run this bug": the listing itself, against its exercise.
    m_runBug = new QPushButton(QIcon(QStringLiteral(":/icons/run.svg")), tr("Run &this bug"), lower);
    m_runBug->setToolTip(tr("Runs this listing against its exercise's cases (on the CPU interpreter without a GPU) "
                            "and shows the fault or the wrong rows."));
    m_runBug->setVisible(canRunThisBug());
    buttons->addWidget(m_runBug);
    connect(m_runBug, &QPushButton::clicked, this, [this] { runThisBug(); });
    if (context.engine)
        connect(context.engine, &EngineClient::finished, this, &SpotTheBugView::onBugRunFinished);
    m_bugResult = new QLabel(lower);
    m_bugResult->setWordWrap(true);
    m_bugResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bugResult->hide();
    lowerLayout->addLayout(buttons);
    lowerLayout->addWidget(m_bugResult);
    m_runResult = new QLabel(lower);
    m_runResult->setWordWrap(true);
    m_runResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runResult->hide();
    lowerLayout->addWidget(m_runResult);
    splitter->addWidget(codes);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    connect(m_showFixed, &QPushButton::toggled, m_fixed, &QWidget::setVisible);
    connect(m_reveal, &QPushButton::clicked, this, [this] {
        const auto* it = this->activity().as<course::SpotTheBug>();
        if (it && !it->bugLines.empty()) {
            m_revealing = true; // the learner asked for the answer: not a bug they spotted
            pick(it->bugLines.front());
            m_revealing = false;
        }
    });
    connect(m_runButton, &QPushButton::clicked, this, [this] { runKernel(); });
    if (context.engine)
        connect(context.engine, &EngineClient::finished, this, &SpotTheBugView::onRunFinished);
    restorePicks();
}

void SpotTheBugView::restorePicks()
{
    // The picks of an earlier visit (also before a restart) are shown again, without being recorded twice.
    m_restoring = true;
    for (const QString& line : storedValue(QStringLiteral("picks")).toString().split(QLatin1Char(','), Qt::SkipEmptyParts))
        pick(line.toInt());
    m_revealing = storedValue(QStringLiteral("revealed"), false).toBool();
    if (const int found = storedValue(QStringLiteral("found"), 0).toInt(); found > 0)
        pick(found);
    m_revealing = false;
    m_restoring = false;
}

bool SpotTheBugView::pick(int line)
{
    const auto* item = activity().as<course::SpotTheBug>();
    if (!item)
        return false;
    const course::SpotGrade grade = course::gradeSpotTheBug(*item, line);
    if (line < 1 || line > m_listing->lineCount() || (m_found && !grade.correct))
        return grade.correct;
    m_listing->setCurrentLineNumber(line);
    if (ActivityStateStore* store = context().states; store && !m_restoring)
        store->recordSpotPick(moduleId(), activityId(), line, grade.correct && !m_revealing);
    if (!m_restoring) {
        const QString picks = storedValue(QStringLiteral("picks")).toString();
        if (grade.correct)
            storeValue(QStringLiteral("found"), line);
        else
            storeValue(QStringLiteral("picks"), picks.isEmpty() ? QString::number(line)
                                                                : picks + QLatin1Char(',') + QString::number(line));
        if (m_revealing)
            storeValue(QStringLiteral("revealed"), true);
    }
    markInProgress();
    if (grade.correct) {
        m_found = true;
        m_listing->markerDeleteAll(kMarkerWrong);
        for (int bug : grade.bugLines)
            m_listing->markerAdd(bug - 1, kMarkerRight);
        QString text = QStringLiteral("**") + qs(grade.message) + QStringLiteral("**\n\n");
        text += QStringLiteral("### ") + tr("Why it is wrong") + QStringLiteral("\n\n") + qs(item->why) +
                QStringLiteral("\n\n");
        text += QStringLiteral("### ") + tr("The fix") + QStringLiteral("\n\n") + qs(item->fix) + QStringLiteral("\n");
        m_feedback->setMarkdownText(text);
        m_showFixed->setEnabled(true);
        m_reveal->hide();
        if (!m_restoring) {
            storeValue(QStringLiteral("wrong_picks"), m_wrong);
            emit statusMessage(tr("Found it."));
        }
        if (!m_revealing) // a revealed answer is not a bug found (modules/progress/completion.h)
            markDone();
    } else {
        ++m_wrong;
        m_listing->markerAdd(line - 1, kMarkerWrong);
        QString text = QStringLiteral("**") + qs(grade.message) + QStringLiteral("**\n\n") +
                       tr("Look again: ask of each line what happens at the edges — the last program, a ragged size, "
                          "an all-negative row, a large value.");
        m_feedback->setMarkdownText(text);
        if (m_wrong >= 2 && !m_found)
            m_reveal->show();
    }
    return grade.correct;
}

QString SpotTheBugView::feedbackText() const
{
    return m_feedback->markdownText();
}

bool SpotTheBugView::hasRunnableKernel() const
{
    const auto* item = activity().as<course::SpotTheBug>();
    return item && item->run.has_value() && context().engine;
}

int SpotTheBugView::runKernel()
{
    const auto* item = activity().as<course::SpotTheBug>();
    if (!hasRunnableKernel())
        return 0;
    const QString kernelPath = resolve(item->run->kernelFile, context().module);
    QFile file(kernelPath);
    if (!file.open(QIODevice::ReadOnly)) {
        m_runResult->setText(tr("The kernel file %1 could not be read: %2").arg(kernelPath, file.errorString()));
        m_runResult->show();
        return 0;
    }
    EngineJob job;
    job.op = QStringLiteral("run");
    job.exerciseFolder = resolve(item->run->exerciseFolder, context().module);
    job.source = QString::fromUtf8(file.readAll());
    job.sourceName = QFileInfo(kernelPath).fileName();
    job.measure = false;
    job.title = tr("Faulty kernel %1").arg(job.sourceName);
    m_jobId = context().engine->submit(job);
    m_runButton->setEnabled(false);
    m_runResult->setText(tr("Running %1 on guarded memory…").arg(job.sourceName));
    m_runResult->show();
    return m_jobId;
}

void SpotTheBugView::onRunFinished(int jobId, const report::RunReport& report)
{
    if (jobId != m_jobId)
        return;
    m_jobId = 0;
    m_runButton->setEnabled(true);
    const report::Verdict verdict = report.verdict;
    QString text = QStringLiteral("<b style=\"color: %1;\">%2</b> — %3")
                       .arg(verdictColor(verdict, palette()).name(), verdictTitle(verdict).toHtmlEscaped(),
                            qs(report.summary).toHtmlEscaped());
    if (report.fault)
        text += QStringLiteral("<br>") + qs(report.fault->message).toHtmlEscaped();
    if (const report::CaseInfo* failed = report::firstFailingCase(report))
        text += QStringLiteral("<br>") + qs(failed->message).toHtmlEscaped();
    if (verdict == report::Verdict::Compiled || verdict == report::Verdict::Error)
        text += QStringLiteral("<br>") +
                tr("Without a GPU the engine can only compile it; on a GPU the guarded buffers turn the bug into a "
                   "named fault.")
                    .toHtmlEscaped();
    m_runResult->setText(text);
    m_runResult->show();
}

QString SpotTheBugView::runDiagnosis() const
{
    return m_runResult->isHidden() ? QString() : m_runResult->text();
}

void SpotTheBugView::reset()
{
    for (const char* leaf : {"picks", "found", "revealed"})
        storeValue(QLatin1String(leaf), QVariant());
    m_wrong = 0;
    m_found = false;
    m_listing->markerDeleteAll(kMarkerWrong);
    m_listing->markerDeleteAll(kMarkerRight);
    m_feedback->setMarkdownText(tr("Pick the line you think is wrong."));
    m_showFixed->setChecked(false);
    m_showFixed->setEnabled(false);
    m_reveal->hide();
    m_runResult->hide();
    m_bugResult->hide();
}

bool SpotTheBugView::canRunThisBug() const
{
    const auto* item = activity().as<course::SpotTheBug>();
    return item && context().engine && runnableBug(*item, context().module).has_value();
}

int SpotTheBugView::runThisBug()
{
    const auto* item = activity().as<course::SpotTheBug>();
    const auto bug = item && context().engine ? runnableBug(*item, context().module) : std::nullopt;
    if (!bug)
        return 0;
    EngineJob job;
    job.op = QStringLiteral("run");
    job.exerciseFolder = bug->exerciseFolder;
    job.source = bug->source;
    job.sourceName = QStringLiteral("kernel.py");
    job.measure = false;
    job.title = tr("This bug, against “%1”").arg(bug->exerciseTitle);
    m_bugJobId = context().engine->submit(job);
    m_runBug->setEnabled(false);
    m_bugResult->setText(tr("Running this listing against the cases of “%1”…").arg(bug->exerciseTitle));
    m_bugResult->show();
    return m_bugJobId;
}

void SpotTheBugView::onBugRunFinished(int jobId, const report::RunReport& report)
{
    if (jobId != m_bugJobId)
        return;
    m_bugJobId = 0;
    m_runBug->setEnabled(true);
    const report::Verdict verdict = report.verdict;
    QString text = QStringLiteral("<b style=\"color: %1;\">%2</b> — %3")
                       .arg(verdictColor(verdict, palette()).name(), verdictTitle(verdict).toHtmlEscaped(),
                            qs(report.summary).toHtmlEscaped());
    const QString where = faultSummary(report);
    if (!where.isEmpty()) {
        text += QStringLiteral("<br>") + tr("Fault at %1 of the listing.").arg(where).toHtmlEscaped();
        m_listing->setCurrentLineNumber(report.fault->line);
    }
    // The wrong rows: the first failing case's message.
    if (const report::CaseInfo* failed = report::firstFailingCase(report))
        text += QStringLiteral("<br>") +
                tr("Case “%1”: %2").arg(qs(failed->name), qs(failed->message)).toHtmlEscaped();
    if (report.executor == "cpu-interpreter" && !qs(report.summary).contains(QStringLiteral("CPU interpreter")))
        text += QStringLiteral("<br><i>%1</i>").arg(interpreterNote().toHtmlEscaped());
    m_bugResult->setText(text);
    m_bugResult->show();
}

QString SpotTheBugView::bugRunResult() const
{
    return m_bugResult->isHidden() ? QString() : m_bugResult->text();
}

} // namespace tkm::app
