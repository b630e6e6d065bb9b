#include "app/activities/diagrams/diagrams.h"

#include <QPainter>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace tkm::app {

QPair<int, int> TileGridDiagram::gridSize() const
{
  return {std::max(1, static_cast<int>(jsonField(state(), "grid_m", 9))),
          std::max(1, static_cast<int>(jsonField(state(), "grid_n", 9)))};
}

int TileGridDiagram::kTiles() const
{
  const int k = static_cast<int>(jsonField(params(), "k_tiles", 0));
  return k > 0 ? k : gridSize().first;
}

void TileGridDiagram::setGroupSizeM(int groupSizeM)
{
  m_groupOverride = std::max(0, groupSizeM);
  update();
}

int TileGridDiagram::groupSizeM() const
{
  return m_groupOverride > 0 ? m_groupOverride : std::max(1, static_cast<int>(jsonField(state(), "group_size_m", 1)));
}

QList<QPoint> TileGridDiagram::computedTiles() const
{
  QList<QPoint> tiles;
  const auto computed = state().value("computed", nlohmann::json::array());
  const int stateGroup = std::max(1, static_cast<int>(jsonField(state(), "group_size_m", 1)));
  if (m_groupOverride == 0 || m_groupOverride == stateGroup) {
    for (const auto &rc : computed)
      if (rc.is_array() && rc.size() == 2)
        tiles.append(QPoint(static_cast<int>(jsonNumber(rc[1])), static_cast<int>(jsonNumber(rc[0]))));
    return tiles;
  }
  // The learner changed GROUP_SIZE_M: the same number of programs, in the new order.
  const auto [gm, gn] = gridSize();
  for (int pid = 0; pid < static_cast<int>(computed.size()) && pid < gm * gn; ++pid)
    tiles.append(groupedTile(pid, gm, gn, m_groupOverride));
  return tiles;
}

QPair<int, int> TileGridDiagram::loads() const
{
  QSet<int> rows, cols;
  for (const QPoint &t : computedTiles()) {
    rows.insert(t.y());
    cols.insert(t.x());
  }
  return {static_cast<int>(rows.size()) * kTiles(), static_cast<int>(cols.size()) * kTiles()};
}

QString TileGridDiagram::describe() const
{
  const auto [a, b] = loads();
  const auto [gm, gn] = gridSize();
  return tr("%1×%2 C tiles, GROUP_SIZE_M = %3: %4 computed, A tile loads %5, B tile loads %6, total %7")
      .arg(gm)
      .arg(gn)
      .arg(groupSizeM())
      .arg(computedTiles().size())
      .arg(a)
      .arg(b)
      .arg(a + b);
}

void TileGridDiagram::paintEvent(QPaintEvent *)
{
  QPainter p(this);
  const QRectF area = beginPaint(p);
  const QColor text = palette().color(QPalette::Text);
  QFont bold = font();
  bold.setBold(true);
  const auto [gm, gn] = gridSize();
  const QList<QPoint> tiles = computedTiles();
  QSet<int> rows, cols;
  for (const QPoint &t : tiles) {
    rows.insert(t.y());
    cols.insert(t.x());
  }
  // Layout: B panels on top, A panels on the left, C grid; counts on the right.
  const double countsW = std::min(260.0, area.width() * 0.32);
  const double avail = std::min(area.width() - countsW - 40, area.height() - 10);
  const double cell = std::floor(avail / (std::max(gm, gn) + 1.4));
  const QPointF origin(area.left() + cell * 1.4, area.top() + cell * 1.4);
  auto tileRect = [&](int row, int col) { return QRectF(origin.x() + col * cell, origin.y() + row * cell, cell - 2, cell - 2); };

  QColor aFill = accent(), bFill = accent2();
  p.setFont(font());
  for (int r = 0; r < gm; ++r) { // A row panels
    const QRectF rr(area.left(), origin.y() + r * cell, cell, cell - 2);
    p.setPen(Qt::NoPen);
    p.setBrush(rows.contains(r) ? aFill : boxFill());
    p.drawRoundedRect(rr, 2, 2);
  }
  for (int c = 0; c < gn; ++c) { // B column panels
    const QRectF cr(origin.x() + c * cell, area.top(), cell - 2, cell);
    p.setPen(Qt::NoPen);
    p.setBrush(cols.contains(c) ? bFill : boxFill());
    p.drawRoundedRect(cr, 2, 2);
  }
  p.setPen(muted());
  p.drawText(QRectF(area.left(), area.top(), cell * 1.3, cell * 1.3), Qt::AlignCenter, QStringLiteral("A \\ B"));

  QHash<QPair<int, int>, int> order;
  for (int i = 0; i < tiles.size(); ++i)
    order.insert({tiles[i].y(), tiles[i].x()}, i);
  const int newest = static_cast<int>(tiles.size()) - 1;
  for (int r = 0; r < gm; ++r) {
    for (int c = 0; c < gn; ++c) {
      const QRectF t = tileRect(r, c);
      const auto it = order.constFind({r, c});
      if (it == order.constEnd()) {
        p.setPen(QPen(muted(), 0.8));
        p.setBrush(Qt::NoBrush);
        p.drawRect(t);
        continue;
      }
      QColor fill = text;
      fill.setAlphaF(it.value() == newest ? 0.25 + 0.55 * eased() : 0.8);
      p.setPen(Qt::NoPen);
      p.setBrush(fill);
      p.drawRect(t);
      p.setPen(palette().color(QPalette::Base));
      if (cell > 18)
        p.drawText(t, Qt::AlignCenter, QString::number(it.value()));
    }
  }
  // Counts.
  const auto [a, b] = loads();
  const int k = kTiles();
  const QRectF counts(area.right() - countsW, area.top(), countsW, area.height());
  double y = counts.top();
  auto put = [&](const QString &s, const QColor &c, bool isBold) {
    p.setFont(isBold ? bold : font());
    p.setPen(c);
    const QRectF r(counts.left(), y, counts.width(), 60);
    const QRectF used = p.boundingRect(r, Qt::AlignLeft | Qt::TextWordWrap, s);
    p.drawText(r, Qt::AlignLeft | Qt::TextWordWrap, s);
    y += used.height() + 6;
  };
  put(tr("GROUP_SIZE_M = %1").arg(groupSizeM()), text, true);
  put(tr("%n C tile(s) computed (numbers: program order)", nullptr, static_cast<int>(tiles.size())), text, false);
  put(tr("A tiles loaded: %1 (%2 row panels × %3)").arg(a).arg(rows.size()).arg(k), accent(), true);
  put(tr("B tiles loaded: %1 (%2 column panels × %3)").arg(b).arg(cols.size()).arg(k), accent2(), true);
  put(tr("Total: %1 tile loads").arg(a + b), text, true);
  if (tiles.size() >= 4) {
    const int n = static_cast<int>(tiles.size());
    const auto [a1, b1] = groupedLoads(n, gm, gn, 1, k);
    const int best = std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(n)))));
    const auto [ag, bg] = groupedLoads(n, gm, gn, best, k);
    put(tr("Row-major (GROUP_SIZE_M = 1) would load %1; GROUP_SIZE_M = %2 loads %3.").arg(a1 + b1).arg(best).arg(ag + bg),
        muted(), false);
  }
}

} // namespace tkm::app
