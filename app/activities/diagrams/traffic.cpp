#include "app/activities/diagrams/diagrams.h"

#include "app/common/format.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace tkm::app {

void TrafficDiagram::stepChanged()
{
    m_lanes.clear();
    m_maxTotal = 1.0;
    for (const auto& s : states()) {
        const QString lane = s.contains("lane") ? jsonText(s.at("lane")) : tr("kernel");
        if (!m_lanes.contains(lane))
            m_lanes.append(lane);
        m_maxTotal = std::max(m_maxTotal, jsonField(s, "read_bytes") + jsonField(s, "written_bytes"));
    }
}

QPair<double, double> TrafficDiagram::laneTotals(const QString& lane) const
{
    // The latest state of this lane at or before the current step holds its running totals.
    for (int i = current(); i >= 0; --i) {
        const auto& s = states()[static_cast<size_t>(i)];
        const QString l = s.contains("lane") ? jsonText(s.at("lane")) : tr("kernel");
        if (l == lane)
            return {jsonField(s, "read_bytes"), jsonField(s, "written_bytes")};
    }
    return {0.0, 0.0};
}

QString TrafficDiagram::describe() const
{
    QStringList parts;
    for (const auto& t : state().value("transfers", nlohmann::json::array()))
        parts << tr("%1 → %2: %3 (%4)")
                     .arg(jsonText(t.value("from", nlohmann::json())), jsonText(t.value("to", nlohmann::json())),
                          jsonText(t.value("label", nlohmann::json(""))), formatBytes(jsonField(t, "bytes")));
    for (const QString& lane : m_lanes) {
        const auto [read, written] = laneTotals(lane);
        parts << tr("%1: read %2, written %3").arg(lane, formatBytes(read), formatBytes(written));
    }
    return parts.join(QLatin1Char('\n'));
}

void TrafficDiagram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRectF area = beginPaint(p);
    const QColor text = palette().color(QPalette::Text);
    const double counterHeight = 34.0 * std::max<qsizetype>(1, m_lanes.size()) + 10;
    const QRectF top(area.left(), area.top(), area.width(), area.height() - counterHeight - 8);
    const double boxW = std::min(180.0, top.width() * 0.26);
    const QRectF hbm(top.left(), top.top() + 24, boxW, top.height() - 24);
    const QRectF sram(top.right() - boxW, top.top() + 24, boxW, top.height() - 24);

    // Lane badge.
    const QString lane = state().contains("lane") ? jsonText(state().at("lane")) : QString();
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    if (!lane.isEmpty()) {
        p.setPen(accent());
        p.drawText(QRectF(top.left(), top.top(), top.width(), 20), Qt::AlignHCenter | Qt::AlignTop,
                   tr("%1 kernel").arg(lane).toUpper());
    }
    // The two memories.
    auto drawMemory = [&](const QRectF& r, const QString& title, const QString& sub, const QColor& edge) {
        p.setPen(QPen(edge, 2));
        p.setBrush(boxFill());
        p.drawRoundedRect(r, 8, 8);
        p.setPen(text);
        p.setFont(bold);
        p.drawText(r.adjusted(6, 10, -6, 0), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, title);
        p.setFont(font());
        p.setPen(muted());
        p.drawText(r.adjusted(6, 34, -6, 0), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, sub);
    };
    drawMemory(hbm, tr("HBM (DRAM)"), tr("off chip · ~4.8 TB/s"), accent());
    drawMemory(sram, tr("SRAM / registers"), tr("on chip · per SM"), accent2());

    // Transfers as arrows between the boxes; a packet travels along each as the step animates.
    const auto transfers = state().value("transfers", nlohmann::json::array());
    const int count = static_cast<int>(transfers.size());
    const double x0 = hbm.right() + 8, x1 = sram.left() - 8;
    const double band = (hbm.height() - 60) / std::max(count, 1);
    for (int i = 0; i < count; ++i) {
        const auto& t = transfers[static_cast<size_t>(i)];
        const bool toChip = jsonText(t.value("from", nlohmann::json("HBM"))).toUpper() == QLatin1String("HBM");
        const double y = hbm.top() + 60 + band * (i + 0.5);
        const QColor colour = toChip ? accent() : accent2();
        p.setPen(QPen(colour, 2.5));
        const double from = toChip ? x0 : x1, to = toChip ? x1 : x0;
        p.drawLine(QPointF(from, y), QPointF(to, y));
        const double dir = toChip ? 1.0 : -1.0;
        QPainterPath head;
        head.moveTo(to, y);
        head.lineTo(to - dir * 10, y - 6);
        head.lineTo(to - dir * 10, y + 6);
        head.closeSubpath();
        p.fillPath(head, colour);
        const double px = from + (to - from) * eased();
        p.setBrush(colour);
        p.setPen(Qt::NoPen);
        p.drawRoundedRect(QRectF(px - 9, y - 6, 18, 12), 3, 3);
        p.setPen(text);
        p.drawText(QRectF(x0, y - 24, x1 - x0, 18), Qt::AlignHCenter | Qt::AlignBottom,
                   QStringLiteral("%1 · %2").arg(jsonText(t.value("label", nlohmann::json(""))),
                                                 formatBytes(jsonField(t, "bytes"))));
    }
    if (count == 0) {
        p.setPen(muted());
        p.drawText(QRectF(x0, hbm.top(), x1 - x0, hbm.height()), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No DRAM traffic in this step: the data stays on chip."));
    }

    // Running counters per lane, bars scaled to the largest total of the whole sequence.
    const nlohmann::json* prev = previousState();
    double y = area.bottom() - counterHeight + 6;
    for (const QString& l : m_lanes) {
        auto [read, written] = laneTotals(l);
        const QString curLane = state().contains("lane") ? jsonText(state().at("lane")) : tr("kernel");
        if (prev && l == curLane) {
            const QString prevLane = prev->contains("lane") ? jsonText(prev->at("lane")) : tr("kernel");
            if (prevLane == l) { // animate the counter from the previous value
                read = jsonField(*prev, "read_bytes") + (read - jsonField(*prev, "read_bytes")) * eased();
                written = jsonField(*prev, "written_bytes") + (written - jsonField(*prev, "written_bytes")) * eased();
            }
        }
        const double labelW = 90;
        p.setFont(bold);
        p.setPen(l == curLane ? text : muted());
        p.drawText(QRectF(area.left(), y, labelW, 24), Qt::AlignLeft | Qt::AlignVCenter, l);
        const double barW = area.width() - labelW - 250;
        const double wRead = barW * read / m_maxTotal, wWritten = barW * written / m_maxTotal;
        p.setPen(Qt::NoPen);
        p.setBrush(boxFill());
        p.drawRoundedRect(QRectF(area.left() + labelW, y + 4, barW, 16), 3, 3);
        p.setBrush(accent());
        p.drawRect(QRectF(area.left() + labelW, y + 4, wRead, 16));
        p.setBrush(accent2());
        p.drawRect(QRectF(area.left() + labelW + wRead, y + 4, wWritten, 16));
        p.setFont(font());
        p.setPen(text);
        p.drawText(QRectF(area.right() - 245, y, 245, 24), Qt::AlignRight | Qt::AlignVCenter,
                   tr("read %1 · written %2").arg(formatBytes(read), formatBytes(written)));
        y += 34;
    }
}

} // namespace tkm::app
