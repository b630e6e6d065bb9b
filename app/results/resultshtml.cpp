#include "app/results/resultshtml.h"

#include "app/common/format.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"

#include "engine/report/figures.h"

#include <QCoreApplication>
#include <QJsonValue>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace tkm::app {

namespace {

// The pages keep the results view's translation context.
QString tr(const char* text)
{
    return QCoreApplication::translate("tkm::app::ResultsView", text);
}

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString esc(const std::string& s)
{
    return qs(s).toHtmlEscaped();
}

/// Paragraph-preserving escape for multi-line messages.
QString escLines(const std::string& s)
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

/// A compared value as the report writes it: "unwritten", "nan", "inf", "-inf" or the number.
QString valueText(double v, bool unwritten)
{
    if (unwritten)
        return QStringLiteral("unwritten");
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return formatValue(QJsonValue(v));
}

QString indexText(const std::vector<int64_t>& index)
{
    QStringList parts;
    for (int64_t i : index)
        parts << QString::number(i);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString mutedParagraph(const QColor& muted, const QString& html)
{
    return QStringLiteral("<p style=\"color: %1;\">%2</p>").arg(muted.name(), html);
}

QString bannerHtml(const report::RunReport& r)
{
    return QStringLiteral("<table width=\"100%\" cellpadding=\"8\" cellspacing=\"0\"><tr><td bgcolor=\"%1\">"
                          "<span style=\"color: white; font-size: large; font-weight: bold;\">%2</span>"
                          "<span style=\"color: white;\">&nbsp;&nbsp;%3</span></td></tr></table>")
        .arg(verdictBannerColor(r.verdict).name(), esc(verdictTitle(r.verdict)), escLines(r.summary));
}

// What ran, where: exercise, meta-parameters, device, time.
QString contextHtml(const report::RunReport& r, const QColor& muted)
{
    QStringList context;
    if (r.exercise && !r.exercise->title.empty())
        context << esc(r.exercise->title);
    if (!r.meta.empty())
        context << esc(formatSizes(r.meta));
    if (r.device)
        context << esc(tr("%1 (compute capability %2)").arg(qs(r.device->name), qs(r.device->cc)));
    if (!r.created.empty())
        context << esc(qs(r.created).replace(QLatin1Char('T'), QLatin1Char(' ')).remove(QLatin1Char('Z')) +
                       QStringLiteral(" UTC"));
    return context.isEmpty() ? QString() : mutedParagraph(muted, context.join(QStringLiteral(" · ")));
}

// Engine-level error (no GPU, worker crash, …).
QString errorHtml(const report::RunReport& r, const QColor& colour, const QColor& muted, bool showDetails)
{
    if (!r.error)
        return {};
    if (r.error->kind == "no-gpu" || r.error->kind == "no-driver") {
        // The banner's summary has said it in plain words; the raw reason (cuInit, libcuda.so.1 …) is one click away.
        return QStringLiteral("<p style=\"color: %1;\"><a href=\"details:engine\">%2</a>%3</p>")
            .arg(muted.name(), esc(showDetails ? tr("Hide details") : tr("Details")),
                 showDetails ? QStringLiteral(": ") + escLines(r.error->message) : QString());
    }
    return r.error->message != r.summary ? box(colour, escLines(r.error->message)) : QString();
}

// `language`: the report's ("triton" kernels are refused by our own front end, CUDA ones by NVRTC).
QString compileHtml(const report::CompileInfo& c, const std::string& language, const QPalette& pal)
{
    QString head;
    if (c.ok) {
        head = tr("Compiled for %1").arg(qs(c.arch));
        head += tr(" in %1").arg(formatStageMs(c.compileMs));
        if (c.cached)
            head += tr(" (from the cache)");
        head += QLatin1Char('.');
    } else {
        head = language == "triton" ? tr("Our Triton front end rejected the kernel:") : tr("NVRTC rejected the source:");
    }
    QString html = QStringLiteral("<h3>%1</h3><p>%2</p>").arg(esc(tr("Compile")), esc(head));
    if (c.diagnostics.empty())
        return html;
    html += QStringLiteral("<ul>");
    for (const report::DiagnosticInfo& d : c.diagnostics) {
        const QString where = QStringLiteral("%1:%2:%3").arg(qs(d.file)).arg(d.line).arg(d.column);
        const QColor sev = toneColor(d.severity == "error" ? Tone::Wrong : Tone::Caution, pal);
        html += QStringLiteral("<li><a href=\"diag:%1:%2\">%3</a> <span style=\"color: %4;\">%5</span>: %6</li>")
                    .arg(d.line)
                    .arg(d.column)
                    .arg(esc(where), sev.name(), esc(d.severity), esc(d.message));
    }
    return html + QStringLiteral("</ul>");
}

QString faultHtml(const report::FaultInfo& f, const QColor& colour, const QColor& muted)
{
    QString text = QStringLiteral("<b>%1</b><br>%2").arg(esc(tr("Where it faulted")), escLines(f.message));
    QStringList details;
    if (!f.kind.empty())
        details << tr("kind: %1").arg(qs(f.kind));
    if (!f.buffer.empty())
        details << tr("buffer: %1").arg(qs(f.buffer));
    if (!f.caseName.empty())
        details << tr("case: %1").arg(qs(f.caseName));
    if (!f.cudaError.empty())
        details << qs(f.cudaError);
    if (!details.isEmpty())
        text += QStringLiteral("<br><span style=\"color: %1;\">%2</span>")
                    .arg(muted.name(), esc(details.join(QStringLiteral(" · "))));
    return box(colour, text);
}

// One case's row and, under it, its notes (message, nondeterminism, canary damage).
QString caseRows(const report::CaseInfo& c, const QPalette& pal)
{
    double maxAbs = 0, maxRel = 0;
    int64_t unwritten = 0, nan = 0, canary = 0;
    QStringList mismatches;
    for (const report::OutputInfo& o : c.outputs) {
        maxAbs = std::max(maxAbs, o.maxAbsError);
        maxRel = std::max(maxRel, o.maxRelError);
        unwritten += o.unwritten;
        nan += o.nan;
        canary += o.canaryBeforeStart.value_or(0);
        for (const report::MismatchInfo& m : o.firstMismatches) {
            if (mismatches.size() >= 3)
                break;
            mismatches << QStringLiteral("%1%2: %3 vs %4")
                              .arg(qs(o.buffer), indexText(m.index), valueText(m.got, m.unwritten),
                                   valueText(m.expected, false));
        }
    }
    const bool anyOutput = !c.outputs.empty();
    const QColor cc = verdictColor(c.verdict, pal);
    const QString dash = QStringLiteral("—");
    QString html = QStringLiteral("<tr><td>%1</td><td>%2</td><td style=\"color: %3;\"><b>%4</b></td><td>%5</td>"
                                  "<td>%6</td><td>%7</td><td>%8</td><td>%9</td></tr>")
                       .arg(esc(c.name), esc(formatSizes(c.sizes)), cc.name(), esc(verdictWord(c.verdict)),
                            anyOutput ? QString::number(maxAbs, 'g', 3) : dash,
                            anyOutput ? QString::number(maxRel, 'g', 3) : dash,
                            anyOutput ? QString::number(unwritten) : dash, anyOutput ? QString::number(nan) : dash,
                            esc(mismatches.join(QStringLiteral("; "))));
    QStringList notes;
    if (!c.message.empty())
        notes << esc(c.message);
    if (c.nondeterministic.value_or(false))
        notes << esc(tr("A second launch gave different results: does the kernel accumulate into its output, or "
                        "race?"));
    if (canary > 0)
        notes << esc(tr("%1 bytes before the start of a buffer were overwritten.").arg(canary));
    if (!notes.isEmpty())
        html += QStringLiteral("<tr><td colspan=\"8\" style=\"color: %1;\">%2</td></tr>")
                    .arg(cc.name(), notes.join(QStringLiteral("<br>")));
    return html;
}

QString casesHtml(const std::vector<report::CaseInfo>& cases, const QPalette& pal, const QColor& muted)
{
    const auto passed = std::count_if(cases.begin(), cases.end(),
                                      [](const report::CaseInfo& c) { return c.verdict == report::CaseVerdict::Pass; });
    QString html =
        QStringLiteral("<h3>%1</h3>").arg(esc(tr("Cases: %1 of %2 pass").arg(passed).arg(cases.size())));
    html += QStringLiteral("<table width=\"100%\" cellpadding=\"4\" cellspacing=\"0\" border=\"1\" "
                           "style=\"border-color: %1; border-collapse: collapse;\"><tr>")
                .arg(muted.name());
    for (const QString& h : {tr("case"), tr("sizes"), tr("verdict"), tr("max abs error"), tr("max rel error"),
                             tr("unwritten"), tr("NaN"), tr("first mismatches (got vs expected)")})
        html += QStringLiteral("<th align=\"left\">%1</th>").arg(esc(h));
    html += QStringLiteral("</tr>");
    for (const report::CaseInfo& c : cases)
        html += caseRows(c, pal);
    return html + QStringLiteral("</table>");
}

// Ceilings the timing is read against [GB/s]: the theoretical one (from the device when the ceilings lack it)
// and the measured copy (0 when unknown).
struct Bandwidths
{
    double theoretical = 0;
    double measured = 0;
};

Bandwidths bandwidthsOf(const report::RunReport& r)
{
    Bandwidths b;
    if (r.ceilings) {
        b.theoretical = r.ceilings->theoreticalGbps;
        b.measured = r.ceilings->measuredCopyGbps.value_or(0);
    }
    if (b.theoretical <= 0 && r.device)
        b.theoretical = r.device->theoreticalGbps;
    return b;
}

QString flopRateText(const report::RunReport& r, double gflops)
{
    const double peak = r.ceilings ? r.ceilings->peakFp32Gflops.value_or(0) : 0.0;
    QString text = tr("%1 = %2 of peak FP32 (%3)").arg(formatGflops(gflops), formatPercent(gflops, peak),
                                                       formatGflops(peak));
    if (r.roofline && r.roofline->attainableGflopsMeasured)
        text += tr("; %1 of what the roofline allows at this intensity (%2-bound)")
                    .arg(formatPercent(gflops, *r.roofline->attainableGflopsMeasured), qs(r.roofline->bound));
    return text;
}

QString timingHtml(const report::RunReport& r)
{
    const report::TimingInfo& t = *r.timing;
    const Bandwidths bw = bandwidthsOf(r);
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(esc(tr("Time")));
    QString spread = tr("p20 %1 – p80 %2").arg(formatMs(t.p20Ms), formatMs(t.p80Ms));
    spread += tr(", min %1").arg(formatMs(t.minMs));
    html += row(esc(tr("median")), QStringLiteral("<b>%1</b> (%2)").arg(esc(formatMs(t.medianMs)), esc(spread)));
    QString samples = tr("%1 samples").arg(t.samples);
    samples += t.settled ? tr(", spread settled") : tr(", time budget reached before the spread settled");
    html += row(esc(tr("samples")), esc(samples));
    html += row(esc(tr("timed case")), esc(formatSizes(t.sizes)));
    if (t.achievedGbps) {
        const double gbps = *t.achievedGbps;
        html += row(esc(tr("bandwidth")),
                    esc(tr("%1 = %2 of the measured copy (%3), %4 of the theoretical (%5)")
                            .arg(formatGbps(gbps), formatPercent(gbps, bw.measured), formatGbps(bw.measured),
                                 formatPercent(gbps, bw.theoretical), formatGbps(bw.theoretical))));
    }
    if (t.achievedGflops)
        html += row(esc(tr("FLOP rate")), esc(flopRateText(r, *t.achievedGflops)));
    return html + QStringLiteral("</table>");
}

// The DRAM traffic section (efficiency: report::dramEfficiency).
QString trafficHtml(const report::TrafficInfo& t, const QColor& muted, const QColor& good, const QColor& rest)
{
    QString html = QStringLiteral("<h3>%1</h3>").arg(esc(tr("DRAM traffic")));
    if (!t.available)
        return html + QStringLiteral("<p>%1</p>").arg(escLines(t.unavailableReason));
    const double read = static_cast<double>(t.dramReadBytes.value_or(0));
    const double stored = static_cast<double>(t.storedBytes.value_or(0));
    const double efficiency = report::dramEfficiency(t).value_or(0);
    html += QStringLiteral("<table>");
    html += row(esc(tr("read from DRAM")), esc(formatBytes(read)));
    html += row(esc(tr("stored")), esc(formatBytes(stored)) + QStringLiteral(" <span style=\"color: %1;\">(%2)</span>")
                                                              .arg(muted.name(), esc(t.storedSource)));
    html += row(esc(tr("total vs ideal")), esc(tr("%1 moved, ideal %2")
                                                   .arg(formatBytes(report::bytesMoved(t)),
                                                        formatBytes(t.idealBytes.value_or(0)))));
    if (t.l2HitRate)
        html += row(esc(tr("L2 hit rate")), esc(QString::number(100.0 * *t.l2HitRate, 'f', 1) + QStringLiteral(" %")));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<p><b>%1</b></p>")
                .arg(esc(tr("DRAM efficiency %1 (ideal bytes / bytes moved)")
                             .arg(QString::number(100.0 * efficiency, 'f', 0) + QStringLiteral(" %"))));
    return html + bar(std::min(efficiency, 1.0), good, rest);
}

QString resourcesHtml(const report::ResourcesInfo& res)
{
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(esc(tr("Resources per thread block")));
    html += row(esc(tr("registers per thread")), QString::number(res.registers));
    html += row(esc(tr("shared memory")), esc(formatBytes(static_cast<double>(res.sharedBytes))));
    html += row(esc(tr("local memory")), esc(formatBytes(static_cast<double>(res.localBytes))));
    if (res.spillStoresBytes + res.spillLoadsBytes > 0)
        html += row(esc(tr("spills")), esc(tr("%1 stored, %2 loaded")
                                               .arg(formatBytes(static_cast<double>(res.spillStoresBytes)),
                                                    formatBytes(static_cast<double>(res.spillLoadsBytes)))));
    // 0 means ptxas gave no limit (no __launch_bounds__ and the figure unknown): say nothing rather than "0".
    if (res.maxThreadsPerBlock > 0)
        html += row(esc(tr("max threads per block")), QString::number(res.maxThreadsPerBlock));
    return html + QStringLiteral("</table>");
}

QString bytesText(const std::optional<int64_t>& bytes)
{
    return esc(formatBytes(static_cast<double>(bytes.value_or(0))));
}

QString baselinesHtml(const report::RunReport& r, const QColor& muted)
{
    QString html = QStringLiteral("<h3>%1</h3>").arg(esc(tr("Baselines")));
    html += QStringLiteral("<table cellpadding=\"4\" cellspacing=\"0\" border=\"1\" style=\"border-collapse: "
                           "collapse; border-color: %1;\"><tr>")
                .arg(muted.name());
    for (const QString& h : {tr("kernel"), tr("median"), tr("your time ÷ theirs"), tr("DRAM read"), tr("stored"),
                             tr("your bytes ÷ theirs")})
        html += QStringLiteral("<th align=\"left\">%1</th>").arg(esc(h));
    const report::TrafficInfo traffic = r.traffic.value_or(report::TrafficInfo{});
    html += QStringLiteral("</tr><tr><td><b>%1</b></td><td>%2</td><td>1.00</td><td>%3</td><td>%4</td><td>1.00</td></tr>")
                .arg(esc(tr("your kernel")), esc(formatMs(r.timing->medianMs)), bytesText(traffic.dramReadBytes),
                     bytesText(traffic.storedBytes));
    for (const report::BaselineInfo& b : r.baselines)
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                    .arg(esc(b.name), esc(formatMs(b.medianMs)), QString::number(b.timeRatio.value_or(0), 'f', 2),
                         bytesText(b.dramReadBytes), bytesText(b.storedBytes),
                         QString::number(b.bytesRatio.value_or(0), 'f', 2));
    return html + QStringLiteral("</table>");
}

QString stagesHtml(const report::StagesMs& stages, const QColor& muted)
{
    QStringList parts;
    for (const auto& [stage, ms] : stages)
        parts << qs(stage) + QLatin1Char(' ') + formatStageMs(ms);
    return mutedParagraph(muted, esc(tr("Engine stages: %1").arg(parts.join(QStringLiteral(", ")))));
}

} // namespace

QString correctnessHtml(const report::RunReport& r, const QPalette& pal, bool showEngineDetails)
{
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const QColor colour = verdictColor(r.verdict, pal);
    QString html = bannerHtml(r) + contextHtml(r, muted) + errorHtml(r, colour, muted, showEngineDetails);
    if (r.compile)
        html += compileHtml(*r.compile, r.language, pal);
    if (r.fault)
        html += faultHtml(*r.fault, colour, muted);
    if (!r.cases.empty())
        html += casesHtml(r.cases, pal, muted);
    return html;
}

QString performanceHtml(const report::RunReport& r, const QPalette& pal)
{
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const std::optional<report::ResourcesInfo> resources = r.compile ? r.compile->resources : std::nullopt;
    if (!r.timing && !r.traffic && !resources)
        return mutedParagraph(muted, esc(tr("This run was not timed: timing and traffic are measured once every case "
                                            "passes on a GPU.")));
    const QColor good = toneColor(Tone::Good, pal);
    const QColor rest = isDarkPalette(pal) ? QColor(0x30, 0x36, 0x3d) : QColor(0xd0, 0xd7, 0xde);
    QString html;
    if (r.timing)
        html += timingHtml(r);
    if (r.traffic)
        html += trafficHtml(*r.traffic, muted, good, rest);
    if (resources)
        html += resourcesHtml(*resources);
    if (!r.baselines.empty() && r.timing)
        html += baselinesHtml(r, muted);
    if (!r.stagesMs.empty())
        html += stagesHtml(r.stagesMs, muted);
    return html;
}

} // namespace tkm::app
