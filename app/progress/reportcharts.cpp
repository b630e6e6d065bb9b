#include "app/progress/reportcharts.h"

#include "app/common/format.h"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace tkm::app {
namespace {

const QColor kCompletion(0x2b, 0x6c, 0xb0); // blue
const QColor kAccuracy(0xe0, 0x8a, 0x1e);   // orange
const QColor kLearner(0x2b, 0x6c, 0xb0);
const QColor kSolution(0x3a, 0x9a, 0x4a); // green
const QColor kBaseline(0x8a, 0x8a, 0x8a); // grey
const QColor kGrid(0xdd, 0xdd, 0xdd);

QImage blankImage(QSize size)
{
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    return image;
}

QFont chartFont(int pixels, bool bold = false)
{
    QFont font(QStringLiteral("Sans Serif"));
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

void drawLegend(QPainter& p, QPoint at, const QList<QPair<QString, QColor>>& entries)
{
    p.setFont(chartFont(20));
    const QFontMetrics fm(p.font());
    int x = at.x();
    for (const auto& [label, colour] : entries) {
        p.fillRect(QRect(x, at.y() - 14, 18, 18), colour);
        p.setPen(Qt::black);
        p.drawText(x + 26, at.y() + 2, label);
        x += 26 + fm.horizontalAdvance(label) + 36;
    }
}

/// One labelled value for the bar groups of the exercise chart.
struct Bar
{
    QString label;
    double value = 0.0;
    QColor colour;
};

// Draws horizontal bars scaled to the largest value inside `area`, with the group title above.
void drawBarGroup(QPainter& p, QRect area, const QString& title, const QList<Bar>& bars, QString (*format)(double))
{
    p.setFont(chartFont(22, true));
    p.setPen(Qt::black);
    p.drawText(area.left(), area.top() + 22, title);
    if (bars.isEmpty())
        return;
    double max = 0.0;
    for (const Bar& b : bars)
        max = std::max(max, b.value);
    const int labelWidth = 170;
    const int valueWidth = 130;
    const int top = area.top() + 40;
    const int rowHeight = std::min(44, (area.bottom() - top) / static_cast<int>(bars.size()));
    const int barSpace = area.width() - labelWidth - valueWidth;
    p.setFont(chartFont(19));
    for (int i = 0; i < bars.size(); ++i) {
        const Bar& b = bars[i];
        const int y = top + i * rowHeight;
        p.setPen(Qt::black);
        p.drawText(QRect(area.left(), y, labelWidth - 10, rowHeight - 8), Qt::AlignRight | Qt::AlignVCenter, b.label);
        const int w = max > 0 ? static_cast<int>(barSpace * b.value / max) : 0;
        p.fillRect(QRect(area.left() + labelWidth, y + 4, std::max(w, 2), rowHeight - 16), b.colour);
        p.drawText(QRect(area.left() + labelWidth + w + 8, y, valueWidth, rowHeight - 8), Qt::AlignVCenter,
                   format(b.value));
    }
}

} // namespace

QImage renderScoresChart(const ReportData& data, QSize size)
{
    QImage image = blankImage(size);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(chartFont(26, true));
    p.setPen(Qt::black);
    p.drawText(24, 40, QCoreApplication::translate("tkm::app::ReportCharts", "Scores per module"));
    drawLegend(p, QPoint(24, 80),
               {{QCoreApplication::translate("tkm::app::ReportCharts", "Completion"), kCompletion},
                {QCoreApplication::translate("tkm::app::ReportCharts", "Quiz accuracy"), kAccuracy}});
    const int labelWidth = 340;
    const QRect plot(labelWidth + 24, 110, size.width() - labelWidth - 110, size.height() - 160);
    // Grid at 0, 25, 50, 75, 100 %.
    p.setFont(chartFont(18));
    for (int pct = 0; pct <= 100; pct += 25) {
        const int x = plot.left() + plot.width() * pct / 100;
        p.setPen(kGrid);
        p.drawLine(x, plot.top(), x, plot.bottom());
        p.setPen(Qt::darkGray);
        p.drawText(QRect(x - 40, plot.bottom() + 6, 80, 24), Qt::AlignHCenter, QStringLiteral("%1 %").arg(pct));
    }
    const int n = std::max<int>(1, static_cast<int>(data.modules.size()));
    const int rowHeight = plot.height() / n;
    const int barHeight = std::max(4, std::min(22, (rowHeight - 10) / 2));
    for (int i = 0; i < static_cast<int>(data.modules.size()); ++i) {
        const auto& m = data.modules[static_cast<size_t>(i)];
        const int y = plot.top() + i * rowHeight + (rowHeight - 2 * barHeight) / 2;
        p.setPen(Qt::black);
        p.setFont(chartFont(19));
        const QString label =
            QFontMetrics(p.font()).elidedText(QString::fromStdString(m.title), Qt::ElideRight, labelWidth - 10);
        p.drawText(QRect(14, y, labelWidth, 2 * barHeight), Qt::AlignRight | Qt::AlignVCenter, label);
        const int wc = static_cast<int>(plot.width() * m.fraction());
        p.fillRect(QRect(plot.left(), y, std::max(wc, 2), barHeight), kCompletion);
        if (const auto acc = m.quizAccuracy()) {
            const int wa = static_cast<int>(plot.width() * *acc);
            p.fillRect(QRect(plot.left(), y + barHeight, std::max(wa, 2), barHeight), kAccuracy);
        }
    }
    p.end();
    return image;
}

QImage renderExerciseChart(const ExerciseRow& exercise, QSize size)
{
    if (!exercise.best || !exercise.best->medianMs)
        return {};
    QImage image;
    QPainter p;
    const QString you = QCoreApplication::translate("tkm::app::ReportCharts", "Your best");
    const QString solution = QCoreApplication::translate("tkm::app::ReportCharts", "Solution");
    QList<Bar> times{{you, *exercise.best->medianMs, kLearner}};
    QList<Bar> bytes;
    if (exercise.best->dramReadBytes && exercise.best->storedBytes)
        bytes.append({you, static_cast<double>(*exercise.best->dramReadBytes + *exercise.best->storedBytes), kLearner});
    if (exercise.solution) {
        times.append({solution, exercise.solution->medianMs, kSolution});
        if (exercise.solution->dramBytes)
            bytes.append({solution, *exercise.solution->dramBytes, kSolution});
    }
    if (exercise.best->idealBytes)
        bytes.append({QCoreApplication::translate("tkm::app::ReportCharts", "Ideal"),
                      static_cast<double>(*exercise.best->idealBytes), kBaseline.lighter(130)});
    for (const BaselineFigures& b : exercise.baselines) {
        times.append({b.name, b.medianMs, kBaseline});
        if (b.dramBytes)
            bytes.append({b.name, *b.dramBytes, kBaseline});
    }
    // As tall as the longer group needs, at most the size asked for.
    const int rows = static_cast<int>(std::max(times.size(), bytes.size()));
    size.setHeight(std::min(size.height(), 110 + rows * 44));
    image = blankImage(size);
    p.begin(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(chartFont(24, true));
    p.setPen(Qt::black);
    p.drawText(20, 34, exercise.title);
    const int half = size.width() / 2;
    drawBarGroup(p, QRect(20, 50, half - 40, size.height() - 60),
                 QCoreApplication::translate("tkm::app::ReportCharts", "Median time"), times, &formatMs);
    drawBarGroup(p, QRect(half + 10, 50, half - 30, size.height() - 60),
                 QCoreApplication::translate("tkm::app::ReportCharts", "DRAM bytes (read + stored)"), bytes,
                 &formatBytes);
    p.end();
    return image;
}

} // namespace tkm::app
