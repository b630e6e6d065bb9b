#include "app/results/charts.h"

#include "app/common/format.h"

#include "engine/report/figures.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace tkm::app {

namespace {

void showMessage(QChart* chart, const QString& text)
{
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
    chart->setTitle(text);
}

QChart* makeChart(QChartView* view)
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    const QPalette pal = view->palette();
    chart->setBackgroundBrush(pal.color(QPalette::Base));
    chart->setTitleBrush(pal.color(QPalette::Text));
    chart->legend()->setLabelColor(pal.color(QPalette::Text));
    view->setChart(chart);
    view->setRenderHint(QPainter::Antialiasing);
    return chart;
}

void styleAxis(QAbstractAxis* axis, const QPalette& pal)
{
    axis->setLabelsColor(pal.color(QPalette::Text));
    axis->setTitleBrush(pal.color(QPalette::Text));
    QColor grid = pal.color(QPalette::Text);
    grid.setAlpha(40);
    axis->setGridLineColor(grid);
}

const QColor kSeriesColors[] = {QColor(0xe3, 0x6c, 0x09), QColor(0x2e, 0x8b, 0x57), QColor(0x6a, 0x5a, 0xcd),
                                QColor(0xb8, 0x3b, 0x5e), QColor(0x1f, 0x77, 0xb4), QColor(0x8c, 0x6d, 0x1f)};

} // namespace

QList<RooflinePoint> rooflinePoints(const QString& name, const report::RunReport& report)
{
    QList<RooflinePoint> points;
    if (!report.roofline)
        return points;
    points.append({name, report.roofline->intensityFlopPerByte, report.roofline->achievedGflops});
    const double flops = report.timing ? report::timedFlops(*report.timing) : 0.0;
    for (const report::BaselineInfo& b : report.baselines) {
        const double bytes = report::bytesMoved(b);
        if (b.medianMs <= 0.0 || bytes <= 0.0 || flops <= 0.0)
            continue;
        points.append({QString::fromStdString(b.name), flops / bytes, flops / (b.medianMs * 1e-3) / 1e9});
    }
    return points;
}

RooflineChart::RooflineChart(QWidget* parent) : QChartView(parent)
{
    makeChart(this)->setTitle(tr("Run a kernel to see it on the roofline."));
    setMinimumSize(200, 110); // a small dock scales the chart down; it never sets the window's height
}

bool RooflineChart::setReports(const QList<NamedReport>& reports)
{
    QChart* chart = makeChart(this);
    m_points = 0;
    if (reports.isEmpty() || !reports.first().second.roofline) {
        showMessage(chart, tr("No roofline: the run was not timed (no GPU, or the kernel did not pass)."));
        return false;
    }
    const report::RunReport& first = reports.first().second;
    const report::CeilingsInfo ceil = first.ceilings.value_or(report::CeilingsInfo{});
    const report::RooflineInfo& roof = *first.roofline;
    double peak = ceil.peakFp32Gflops.value_or(0);
    const double theo = std::max(ceil.theoreticalGbps, first.device ? first.device->theoreticalGbps : 0.0);
    const double measured = ceil.measuredCopyGbps.value_or(0);

    QList<RooflinePoint> points;
    for (int i = 0; i < reports.size(); ++i) {
        QList<RooflinePoint> p = rooflinePoints(reports[i].first, reports[i].second);
        if (i > 0 && !p.isEmpty())
            p = {p.first()}; // a comparison's own point; its baselines are the same as the learner's
        points += p;
    }
    double xMin = 0.01, xMax = 100.0, yMax = 1.0;
    for (const RooflinePoint& p : points) {
        if (p.intensity > 0) {
            xMin = std::min(xMin, p.intensity / 4);
            xMax = std::max(xMax, p.intensity * 4);
        }
        yMax = std::max(yMax, p.gflops * 4);
    }
    if (peak <= 0)
        peak = std::max(roof.attainableGflopsTheoretical, yMax);
    yMax = std::max(yMax, peak * 2);
    double yMin = 1e300;
    for (const RooflinePoint& p : points)
        if (p.gflops > 0)
            yMin = std::min(yMin, p.gflops / 4);
    if (theo > 0)
        yMin = std::min(yMin, theo * xMin);
    if (!(yMin < 1e300))
        yMin = 1.0;
    yMin = std::max(yMin, 1e-3);

    auto* axisX = new QLogValueAxis;
    axisX->setTitleText(tr("arithmetic intensity [FLOP/byte]"));
    axisX->setBase(10);
    axisX->setLabelFormat(QStringLiteral("%g"));
    axisX->setRange(xMin, xMax);
    auto* axisY = new QLogValueAxis;
    axisY->setTitleText(tr("GFLOP/s"));
    axisY->setBase(10);
    axisY->setLabelFormat(QStringLiteral("%g"));
    axisY->setRange(yMin, yMax);
    styleAxis(axisX, palette());
    styleAxis(axisY, palette());
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);

    auto addRoof = [&](double gbps, const QString& name, Qt::PenStyle style) {
        if (gbps <= 0)
            return;
        auto* line = new QLineSeries;
        line->setName(name);
        const double ridge = peak / gbps;
        line->append(xMin, gbps * xMin);
        if (ridge > xMin && ridge < xMax)
            line->append(ridge, peak);
        line->append(xMax, std::min(gbps * xMax, peak));
        QPen pen(palette().color(QPalette::Text));
        pen.setStyle(style);
        pen.setWidthF(1.5);
        line->setPen(pen);
        chart->addSeries(line);
        line->attachAxis(axisX);
        line->attachAxis(axisY);
        connect(line, &QLineSeries::hovered, this, [name, gbps](const QPointF& pt, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), QStringLiteral("%1\n%2 · %3 FLOP/byte → %4")
                                                       .arg(name, formatGbps(gbps), QString::number(pt.x(), 'g', 3),
                                                            formatGflops(pt.y())));
        });
    };
    addRoof(theo, tr("theoretical bandwidth %1, peak FP32 %2").arg(formatGbps(theo), formatGflops(peak)),
            Qt::SolidLine);
    addRoof(measured, tr("measured copy bandwidth %1").arg(formatGbps(measured)), Qt::DashLine);

    int colour = 0;
    for (const RooflinePoint& p : points) {
        if (p.intensity <= 0 || p.gflops <= 0)
            continue;
        auto* series = new QScatterSeries;
        series->setName(p.name);
        series->setMarkerSize(colour == 0 ? 14 : 11);
        series->setMarkerShape(colour == 0 ? QScatterSeries::MarkerShapeCircle : QScatterSeries::MarkerShapeRectangle);
        series->setColor(kSeriesColors[colour % 6]);
        series->setBorderColor(palette().color(QPalette::Base));
        series->append(p.intensity, p.gflops);
        chart->addSeries(series);
        series->attachAxis(axisX);
        series->attachAxis(axisY);
        const QString name = p.name;
        connect(series, &QScatterSeries::hovered, this, [name](const QPointF& pt, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(),
                                   QStringLiteral("%1\n%2 FLOP/byte\n%3")
                                       .arg(name, QString::number(pt.x(), 'g', 3), formatGflops(pt.y())));
            else
                QToolTip::hideText();
        });
        ++colour;
        ++m_points;
    }
    chart->setTitle(
        tr("Roofline — %1-bound").arg(roof.bound.empty() ? tr("memory") : QString::fromStdString(roof.bound)));
    return true;
}

BaselineChart::BaselineChart(QWidget* parent) : QChartView(parent)
{
    makeChart(this)->setTitle(tr("Run a kernel to compare it with the baselines."));
    setMinimumSize(200, 110); // a small dock scales the chart down; it never sets the window's height
}

bool BaselineChart::setReports(const QList<NamedReport>& reports)
{
    QChart* chart = makeChart(this);
    m_bars = 0;
    if (reports.isEmpty() || !reports.first().second.timing) {
        showMessage(chart, tr("No timing in this run: nothing to compare yet."));
        return false;
    }
    struct Entry
    {
        QString name;
        double ms;
        double bytes;
    };
    QList<Entry> entries;
    auto bytesOf = [](const report::RunReport& report) {
        return report.traffic ? report::bytesMoved(*report.traffic) : 0.0;
    };
    for (const NamedReport& r : reports) {
        if (r.second.timing)
            entries.append({r.first, r.second.timing->medianMs, bytesOf(r.second)});
    }
    for (const report::BaselineInfo& b : reports.first().second.baselines)
        entries.append({QString::fromStdString(b.name), b.medianMs, report::bytesMoved(b)});
    const std::optional<report::TrafficInfo>& traffic = reports.first().second.traffic;
    const double ideal = traffic ? traffic->idealBytes.value_or(0) : 0.0;

    // One axis for both sets: each kernel's time and bytes relative to the learner's (= 1). Hover shows absolutes.
    const double ms0 = entries.isEmpty() ? 0.0 : entries.first().ms;
    const double bytes0 = entries.isEmpty() ? 0.0 : entries.first().bytes;
    auto* timeSet = new QBarSet(tr("time (yours = 1)"));
    auto* bytesSet = new QBarSet(tr("DRAM bytes (yours = 1)"));
    timeSet->setColor(kSeriesColors[0]);
    bytesSet->setColor(kSeriesColors[4]);
    QStringList categories;
    double maxRatio = 1.0;
    for (const Entry& e : entries) {
        categories << e.name;
        const double t = ms0 > 0 ? e.ms / ms0 : 0.0;
        const double b = bytes0 > 0 ? e.bytes / bytes0 : 0.0;
        *timeSet << t;
        *bytesSet << b;
        maxRatio = std::max({maxRatio, t, b});
    }
    m_bars = static_cast<int>(entries.size());
    auto* series = new QBarSeries;
    series->append(timeSet);
    if (bytes0 > 0)
        series->append(bytesSet);
    else
        delete bytesSet;
    chart->addSeries(series);
    auto* axisX = new QBarCategoryAxis;
    axisX->append(categories);
    auto* axisY = new QValueAxis;
    axisY->setTitleText(tr("relative to your kernel"));
    axisY->setRange(0, maxRatio * 1.15);
    styleAxis(axisX, palette());
    styleAxis(axisY, palette());
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    if (ideal > 0 && bytes0 > 0) {
        auto* idealLine = new QLineSeries;
        idealLine->setName(tr("ideal bytes (%1)").arg(formatBytes(ideal)));
        auto* axisLine = new QValueAxis;
        axisLine->setRange(0, 1);
        axisLine->setVisible(false);
        chart->addAxis(axisLine, Qt::AlignTop);
        idealLine->append(0, ideal / bytes0);
        idealLine->append(1, ideal / bytes0);
        QPen pen(kSeriesColors[4]);
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        idealLine->setPen(pen);
        chart->addSeries(idealLine);
        idealLine->attachAxis(axisLine);
        idealLine->attachAxis(axisY);
    }
    const QList<Entry> copy = entries;
    connect(series, &QBarSeries::hovered, this, [copy, timeSet](bool status, int index, QBarSet* set) {
        if (!status || index < 0 || index >= copy.size()) {
            QToolTip::hideText();
            return;
        }
        const Entry& e = copy[index];
        QToolTip::showText(QCursor::pos(), set == timeSet
                                               ? QStringLiteral("%1\n%2").arg(e.name, formatMs(e.ms))
                                               : QStringLiteral("%1\n%2 moved").arg(e.name, formatBytes(e.bytes)));
    });
    chart->setTitle(tr("Time and DRAM bytes against the baselines"));
    return true;
}

} // namespace tkm::app
