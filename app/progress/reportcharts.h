#pragma once
// The report's charts, drawn with QPainter into images (the same pixels in the dashboard, the HTML and the PDF):
// scores per module, and one exercise's best time and DRAM bytes against the solution and the baselines.

#include "app/progress/reportdata.h"

#include <QImage>
#include <QSize>

namespace tkm::app {

/// Horizontal bars per module: completion and quiz accuracy [%]. White background, `size` in pixels.
QImage renderScoresChart(const ReportData& data, QSize size = QSize(1200, 640));

/// Two bar groups for one exercise: median time [ms] and DRAM bytes of the best run beside the solution and the
/// baselines, `size.width()` wide and as tall as the bars need (at most `size.height()`). A null image when the
/// exercise has no passing run.
QImage renderExerciseChart(const ExerciseRow& exercise, QSize size = QSize(1200, 420));

} // namespace tkm::app
