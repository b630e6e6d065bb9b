#include "app/activities/diagrams/diagram.h"

#include "app/activities/diagrams/diagrams.h"
#include "app/common/theme.h"

#include <QPainter>
#include <QSet>

#include "modules/course/model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tkm::app {

DiagramWidget::DiagramWidget(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(480, 280);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setFocusPolicy(Qt::StrongFocus);
}

void DiagramWidget::setSteps(const nlohmann::json& params, const nlohmann::json& states)
{
    m_params = params.is_object() ? params : nlohmann::json::object();
    m_states = states.is_array() ? states : nlohmann::json::array();
    m_current = 0;
    m_progress = 1.0;
    stepChanged();
    update();
}

void DiagramWidget::setCurrent(int index)
{
    m_current = std::clamp(index, 0, std::max(0, static_cast<int>(m_states.size()) - 1));
    m_progress = 0.0;
    stepChanged();
    update();
}

void DiagramWidget::setProgress(double t)
{
    m_progress = std::clamp(t, 0.0, 1.0);
    update();
}

const nlohmann::json& DiagramWidget::state() const
{
    static const nlohmann::json empty = nlohmann::json::object();
    if (m_current < 0 || m_current >= static_cast<int>(m_states.size()))
        return empty;
    return m_states[static_cast<size_t>(m_current)];
}

const nlohmann::json* DiagramWidget::previousState() const
{
    if (m_current <= 0 || m_current > static_cast<int>(m_states.size()))
        return nullptr;
    return &m_states[static_cast<size_t>(m_current - 1)];
}

double DiagramWidget::eased() const
{
    return 1.0 - std::pow(1.0 - m_progress, 3.0);
}

QRectF DiagramWidget::beginPaint(QPainter& painter) const
{
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (hasFocus()) {
        QPen pen(palette().color(QPalette::Highlight));
        pen.setWidthF(1.5);
        painter.setPen(pen);
        painter.drawRect(QRectF(rect()).adjusted(0.75, 0.75, -0.75, -0.75));
    }
    return QRectF(rect()).adjusted(16, 12, -16, -12);
}

QColor DiagramWidget::accent() const
{
    return isDarkPalette(palette()) ? QColor(0x58, 0xa6, 0xff) : QColor(0x09, 0x69, 0xda);
}

QColor DiagramWidget::accent2() const
{
    return isDarkPalette(palette()) ? QColor(0xff, 0xa6, 0x57) : QColor(0xbc, 0x4c, 0x00);
}

QColor DiagramWidget::muted() const
{
    return palette().color(QPalette::PlaceholderText);
}

QColor DiagramWidget::boxFill() const
{
    const QColor base = palette().color(QPalette::Base);
    return isDarkPalette(palette()) ? base.lighter(160) : base.darker(104);
}

double jsonNumber(const nlohmann::json& value, double fallback)
{
    if (value.is_number())
        return value.get<double>();
    if (value.is_string()) {
        const QString text = QString::fromStdString(value.get<std::string>()).trimmed().toLower();
        if (text == QLatin1String("-inf") || text == QStringLiteral("−∞") || text == QLatin1String("-infinity"))
            return -std::numeric_limits<double>::infinity();
        if (text == QLatin1String("inf") || text == QLatin1String("+inf") || text == QStringLiteral("∞"))
            return std::numeric_limits<double>::infinity();
        bool ok = false;
        const double v = text.toDouble(&ok);
        return ok ? v : fallback;
    }
    return fallback;
}

double jsonField(const nlohmann::json& object, const char* key, double fallback)
{
    if (!object.is_object() || !object.contains(key))
        return fallback;
    return jsonNumber(object.at(key), fallback);
}

QString jsonText(const nlohmann::json& value)
{
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    if (value.is_number_integer())
        return QString::number(value.get<long long>());
    if (value.is_number()) {
        const double v = value.get<double>();
        if (std::isinf(v))
            return v > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
        return QString::number(v, 'g', 4);
    }
    if (value.is_boolean())
        return value.get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.is_null())
        return QStringLiteral("—");
    return QString::fromStdString(value.dump());
}

QPoint groupedTile(int pid, int gridM, int gridN, int groupSizeM)
{
    groupSizeM = std::max(groupSizeM, 1);
    const int inGroup = groupSizeM * gridN;
    const int group = pid / inGroup;
    const int firstRow = group * groupSizeM;
    const int rows = std::max(1, std::min(gridM - firstRow, groupSizeM));
    const int row = firstRow + (pid % inGroup) % rows;
    const int col = (pid % inGroup) / rows;
    return {col, row};
}

QPair<int, int> groupedLoads(int count, int gridM, int gridN, int groupSizeM, int kTiles)
{
    QSet<int> rows, cols;
    for (int pid = 0; pid < count && pid < gridM * gridN; ++pid) {
        const QPoint tile = groupedTile(pid, gridM, gridN, groupSizeM);
        rows.insert(tile.y());
        cols.insert(tile.x());
    }
    return {static_cast<int>(rows.size()) * kTiles, static_cast<int>(cols.size()) * kTiles};
}

DiagramWidget* createDiagram(course::Diagram kind, QWidget* parent)
{
    switch (kind) {
    case course::Diagram::Traffic:
        return new TrafficDiagram(parent);
    case course::Diagram::OnlineSoftmax:
        return new OnlineSoftmaxDiagram(parent);
    case course::Diagram::TileGrid:
        return new TileGridDiagram(parent);
    case course::Diagram::Pipeline:
        return new PipelineDiagram(parent);
    case course::Diagram::Table:
        return new TableDiagram(parent);
    }
    return new TableDiagram(parent);
}

} // namespace tkm::app
