#include "app/results/resultsview.h"

#include "app/common/format.h"
#include "app/common/theme.h"
#include "app/common/typedreport.h"
#include "app/results/autotuneresults.h"
#include "app/results/charts.h"

#include "engine/report/figures.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QJsonArray>
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

namespace {

QJsonObject obj(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toObject();
}
QJsonArray arr(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toArray();
}
double num(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toDouble();
}
bool has(const QJsonObject& o, const char* key)
{
    return o.contains(QLatin1String(key));
}
QString str(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toString();
}
QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

/// Paragraph-preserving escape for multi-line messages.
QString escLines(const QString& s)
{
    return esc(s).replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString box(const QColor& border, const QString& inner)
{
    return QStringLiteral("<table width=\"100%\" cellpadding=\"8\" cellspacing=\"0\" style=\"border: 1px solid %1; "
                          "margin-top: 6px; margin-bottom: 6px;\"><tr><td>%2</td></tr></table>")
        .arg(border.name(), inner);
}

/// A horizontal bar [0, 1] in HTML (a two-cell table).
QString bar(double fraction, const QColor& fill, const QColor& rest)
{
    const int pct = std::clamp(static_cast<int>(std::lround(fraction * 100.0)), 0, 100);
    QString cells;
    if (pct > 0)
        cells += QStringLiteral("<td width=\"%1%\" bgcolor=\"%2\" height=\"12\"></td>").arg(pct).arg(fill.name());
    if (pct < 100)
        cells += QStringLiteral("<td width=\"%1%\" bgcolor=\"%2\" height=\"12\"></td>").arg(100 - pct).arg(rest.name());
    return QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"0\"><tr>") + cells +
           QStringLiteral("</tr></table>");
}

QString row(const QString& label, const QString& value)
{
    return QStringLiteral("<tr><td style=\"padding-right: 16px;\"><b>%1</b></td><td>%2</td></tr>").arg(label, value);
}

// The DRAM traffic section, from the typed report (engine/report/run_report.h TrafficInfo; the efficiency formula
// is report::dramEfficiency).
QString trafficSection(const report::TrafficInfo& t, const QColor& muted, const QColor& good, const QColor& rest)
{
    QString html = QStringLiteral("<h3>%1</h3>").arg(esc(ResultsView::tr("DRAM traffic")));
    if (!t.available)
        return html + QStringLiteral("<p>%1</p>").arg(escLines(QString::fromStdString(t.unavailableReason)));
    const double read = static_cast<double>(t.dramReadBytes.value_or(0));
    const double stored = static_cast<double>(t.storedBytes.value_or(0));
    const double ideal = t.idealBytes.value_or(0);
    const double efficiency = report::dramEfficiency(t).value_or(0);
    html += QStringLiteral("<table>");
    html += row(esc(ResultsView::tr("read from DRAM")), esc(formatBytes(read)));
    html += row(esc(ResultsView::tr("stored")),
                esc(formatBytes(stored)) + QStringLiteral(" <span style=\"color: %1;\">(%2)</span>")
                                               .arg(muted.name(), esc(QString::fromStdString(t.storedSource))));
    html += row(esc(ResultsView::tr("total vs ideal")),
                esc(ResultsView::tr("%1 moved, ideal %2").arg(formatBytes(read + stored), formatBytes(ideal))));
    if (t.l2HitRate)
        html += row(esc(ResultsView::tr("L2 hit rate")),
                    esc(QString::number(100.0 * *t.l2HitRate, 'f', 1) + QStringLiteral(" %")));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<p><b>%1</b></p>")
                .arg(esc(ResultsView::tr("DRAM efficiency %1 (ideal bytes / bytes moved)")
                             .arg(QString::number(100.0 * efficiency, 'f', 0) + QStringLiteral(" %"))));
    return html + bar(std::min(efficiency, 1.0), good, rest);
}

} // namespace

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

void ResultsView::showReport(const QJsonObject& report)
{
    m_report = report;
    m_notice.clear();
    m_showEngineDetails = false;
    m_progressRow->hide();
    render();
    // A run is read from its verdict: the Correctness tab, whatever tab the previous run left open; a tuning run
    // is about its table.
    if (report.value(QStringLiteral("autotune")).toObject().contains(QStringLiteral("samples")))
        m_tabs->setCurrentWidget(m_autotune);
    else
        m_tabs->setCurrentIndex(0);
}

void ResultsView::setComparison(const QString& name, const QJsonObject& report)
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
    m_report = {};
    m_notice = tr("Run cancelled. Your code is unchanged; run again when ready.");
    render();
}

void ResultsView::clear()
{
    m_report = {};
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
    m_correctness->setHtml(correctnessHtml());
    m_performance->setHtml(performanceHtml());
    QList<NamedReport> reports{{tr("Your kernel"), m_report}};
    reports += m_comparisons;
    m_roofline->setReports(reports);
    m_bars->setReports(reports);
    m_autotune->setReport(m_report);
    m_tabs->setTabVisible(m_tabs->indexOf(m_autotune), m_autotune->hasSection());
}

QString ResultsView::correctnessHtml() const
{
    const QPalette pal = palette();
    const QColor muted = pal.color(QPalette::PlaceholderText);
    if (m_report.isEmpty()) {
        const QString text =
            m_notice.isEmpty() ? tr("Run your kernel (Ctrl+Return) to see its results here.") : m_notice;
        return QStringLiteral("<p style=\"color: %1;\">%2</p>").arg(muted.name(), esc(text));
    }
    QString html;
    const QString verdict = str(m_report, "verdict");
    const QColor colour = verdictColor(verdict, pal);
    html += QStringLiteral("<table width=\"100%\" cellpadding=\"8\" cellspacing=\"0\"><tr><td bgcolor=\"%1\">"
                           "<span style=\"color: white; font-size: large; font-weight: bold;\">%2</span>"
                           "<span style=\"color: white;\">&nbsp;&nbsp;%3</span></td></tr></table>")
                .arg(verdictBannerColor(verdict).name(), esc(verdictTitle(verdict)),
                     escLines(str(m_report, "summary")));

    // What ran, where.
    QStringList context;
    const QJsonObject exercise = obj(m_report, "exercise");
    if (!str(exercise, "title").isEmpty())
        context << esc(str(exercise, "title"));
    QStringList meta;
    const QJsonObject metaObj = obj(m_report, "meta");
    for (auto it = metaObj.begin(); it != metaObj.end(); ++it)
        meta << it.key() + QStringLiteral(" = ") + formatValue(it.value());
    if (!meta.isEmpty())
        context << esc(meta.join(QStringLiteral(", ")));
    const QJsonObject device = obj(m_report, "device");
    if (!device.isEmpty())
        context << esc(tr("%1 (compute capability %2)").arg(str(device, "name"), str(device, "cc")));
    if (!str(m_report, "created").isEmpty())
        context << esc(str(m_report, "created").replace(QLatin1Char('T'), QLatin1Char(' ')).remove(QLatin1Char('Z')) +
                       QStringLiteral(" UTC"));
    if (!context.isEmpty())
        html += QStringLiteral("<p style=\"color: %1;\">%2</p>").arg(muted.name(), context.join(QStringLiteral(" · ")));

    // Engine-level error (no GPU, worker crash, …).
    const QJsonObject error = obj(m_report, "error");
    const bool noGpu =
        str(error, "kind") == QLatin1String("no-gpu") || str(error, "kind") == QLatin1String("no-driver");
    if (noGpu) {
        // The banner's summary has said it in plain words; the raw reason (cuInit, libcuda.so.1 …) is one click away.
        html += QStringLiteral("<p style=\"color: %1;\"><a href=\"details:engine\">%2</a>%3</p>")
                    .arg(muted.name(), esc(m_showEngineDetails ? tr("Hide details") : tr("Details")),
                         m_showEngineDetails ? QStringLiteral(": ") + escLines(str(error, "message")) : QString());
    } else if (!error.isEmpty() && str(error, "message") != str(m_report, "summary")) {
        html += box(colour, escLines(str(error, "message")));
    }

    // Compile.
    const QJsonObject compile = obj(m_report, "compile");
    if (!compile.isEmpty()) {
        const QJsonArray diagnostics = arr(compile, "diagnostics");
        QString head;
        if (compile.value(QStringLiteral("ok")).toBool()) {
            head = tr("Compiled for %1").arg(str(compile, "arch"));
            if (has(compile, "compile_ms"))
                head += tr(" in %1").arg(formatStageMs(num(compile, "compile_ms")));
            if (compile.value(QStringLiteral("cached")).toBool())
                head += tr(" (from the cache)");
            head += QLatin1Char('.');
        } else {
            head = tr("NVRTC rejected the source:");
        }
        html += QStringLiteral("<h3>%1</h3><p>%2</p>").arg(esc(tr("Compile")), esc(head));
        if (!diagnostics.isEmpty()) {
            html += QStringLiteral("<ul>");
            for (const QJsonValue& v : diagnostics) {
                const QJsonObject d = v.toObject();
                const int line = d.value(QStringLiteral("line")).toInt();
                const int column = d.value(QStringLiteral("column")).toInt();
                const QString where = QStringLiteral("%1:%2:%3").arg(str(d, "file")).arg(line).arg(column);
                const QColor sev = str(d, "severity") == QLatin1String("error")
                                       ? verdictColor(QStringLiteral("fail"), pal)
                                       : verdictColor(QString(), pal);
                html +=
                    QStringLiteral("<li><a href=\"diag:%1:%2\">%3</a> <span style=\"color: %4;\">%5</span>: %6</li>")
                        .arg(line)
                        .arg(column)
                        .arg(esc(where), sev.name(), esc(str(d, "severity")), esc(str(d, "message")));
            }
            html += QStringLiteral("</ul>");
        }
    }

    // Fault.
    const QJsonObject fault = obj(m_report, "fault");
    if (!fault.isEmpty()) {
        QString text =
            QStringLiteral("<b>%1</b><br>%2").arg(esc(tr("Where it faulted")), escLines(str(fault, "message")));
        QStringList details;
        if (!str(fault, "kind").isEmpty())
            details << tr("kind: %1").arg(str(fault, "kind"));
        if (!str(fault, "buffer").isEmpty())
            details << tr("buffer: %1").arg(str(fault, "buffer"));
        if (!str(fault, "case").isEmpty())
            details << tr("case: %1").arg(str(fault, "case"));
        if (!str(fault, "cuda_error").isEmpty())
            details << str(fault, "cuda_error");
        if (!details.isEmpty())
            text += QStringLiteral("<br><span style=\"color: %1;\">%2</span>")
                        .arg(muted.name(), esc(details.join(QStringLiteral(" · "))));
        html += box(colour, text);
    }

    // Cases.
    const QJsonArray cases = arr(m_report, "cases");
    if (!cases.isEmpty()) {
        int passed = 0;
        for (const QJsonValue& v : cases)
            passed += str(v.toObject(), "verdict") == QLatin1String("pass");
        html += QStringLiteral("<h3>%1</h3>").arg(esc(tr("Cases: %1 of %2 pass").arg(passed).arg(cases.size())));
        html += QStringLiteral("<table width=\"100%\" cellpadding=\"4\" cellspacing=\"0\" border=\"1\" "
                               "style=\"border-color: %1; border-collapse: collapse;\"><tr>")
                    .arg(muted.name());
        for (const QString& h : {tr("case"), tr("sizes"), tr("verdict"), tr("max abs error"), tr("max rel error"),
                                 tr("unwritten"), tr("NaN"), tr("first mismatches (got vs expected)")})
            html += QStringLiteral("<th align=\"left\">%1</th>").arg(esc(h));
        html += QStringLiteral("</tr>");
        for (const QJsonValue& v : cases) {
            const QJsonObject c = v.toObject();
            const QString cv = str(c, "verdict");
            double maxAbs = 0, maxRel = 0;
            qint64 unwritten = 0, nan = 0, canary = 0;
            bool anyOutput = false;
            QStringList mismatches;
            for (const QJsonValue& ov : arr(c, "outputs")) {
                const QJsonObject o = ov.toObject();
                anyOutput = true;
                maxAbs = std::max(maxAbs, num(o, "max_abs_error"));
                maxRel = std::max(maxRel, num(o, "max_rel_error"));
                unwritten += static_cast<qint64>(num(o, "unwritten"));
                nan += static_cast<qint64>(num(o, "nan"));
                canary += static_cast<qint64>(num(obj(o, "canary_damage"), "before_start"));
                for (const QJsonValue& mv : arr(o, "first_mismatches")) {
                    if (mismatches.size() >= 3)
                        break;
                    const QJsonObject m = mv.toObject();
                    mismatches << QStringLiteral("%1%2: %3 vs %4")
                                      .arg(str(o, "buffer"), formatValue(m.value(QStringLiteral("index"))),
                                           formatValue(m.value(QStringLiteral("got"))),
                                           formatValue(m.value(QStringLiteral("expected"))));
                }
            }
            const QColor cc = verdictColor(cv, pal);
            const QString dash = QStringLiteral("—");
            html += QStringLiteral("<tr><td>%1</td><td>%2</td><td style=\"color: %3;\"><b>%4</b></td><td>%5</td>"
                                   "<td>%6</td><td>%7</td><td>%8</td><td>%9</td></tr>")
                        .arg(esc(str(c, "name")), esc(formatSizes(obj(c, "sizes"))), cc.name(), esc(cv),
                             anyOutput ? QString::number(maxAbs, 'g', 3) : dash,
                             anyOutput ? QString::number(maxRel, 'g', 3) : dash,
                             anyOutput ? QString::number(unwritten) : dash, anyOutput ? QString::number(nan) : dash,
                             esc(mismatches.join(QStringLiteral("; "))));
            QStringList notes;
            if (!str(c, "message").isEmpty())
                notes << esc(str(c, "message"));
            if (c.value(QStringLiteral("nondeterministic")).toBool())
                notes << esc(
                    tr("A second launch gave different results: does the kernel accumulate into its output, or "
                       "race?"));
            if (canary > 0)
                notes << esc(tr("%1 bytes before the start of a buffer were overwritten.").arg(canary));
            if (!notes.isEmpty())
                html += QStringLiteral("<tr><td colspan=\"8\" style=\"color: %1;\">%2</td></tr>")
                            .arg(cc.name(), notes.join(QStringLiteral("<br>")));
        }
        html += QStringLiteral("</table>");
    }
    return html;
}

QString ResultsView::performanceHtml() const
{
    const QPalette pal = palette();
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const QJsonObject timing = obj(m_report, "timing");
    const QJsonObject traffic = obj(m_report, "traffic");
    const QJsonObject resources = obj(obj(m_report, "compile"), "resources");
    if (timing.isEmpty() && traffic.isEmpty() && resources.isEmpty()) {
        const QString why = m_report.isEmpty()
                                ? tr("Run your kernel to see its time, bandwidth and DRAM traffic here.")
                                : tr("This run was not timed: timing and traffic are measured once every case passes "
                                     "on a GPU.");
        return QStringLiteral("<p style=\"color: %1;\">%2</p>").arg(muted.name(), esc(why));
    }
    const QJsonObject ceilings = obj(m_report, "ceilings");
    const QJsonObject roof = obj(m_report, "roofline");
    double theo = num(ceilings, "theoretical_gbps");
    if (theo <= 0)
        theo = num(obj(m_report, "device"), "theoretical_gbps");
    const double measured = num(ceilings, "measured_copy_gbps");
    const bool dark = isDarkPalette(pal);
    const QColor good = verdictColor(QStringLiteral("pass"), pal);
    const QColor rest = dark ? QColor(0x30, 0x36, 0x3d) : QColor(0xd0, 0xd7, 0xde);
    QString html;

    if (!timing.isEmpty()) {
        html += QStringLiteral("<h3>%1</h3><table>").arg(esc(tr("Time")));
        QString spread = tr("p20 %1 – p80 %2").arg(formatMs(num(timing, "p20_ms")), formatMs(num(timing, "p80_ms")));
        if (has(timing, "min_ms"))
            spread += tr(", min %1").arg(formatMs(num(timing, "min_ms")));
        html += row(esc(tr("median")),
                    QStringLiteral("<b>%1</b> (%2)").arg(esc(formatMs(num(timing, "median_ms"))), esc(spread)));
        QString samples = tr("%1 samples").arg(formatValue(timing.value(QStringLiteral("samples"))));
        samples += timing.value(QStringLiteral("settled")).toBool()
                       ? tr(", spread settled")
                       : tr(", time budget reached before the spread settled");
        html += row(esc(tr("samples")), esc(samples));
        if (has(timing, "sizes"))
            html += row(esc(tr("timed case")), esc(formatSizes(obj(timing, "sizes"))));
        if (has(timing, "achieved_gbps")) {
            const double gbps = num(timing, "achieved_gbps");
            html += row(esc(tr("bandwidth")),
                        esc(tr("%1 = %2 of the measured copy (%3), %4 of the theoretical (%5)")
                                .arg(formatGbps(gbps), formatPercent(gbps, measured), formatGbps(measured),
                                     formatPercent(gbps, theo), formatGbps(theo))));
        }
        if (has(timing, "achieved_gflops")) {
            const double gf = num(timing, "achieved_gflops");
            QString text = tr("%1 = %2 of peak FP32 (%3)")
                               .arg(formatGflops(gf), formatPercent(gf, num(ceilings, "peak_fp32_gflops")),
                                    formatGflops(num(ceilings, "peak_fp32_gflops")));
            if (has(roof, "attainable_gflops_measured"))
                text += tr("; %1 of what the roofline allows at this intensity (%2-bound)")
                            .arg(formatPercent(gf, num(roof, "attainable_gflops_measured")), str(roof, "bound"));
            html += row(esc(tr("FLOP rate")), esc(text));
        }
        html += QStringLiteral("</table>");
    }

    if (const std::optional<report::TrafficInfo> t = typedTraffic(m_report)) {
        html += trafficSection(*t, muted, good, rest);
    }

    if (!resources.isEmpty()) {
        html += QStringLiteral("<h3>%1</h3><table>").arg(esc(tr("Resources per thread block")));
        html += row(esc(tr("registers per thread")), formatValue(resources.value(QStringLiteral("registers"))));
        html += row(esc(tr("shared memory")), esc(formatBytes(num(resources, "shared_bytes"))));
        html += row(esc(tr("local memory")), esc(formatBytes(num(resources, "local_bytes"))));
        if (num(resources, "spill_stores_bytes") + num(resources, "spill_loads_bytes") > 0)
            html += row(esc(tr("spills")), esc(tr("%1 stored, %2 loaded")
                                                   .arg(formatBytes(num(resources, "spill_stores_bytes")),
                                                        formatBytes(num(resources, "spill_loads_bytes")))));
        // 0 means ptxas gave no limit (no __launch_bounds__ and the figure unknown): say nothing rather than "0".
        if (resources.value(QStringLiteral("max_threads_per_block")).toDouble() > 0)
            html += row(esc(tr("max threads per block")),
                        formatValue(resources.value(QStringLiteral("max_threads_per_block"))));
        html += QStringLiteral("</table>");
    }

    const QJsonArray baselines = arr(m_report, "baselines");
    if (!baselines.isEmpty() && !timing.isEmpty()) {
        html += QStringLiteral("<h3>%1</h3>").arg(esc(tr("Baselines")));
        html += QStringLiteral("<table cellpadding=\"4\" cellspacing=\"0\" border=\"1\" style=\"border-collapse: "
                               "collapse; border-color: %1;\"><tr>")
                    .arg(muted.name());
        for (const QString& h : {tr("kernel"), tr("median"), tr("your time ÷ theirs"), tr("DRAM read"), tr("stored"),
                                 tr("your bytes ÷ theirs")})
            html += QStringLiteral("<th align=\"left\">%1</th>").arg(esc(h));
        html +=
            QStringLiteral(
                "</tr><tr><td><b>%1</b></td><td>%2</td><td>1.00</td><td>%3</td><td>%4</td><td>1.00</td></tr>")
                .arg(esc(tr("your kernel")), esc(formatMs(num(timing, "median_ms"))),
                     esc(formatBytes(num(traffic, "dram_read_bytes"))), esc(formatBytes(num(traffic, "stored_bytes"))));
        for (const QJsonValue& v : baselines) {
            const QJsonObject b = v.toObject();
            html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                        .arg(esc(str(b, "name")), esc(formatMs(num(b, "median_ms"))),
                             QString::number(num(b, "time_ratio"), 'f', 2), esc(formatBytes(num(b, "dram_read_bytes"))),
                             esc(formatBytes(num(b, "stored_bytes"))), QString::number(num(b, "bytes_ratio"), 'f', 2));
        }
        html += QStringLiteral("</table>");
    }

    const QJsonObject stages = obj(m_report, "stages_ms");
    if (!stages.isEmpty()) {
        QStringList parts;
        for (auto it = stages.begin(); it != stages.end(); ++it)
            parts << it.key() + QLatin1Char(' ') + formatStageMs(it.value().toDouble());
        html += QStringLiteral("<p style=\"color: %1;\">%2</p>")
                    .arg(muted.name(), esc(tr("Engine stages: %1").arg(parts.join(QStringLiteral(", ")))));
    }
    return html;
}

} // namespace tkm::app
