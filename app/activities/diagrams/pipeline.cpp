#include "app/activities/diagrams/diagrams.h"

#include "app/editor/syntaxtheme.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace tkm::app {

namespace {
QStringList stageNames(const nlohmann::json &state)
{
  QStringList names;
  for (const auto &s : state.value("stages", nlohmann::json::array()))
    names << jsonText(s);
  return names;
}
} // namespace

QString PipelineDiagram::describe() const
{
  const QStringList names = stageNames(state());
  const int active = static_cast<int>(jsonField(state(), "active", 0));
  QString text = tr("stage %1 of %2").arg(active + 1).arg(names.size());
  if (active >= 0 && active < names.size())
    text += QStringLiteral(": ") + names[active];
  if (state().contains("artifact"))
    text += QLatin1Char('\n') + jsonText(state().at("artifact"));
  return text;
}

void PipelineDiagram::paintEvent(QPaintEvent *)
{
  QPainter p(this);
  const QRectF area = beginPaint(p);
  const QColor text = palette().color(QPalette::Text);
  const QStringList names = stageNames(state());
  const int active = static_cast<int>(jsonField(state(), "active", 0));
  const int prevActive = previousState() ? static_cast<int>(jsonField(*previousState(), "active", active)) : active;
  const int n = std::max(1, static_cast<int>(names.size()));
  // Two rows when many stages would make the boxes too narrow.
  const int perRow = area.width() / n < 110 ? (n + 1) / 2 : n;
  const int rowsUsed = (n + perRow - 1) / perRow;
  const double gap = 22;
  const double boxW = (area.width() - gap * (perRow - 1)) / perRow;
  const double boxH = 58;
  QFont bold = font();
  bold.setBold(true);
  auto boxRect = [&](int i) {
    const int row = i / perRow, col = i % perRow;
    return QRectF(area.left() + col * (boxW + gap), area.top() + 8 + row * (boxH + 30), boxW, boxH);
  };
  for (int i = 0; i < names.size(); ++i) {
    const QRectF r = boxRect(i);
    if (i + 1 < names.size()) { // arrow to the next stage
      const QRectF next = boxRect(i + 1);
      p.setPen(QPen(muted(), 1.5));
      if (next.top() == r.top()) {
        p.drawLine(QPointF(r.right() + 3, r.center().y()), QPointF(next.left() - 4, r.center().y()));
        QPainterPath head;
        head.moveTo(next.left() - 3, r.center().y());
        head.lineTo(next.left() - 10, r.center().y() - 5);
        head.lineTo(next.left() - 10, r.center().y() + 5);
        head.closeSubpath();
        p.fillPath(head, muted());
      } else {
        QPainterPath bend;
        bend.moveTo(r.center().x(), r.bottom() + 2);
        bend.lineTo(r.center().x(), r.bottom() + 14);
        bend.lineTo(next.center().x(), r.bottom() + 14);
        bend.lineTo(next.center().x(), next.top() - 3);
        p.setBrush(Qt::NoBrush);
        p.drawPath(bend);
      }
    }
    const bool isActive = i == active;
    const bool done = i < active;
    QColor fill = boxFill();
    if (isActive) {
      fill = accent();
      // Fade in from the previous active stage.
      fill.setAlphaF(prevActive == active ? 1.0 : 0.35 + 0.65 * eased());
    }
    p.setPen(QPen(isActive ? accent() : muted(), isActive ? 2 : 1));
    p.setBrush(fill);
    p.drawRoundedRect(r, 7, 7);
    p.setFont(isActive ? bold : font());
    p.setPen(isActive ? QColor(Qt::white) : (done ? text : muted()));
    p.drawText(r.adjusted(6, 4, -6, -4), Qt::AlignCenter | Qt::TextWordWrap,
               (done ? QStringLiteral("✓ ") : QString()) + names[i]);
  }
  // The artifact of the active stage.
  if (state().contains("artifact")) {
    const double top = area.top() + 8 + rowsUsed * (boxH + 30) + 4;
    const QRectF box(area.left(), top, area.width(), area.bottom() - top);
    if (box.height() > 30) {
      p.setPen(QPen(muted(), 1));
      p.setBrush(syntaxColors(palette()).margin);
      p.drawRoundedRect(box, 6, 6);
      p.setFont(codeFont());
      QColor ink = text;
      ink.setAlphaF(0.3 + 0.7 * eased());
      p.setPen(ink);
      p.drawText(box.adjusted(12, 10, -12, -10), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                 jsonText(state().at("artifact")));
    }
  }
}

} // namespace tkm::app
