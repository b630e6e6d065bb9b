#include "app/results/autotuneresults.h"

#include "app/common/format.h"
#include "app/common/theme.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace tkm::app {
namespace {

QString configText(const QJsonObject& meta)
{
    QStringList parts;
    for (auto it = meta.begin(); it != meta.end(); ++it)
        parts << QStringLiteral("%1 = %2").arg(it.key(), formatValue(it.value()));
    return parts.join(QStringLiteral(", "));
}

QString shapeHeader(const QJsonObject& shape)
{
    QStringList parts;
    for (auto it = shape.begin(); it != shape.end(); ++it)
        parts << QStringLiteral("%1 = %2").arg(it.key(), QLocale().toString(it.value().toInteger()));
    return parts.join(QLatin1Char('\n'));
}

} // namespace

AutotuneResults::AutotuneResults(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->verticalHeader()->hide();
    m_table->setAccessibleName(tr("Autotune results"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_header);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    setReport({});
}

int AutotuneResults::winnerRow(int shape) const
{
    for (const QJsonValue& w : m_section.value(QStringLiteral("winners")).toArray())
        for (const QJsonValue& s : w.toObject().value(QStringLiteral("shapes")).toArray())
            if (s.toInt() == shape)
                return w.toObject().value(QStringLiteral("config")).toInt();
    return -1;
}

QString AutotuneResults::summaryText() const
{
    return QTextDocumentFragment::fromHtml(m_summary->text()).toPlainText();
}

void AutotuneResults::setReport(const QJsonObject& report)
{
    m_section = report.value(QStringLiteral("autotune")).toObject();
    m_has = !m_section.isEmpty();
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    if (!m_has) {
        m_header->setText(tr("No autotuning in this run. In an exercise with an autotune table, check \"Autotune on "
                             "Run\" and list configurations; Run then checks and times each of them."));
        m_summary->clear();
        return;
    }
    const QJsonArray configs = m_section.value(QStringLiteral("configs")).toArray();
    const QJsonArray shapes = m_section.value(QStringLiteral("shapes")).toArray();
    QStringList key;
    for (const QJsonValue& k : m_section.value(QStringLiteral("key")).toArray())
        key << k.toString();
    QStringList resets;
    for (const QJsonValue& r : m_section.value(QStringLiteral("reset_to_zero")).toArray())
        resets << r.toString();
    m_header->setText(tr("%1 configurations, each case launched %2× on the same buffers; key (%3); reset_to_zero: %4.")
                          .arg(configs.size())
                          .arg(m_section.value(QStringLiteral("launches_per_check")).toInt())
                          .arg(key.join(QStringLiteral(", ")),
                               resets.isEmpty() ? tr("none declared") : resets.join(QStringLiteral(", "))));

    QStringList headers{tr("Configuration"), tr("Check")};
    for (const QJsonValue& s : shapes)
        headers << shapeHeader(s.toObject());
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(configs.size()));
    const QPalette pal = palette();
    QColor win = verdictColor(QStringLiteral("pass"), pal);
    win.setAlpha(60);
    for (int row = 0; row < configs.size(); ++row) {
        const QJsonObject c = configs[row].toObject();
        auto* name = new QTableWidgetItem(configText(c.value(QStringLiteral("meta")).toObject()));
        m_table->setItem(row, 0, name);
        const QString verdict = c.value(QStringLiteral("verdict")).toString();
        auto* check = new QTableWidgetItem(verdictTitle(verdict));
        check->setForeground(verdictColor(verdict, pal));
        check->setToolTip(c.value(QStringLiteral("summary")).toString());
        m_table->setItem(row, 1, check);
        for (int s = 0; s < shapes.size(); ++s)
            m_table->setItem(row, 2 + s,
                             new QTableWidgetItem(verdict == QLatin1String("pass") ? tr("—") : tr("not timed")));
    }
    for (const QJsonValue& v : m_section.value(QStringLiteral("samples")).toArray()) {
        const QJsonObject sample = v.toObject();
        const int row = sample.value(QStringLiteral("config")).toInt(-1);
        const int col = 2 + sample.value(QStringLiteral("shape")).toInt(-1);
        QTableWidgetItem* item = m_table->item(row, col);
        if (!item)
            continue;
        if (sample.contains(QStringLiteral("median_ms"))) {
            item->setText(formatMs(sample.value(QStringLiteral("median_ms")).toDouble()));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!sample.value(QStringLiteral("settled")).toBool())
                item->setToolTip(tr("The spread of the samples did not settle within the time budget."));
        } else {
            item->setText(tr("error"));
            item->setToolTip(sample.value(QStringLiteral("error")).toString());
        }
    }
    QStringList lines;
    for (const QJsonValue& v : m_section.value(QStringLiteral("winners")).toArray()) {
        const QJsonObject w = v.toObject();
        const int row = w.value(QStringLiteral("config")).toInt(-1);
        const double speedup = w.value(QStringLiteral("speedup_over_slowest")).toDouble();
        for (const QJsonValue& s : w.value(QStringLiteral("shapes")).toArray()) {
            if (QTableWidgetItem* item = m_table->item(row, 2 + s.toInt())) {
                item->setText(QStringLiteral("★ %1  (%2×)").arg(item->text()).arg(speedup, 0, 'f', 2));
                item->setBackground(win);
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
                item->setToolTip(
                    tr("Fastest on this shape: %1× faster than the slowest configuration.").arg(speedup, 0, 'f', 2));
            }
        }
        lines
            << tr("<b>%1</b>: %2 — %3, %4× faster than the slowest")
                   .arg(formatSizes(w.value(QStringLiteral("key")).toObject()).toHtmlEscaped(),
                        configText(configs.at(row).toObject().value(QStringLiteral("meta")).toObject()).toHtmlEscaped(),
                        formatMs(w.value(QStringLiteral("median_ms")).toDouble()))
                   .arg(speedup, 0, 'f', 2);
    }
    if (!lines.isEmpty())
        lines.prepend(tr("Winner per key:"));
    const QString note = m_section.value(QStringLiteral("note")).toString();
    if (!note.isEmpty())
        lines << note.toHtmlEscaped();
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
}

} // namespace tkm::app
