#include "app/activities/diagrams/diagrams.h"

#include <QPainter>

#include <algorithm>

namespace tkm::app {

QString TableDiagram::describe() const
{
  QStringList rows;
  const nlohmann::json values = state().value("values", nlohmann::json::object());
  for (const auto &[key, value] : values.items())
    rows << QString::fromStdString(key) + QStringLiteral(" = ") + jsonText(value);
  return rows.join(QLatin1Char('\n'));
}

void TableDiagram::paintEvent(QPaintEvent *)
{
  QPainter p(this);
  const QRectF area = beginPaint(p);
  const QColor text = palette().color(QPalette::Text);
  const auto values = state().value("values", nlohmann::json::object());
  const nlohmann::json *prev = previousState();
  const auto prevValues = prev ? prev->value("values", nlohmann::json::object()) : nlohmann::json::object();
  QFont bold = font();
  bold.setBold(true);
  QFont big = font();
  big.setPointSizeF(big.pointSizeF() * 1.15);
  const int rows = std::max(1, static_cast<int>(values.size()));
  const double rowH = std::min(44.0, area.height() / rows);
  double nameW = 120;
  p.setFont(bold);
  for (const auto &[key, value] : values.items())
    nameW = std::max(nameW, p.fontMetrics().horizontalAdvance(QString::fromStdString(key)) + 24.0);
  nameW = std::min(nameW, area.width() * 0.4);
  double y = area.top();
  int index = 0;
  for (const auto &[key, value] : values.items()) {
    const QRectF row(area.left(), y, area.width(), rowH - 4);
    const bool changed = !prevValues.contains(key) || prevValues.at(key) != value;
    QColor fill = boxFill();
    if (changed && prev) {
      QColor glow = accent();
      glow.setAlphaF(0.12 + 0.3 * (1.0 - progress()));
      fill = glow;
    } else if (index % 2) {
      fill = palette().color(QPalette::AlternateBase);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRoundedRect(row, 4, 4);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(row.adjusted(10, 0, 0, 0).intersected(QRectF(row.left() + 10, row.top(), nameW, row.height())),
               Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(key));
    p.setFont(big);
    p.drawText(QRectF(row.left() + nameW + 10, row.top(), row.width() - nameW - 20, row.height()),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, jsonText(value));
    y += rowH;
    ++index;
  }
}

} // namespace tkm::app
