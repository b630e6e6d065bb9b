#include "app/results/resultsview.h"

#include "app/common/format.h"
#include "app/common/theme.h"
#include "app/results/autotuneresults.h"
#include "app/results/charts.h"
#include "app/results/resultshtml.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tkm::app {

ResultsView::ResultsView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_progressRow = new QWidget(this);
    auto* progress = new QHBoxLayout(m_progressRow);
    progress->setContentsMargins(0, 0, 0, 0);
    m_progressText = new QLabel(m_progressRow);
    m_progressBar = new QProgressBar(m_progressRow);
    m_progressBar->setMaximumWidth(240);
    m_progressBar->setTextVisible(false);
    m_cancel = new QPushButton(tr("Cancel run"), m_progressRow);
    m_cancel->setToolTip(tr("Stop the engine worker now (Esc); your code is kept."));
    progress->addWidget(m_progressText, 1);
    progress->addWidget(m_progressBar);
    progress->addWidget(m_cancel);
    m_progressRow->hide();
    connect(m_cancel, &QPushButton::clicked, this, &ResultsView::cancelRequested);
    layout->addWidget(m_progressRow);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_correctness = new QTextBrowser(m_tabs);
    m_correctness->setOpenLinks(false);
    connect(m_correctness, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        // diag:LINE:COLUMN
        if (url.toString() == QLatin1String("details:engine")) { // the raw reason behind "details"
            m_showEngineDetails = !m_showEngineDetails;
            render();
            return;
        }
        const QStringList parts = url.toString().split(QLatin1Char(':'));
        if (parts.size() == 3 && parts[0] == QLatin1String("diag"))
            emit diagnosticActivated(parts[1].toInt(), parts[2].toInt());
    });
    m_performance = new QTextBrowser(m_tabs);
    m_roofline = new RooflineChart(m_tabs);
    m_bars = new BaselineChart(m_tabs);
    m_tabs->addTab(m_correctness, tr("&Correctness"));
    m_tabs->addTab(m_performance, tr("&Performance"));
    m_tabs->addTab(m_roofline, tr("&Roofline"));
    m_tabs->addTab(m_bars, tr("&Baselines"));
    m_autotune = new AutotuneResults(m_tabs);
    m_tabs->addTab(m_autotune, tr("&Autotune"));
    layout->addWidget(m_tabs, 1);
    render();
}

bool ResultsView::isRunning() const
{
    return !m_progressRow->isHidden();
}

void ResultsView::showReport(const report::RunReport& report)
{
    m_report = report;
    m_notice.clear();
    m_showEngineDetails = false;
    m_progressRow->hide();
    render();
    // A run is read from its verdict: the Correctness tab, whatever tab the previous run left open; a tuning run
    // is about its table.
    if (report.autotune && !report.autotune->samples.empty())
        m_tabs->setCurrentWidget(m_autotune);
    else
        m_tabs->setCurrentIndex(0);
}

void ResultsView::setComparison(const QString& name, const report::RunReport& report)
{
    m_comparisons.erase(
        std::remove_if(m_comparisons.begin(), m_comparisons.end(), [&](const auto& c) { return c.first == name; }),
        m_comparisons.end());
    m_comparisons.append({name, report});
    render();
}

void ResultsView::clearComparisons()
{
    m_comparisons.clear();
    render();
}

void ResultsView::showRunning(const QString& title)
{
    m_progressRow->show();
    m_progressText->setText(title.isEmpty() ? tr("Starting the engine…") : tr("%1: starting the engine…").arg(title));
    m_progressBar->setRange(0, 0);
}

void ResultsView::showProgress(const QString& stage, int index, int of, const QString& text)
{
    m_progressRow->show();
    QString line = text;
    if (line.isEmpty()) {
        if (stage == QLatin1String("compile"))
            line = tr("Compiling…");
        else if (stage == QLatin1String("case"))
            line = tr("Checking case %1 of %2…").arg(index).arg(of);
        else if (stage == QLatin1String("timing"))
            line = tr("Timing…");
        else if (stage == QLatin1String("traffic"))
            line = tr("Profiling DRAM traffic…");
        else if (stage == QLatin1String("baseline"))
            line = tr("Measuring the baselines…");
        else if (stage == QLatin1String("diagnose"))
            line = tr("Locating the fault…");
        else
            line = stage;
    }
    m_progressText->setText(line);
    if (of > 0) {
        m_progressBar->setRange(0, of);
        m_progressBar->setValue(std::clamp(index, 0, of));
    } else {
        m_progressBar->setRange(0, 0);
    }
}

void ResultsView::showCancelled()
{
    m_progressRow->hide();
    m_report.reset();
    m_notice = tr("Run cancelled. Your code is unchanged; run again when ready.");
    render();
}

void ResultsView::clear()
{
    m_report.reset();
    m_notice.clear();
    m_comparisons.clear();
    m_progressRow->hide();
    render();
}

QString ResultsView::correctnessText() const
{
    return m_correctness->toPlainText();
}
QString ResultsView::performanceText() const
{
    return m_performance->toPlainText();
}

void ResultsView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        render();
}

void ResultsView::render()
{
    if (m_report) {
        m_correctness->setHtml(correctnessHtml(*m_report, palette(), m_showEngineDetails));
        m_performance->setHtml(performanceHtml(*m_report, palette()));
    } else {
        m_correctness->setHtml(
            emptyHtml(m_notice.isEmpty() ? tr("Run your kernel (Ctrl+Return) to see its results here.") : m_notice));
        m_performance->setHtml(emptyHtml(tr("Run your kernel to see its time, bandwidth and DRAM traffic here.")));
    }
    // The comparisons are drawn beside the learner's run only.
    QList<NamedReport> reports;
    if (m_report) {
        reports.append({tr("Your kernel"), *m_report});
        reports += m_comparisons;
    }
    m_roofline->setReports(reports);
    m_bars->setReports(reports);
    m_autotune->setReport(m_report ? &*m_report : nullptr);
    m_tabs->setTabVisible(m_tabs->indexOf(m_autotune), m_autotune->hasSection());
}

QString ResultsView::emptyHtml(const QString& text) const
{
    return QStringLiteral("<p style=\"color: %1;\">%2</p>")
        .arg(palette().color(QPalette::PlaceholderText).name(), text.toHtmlEscaped());
}

} // namespace tkm::app
