#include "app/activities/diagrams/diagrams.h"

#include "app/common/theme.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tkm::app {

namespace {
void flatten(const nlohmann::json& value, QList<double>& out)
{
    if (value.is_array())
        for (const auto& v : value)
            flatten(v, out);
    else
        out.append(jsonNumber(value, std::nan("")));
}

/// The numbers of a field (a number, or an array of numbers or of rows of numbers, flattened).
QList<double> numbers(const nlohmann::json& state, const char* key)
{
    QList<double> out;
    if (state.is_object() && state.contains(key))
        flatten(state.at(key), out);
    return out;
}

QString fmt(double v)
{
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    if (std::isnan(v))
        return QStringLiteral("—");
    return QString::number(v, 'g', 4);
}

QString list(const QList<double>& values)
{
    QStringList parts;
    for (double v : values)
        parts << fmt(v);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}
} // namespace

QList<double> OnlineSoftmaxDiagram::tileValues() const
{
    // params: "values" of every key in order, "tile_size" keys a tile; the state names its tile.
    const QList<double> all = numbers(params(), "values");
    const int size = static_cast<int>(jsonField(params(), "tile_size", 0));
    const int tile = static_cast<int>(jsonField(state(), "tile", current()));
    if (size <= 0 || tile < 0 || (tile + 1) * size > all.size())
        return {};
    return all.mid(tile * size, size);
}

bool OnlineSoftmaxDiagram::matchesFull() const
{
    const QList<double> full = numbers(state(), "full");
    const QList<double> acc = numbers(state(), "acc");
    if (full.isEmpty() || acc.size() != full.size())
        return false;
    const double l = jsonField(state(), "l", 1.0);
    auto close = [](const QList<double>& a, const QList<double>& b) {
        for (int i = 0; i < a.size(); ++i)
            if (!(std::abs(a[i] - b[i]) <= 1e-4 * std::max(1.0, std::abs(b[i]))))
                return false;
        return true;
    };
    QList<double> normalised;
    for (double a : acc)
        normalised.append(l != 0.0 ? a / l : a);
    return close(normalised, full) || close(acc, full);
}

QString OnlineSoftmaxDiagram::describe() const
{
    QString text = tr("tile %1: scores %2; m = %3, l = %4, acc = %5")
                       .arg(jsonText(state().value("tile", nlohmann::json(current()))),
                            list(numbers(state(), "scores")) +
                                (tileValues().isEmpty() ? QString() : tr(", values %1").arg(list(tileValues()))),
                            fmt(jsonField(state(), "m", std::nan(""))),
                            fmt(jsonField(state(), "l", std::nan(""))), list(numbers(state(), "acc")));
    if (state().contains("full"))
        text += tr("; full softmax %1 — %2")
                    .arg(list(numbers(state(), "full")), matchesFull() ? tr("equal") : tr("not equal"));
    return text;
}

void OnlineSoftmaxDiagram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRectF area = beginPaint(p);
    const QColor text = palette().color(QPalette::Text);
    QFont bold = font();
    bold.setBold(true);
    const nlohmann::json* prev = previousState();

    // Left: the scores of this tile as bars around zero.
    const QList<double> scores = numbers(state(), "scores");
    const QRectF bars(area.left(), area.top() + 24, area.width() * 0.38, area.height() - 40);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(QRectF(bars.left(), area.top(), bars.width(), 20), Qt::AlignLeft,
               tr("Scores of tile %1").arg(jsonText(state().value("tile", nlohmann::json(current())))));
    double maxAbs = 1e-9;
    for (const auto& s : states())
        for (double v : numbers(s, "scores"))
            if (std::isfinite(v))
                maxAbs = std::max(maxAbs, std::abs(v));
    const double zeroY = bars.center().y();
    p.setPen(QPen(muted(), 1));
    p.drawLine(QPointF(bars.left(), zeroY), QPointF(bars.right(), zeroY));
    const int n = static_cast<int>(scores.size());
    const double slot = bars.width() / std::max(n, 1);
    const double m = jsonField(state(), "m", std::nan(""));
    p.setFont(font());
    for (int i = 0; i < n; ++i) {
        const double v = std::isfinite(scores[i]) ? scores[i] : 0.0;
        const double h = (bars.height() / 2 - 20) * v / maxAbs * eased();
        const QRectF r(bars.left() + slot * i + slot * 0.15, h >= 0 ? zeroY - h : zeroY, slot * 0.7, std::abs(h));
        const bool isMax = std::isfinite(m) && std::abs(scores[i] - m) < 1e-12;
        p.fillRect(r, isMax ? accent2() : accent());
        p.setPen(text);
        p.drawText(QRectF(r.left() - 10, v >= 0 ? r.top() - 18 : r.bottom() + 2, r.width() + 20, 16), Qt::AlignCenter,
                   fmt(scores[i]));
    }
    // The value row of each key under its score: acc sums p · v, so the step's arithmetic can be followed.
    const QList<double> values = tileValues();
    if (values.size() == n) {
        p.setPen(text);
        for (int i = 0; i < n; ++i)
            p.drawText(QRectF(bars.left() + slot * i, bars.bottom(), slot, 16), Qt::AlignCenter,
                       QStringLiteral("v = %1").arg(fmt(values[i])));
    }

    // Right: the running statistics before → after.
    const QRectF table(bars.right() + 30, area.top(), area.right() - bars.right() - 30, area.height());
    double y = table.top();
    auto line = [&](const QString& name, const QString& before, const QString& after, bool changed) {
        p.setFont(bold);
        p.setPen(text);
        p.drawText(QRectF(table.left(), y, 70, 24), Qt::AlignLeft | Qt::AlignVCenter, name);
        p.setFont(font());
        p.setPen(muted());
        if (!before.isEmpty())
            p.drawText(QRectF(table.left() + 70, y, table.width() * 0.4, 24), Qt::AlignLeft | Qt::AlignVCenter,
                       before + QStringLiteral("  →"));
        const QRectF cell(table.left() + 70 + table.width() * 0.4, y, table.width() * 0.6 - 70, 24);
        if (changed) {
            QColor glow = accent();
            glow.setAlphaF(0.25 * (1.0 - progress()) + 0.12);
            p.fillRect(cell.adjusted(-4, 1, 0, -1), glow);
        }
        p.setPen(text);
        p.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter, after);
        y += 30;
    };
    p.setFont(bold);
    p.drawText(QRectF(table.left(), y, table.width(), 20), Qt::AlignLeft, tr("Running statistics"));
    y += 28;
    const double mPrev = prev ? jsonField(*prev, "m", std::nan("")) : std::nan("");
    const double lPrev = prev ? jsonField(*prev, "l", std::nan("")) : std::nan("");
    const QList<double> accPrev = prev ? numbers(*prev, "acc") : QList<double>();
    line(QStringLiteral("m_i"), prev ? fmt(mPrev) : QString(), fmt(m), !prev || fmt(mPrev) != fmt(m));
    line(QStringLiteral("l_i"), prev ? fmt(lPrev) : QString(), fmt(jsonField(state(), "l", std::nan(""))), true);
    line(QStringLiteral("acc"), prev ? list(accPrev) : QString(), list(numbers(state(), "acc")), true);
    if (prev && std::isfinite(mPrev) && std::isfinite(m) && mPrev != m) {
        p.setPen(accent2());
        p.drawText(QRectF(table.left(), y, table.width(), 40), Qt::AlignLeft | Qt::TextWordWrap,
                   tr("The max grew: l and acc were rescaled by exp(m_old − m_new) = %1 before adding this tile.")
                       .arg(fmt(std::exp(mPrev - m))));
        y += 44;
    }
    if (state().contains("full")) {
        const bool ok = matchesFull();
        p.setPen(text);
        p.drawText(QRectF(table.left(), y, table.width(), 22), Qt::AlignLeft,
                   tr("full softmax: %1").arg(list(numbers(state(), "full"))));
        y += 24;
        p.setFont(bold);
        p.setPen(toneColor(ok ? Tone::Good : Tone::Wrong, palette()));
        p.drawText(QRectF(table.left(), y, table.width(), 40), Qt::AlignLeft | Qt::TextWordWrap,
                   ok ? tr("✓ acc / l equals the full softmax: one pass, same answer.")
                      : tr("✗ not equal to the full softmax yet."));
    }
}

} // namespace tkm::app
