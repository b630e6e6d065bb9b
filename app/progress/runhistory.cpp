#include "app/progress/runhistory.h"

#include "app/common/format.h"
#include "app/common/theme.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>

namespace tkm::app {
namespace {

constexpr int kIdRole = Qt::UserRole;

QString dash()
{
    return QStringLiteral("—");
}

QString optMs(const std::optional<double>& ms)
{
    return ms ? formatMs(*ms) : dash();
}

QString optGbps(const std::optional<double>& gbps)
{
    return gbps ? formatGbps(*gbps) : dash();
}

QString optFraction(const std::optional<double>& f)
{
    return f ? QStringLiteral("%1 %").arg(*f * 100.0, 0, 'f', 1) : dash();
}

QString optBytes(const std::optional<int64_t>& bytes)
{
    return bytes ? formatBytes(static_cast<double>(*bytes)) : dash();
}

} // namespace

QString formatRunTime(int64_t atMs)
{
    return QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC).toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString formatMeta(const nlohmann::json& meta)
{
    QStringList parts;
    if (meta.is_object())
        for (const auto& [name, value] : meta.items())
            parts << QString::fromStdString(name) + QLatin1Char('=') +
                         QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
    return parts.join(QStringLiteral(", "));
}

RunHistoryWidget::RunHistoryWidget(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_heading = new QLabel(this);
    m_heading->setWordWrap(true);
    layout->addWidget(m_heading);
    m_table = new QTreeWidget(this);
    m_table->setHeaderLabels({tr("When"), tr("Verdict"), tr("Median"), tr("Bandwidth"), tr("% of ceiling"),
                              tr("Meta-parameters"), tr("Device"), tr("Track")});
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setAccessibleName(tr("Run history"));
    layout->addWidget(m_table, 1);
    auto* buttons = new QHBoxLayout;
    m_show = new QPushButton(tr("Show &report"), this);
    m_show->setToolTip(tr("Show the selected run's report in the results view."));
    m_restore = new QPushButton(tr("Restore &source…"), this);
    m_restore->setToolTip(tr("Put the selected run's kernel into the editor (Undo in the editor brings yours back)."));
    m_compare = new QPushButton(tr("Co&mpare"), this);
    m_compare->setToolTip(tr("Select two runs (Ctrl+click) to see their figures side by side."));
    buttons->addWidget(m_show);
    buttons->addWidget(m_restore);
    buttons->addWidget(m_compare);
    buttons->addStretch();
    layout->addLayout(buttons);

    connect(m_table, &QTreeWidget::itemSelectionChanged, this, &RunHistoryWidget::updateButtons);
    connect(m_table, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (auto run = loadRun(item->data(0, kIdRole).toLongLong()))
            emit showReportRequested(*run);
    });
    connect(m_show, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (ids.size() == 1)
            if (auto run = loadRun(ids.front()))
                emit showReportRequested(*run);
    });
    connect(m_restore, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (ids.size() == 1)
            if (auto run = loadRun(ids.front()))
                emit restoreRequested(*run);
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (ids.size() != 2 || !m_store)
            return;
        auto pair = m_store->compareRuns(ids[1], ids[0]); // selectedRuns() is newest first
        if (!pair) {
            m_heading->setText(QString::fromStdString(pair.error().message));
            return;
        }
        emit compareRequested(pair->first, pair->second);
    });
    setExercise(nullptr, {}, {}, {});
}

void RunHistoryWidget::setExercise(std::shared_ptr<progress::Store> store, const QString& moduleId,
                                   const QString& activityId, const QString& title)
{
    m_store = std::move(store);
    m_moduleId = moduleId;
    m_activityId = activityId;
    m_heading->setText(activityId.isEmpty()
                           ? tr("Open an exercise to see its earlier runs.")
                           : tr("<b>Runs of %1</b> — newest first. Select two (Ctrl+click) to compare them.")
                                 .arg(title.toHtmlEscaped()));
    refresh();
}

void RunHistoryWidget::refresh()
{
    const QList<qint64> selected = selectedRuns();
    m_table->clear();
    if (m_store && !m_activityId.isEmpty()) {
        auto runs = m_store->runHistory({m_moduleId.toStdString(), m_activityId.toStdString()});
        if (!runs) {
            m_heading->setText(QString::fromStdString(runs.error().message));
        } else {
            for (const progress::KernelRun& run : *runs) {
                auto* item = new QTreeWidgetItem(m_table);
                item->setText(0, formatRunTime(run.atMs));
                item->setText(1, verdictTitle(run.verdict));
                item->setForeground(1, verdictColor(run.verdict, palette()));
                item->setText(2, optMs(run.medianMs));
                item->setText(3, optGbps(run.achievedGbps));
                item->setText(4, optFraction(run.ceilingFraction()));
                item->setText(5, formatMeta(run.meta));
                item->setText(6, run.device.empty() ? tr("no GPU") : QString::fromStdString(run.device));
                item->setText(7, run.track == "triton" ? tr("Triton") : tr("CUDA"));
                item->setData(0, kIdRole, QVariant::fromValue<qint64>(run.id));
                for (int c = 2; c <= 4; ++c)
                    item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
            }
        }
    }
    selectRuns(selected);
    updateButtons();
}

void RunHistoryWidget::selectRuns(const QList<qint64>& runIds)
{
    m_table->clearSelection();
    for (int i = 0; i < m_table->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_table->topLevelItem(i);
        if (runIds.contains(item->data(0, kIdRole).toLongLong()))
            item->setSelected(true);
    }
}

QList<qint64> RunHistoryWidget::selectedRuns() const
{
    QList<qint64> ids;
    for (int i = 0; i < m_table->topLevelItemCount(); ++i)
        if (m_table->topLevelItem(i)->isSelected())
            ids << m_table->topLevelItem(i)->data(0, kIdRole).toLongLong();
    return ids;
}

void RunHistoryWidget::updateButtons()
{
    const auto n = selectedRuns().size();
    m_show->setEnabled(n == 1);
    m_restore->setEnabled(n == 1);
    m_compare->setEnabled(n == 2);
}

std::optional<progress::KernelRun> RunHistoryWidget::loadRun(qint64 id)
{
    if (!m_store)
        return std::nullopt;
    auto run = m_store->run(id);
    if (!run) {
        m_heading->setText(QString::fromStdString(run.error().message));
        return std::nullopt;
    }
    return std::move(*run);
}

RunComparisonDialog::RunComparisonDialog(const progress::KernelRun& older, const progress::KernelRun& newer,
                                         QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Compare runs"));
    auto* layout = new QVBoxLayout(this);
    m_figures = new QTreeWidget(this);
    m_figures->setRootIsDecorated(false);
    m_figures->setHeaderLabels({tr("Figure"), tr("Earlier run"), tr("Later run")});
    m_figures->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // lowerIsBetter: +1 when a smaller value is better, -1 when a larger one is, 0 when not comparable.
    const auto row = [this](const QString& figure, const QString& a, const QString& b, std::optional<double> va = {},
                            std::optional<double> vb = {}, int lowerIsBetter = 0) {
        auto* item = new QTreeWidgetItem(m_figures, {figure, a, b});
        if (va && vb && lowerIsBetter != 0 && *va != *vb) {
            const int better = ((*va < *vb) == (lowerIsBetter > 0)) ? 1 : 2;
            QFont bold = item->font(better);
            bold.setBold(true);
            item->setFont(better, bold);
            item->setText(better, item->text(better) + QStringLiteral("  ✓"));
        }
    };
    const auto bytes = [](const progress::KernelRun& r) -> std::optional<double> {
        if (!r.dramReadBytes || !r.storedBytes)
            return std::nullopt;
        return static_cast<double>(*r.dramReadBytes + *r.storedBytes);
    };
    row(tr("When"), formatRunTime(older.atMs), formatRunTime(newer.atMs));
    row(tr("Verdict"), verdictTitle(older.verdict), verdictTitle(newer.verdict));
    row(tr("Median time"), optMs(older.medianMs), optMs(newer.medianMs), older.medianMs, newer.medianMs, 1);
    row(tr("Bandwidth"), optGbps(older.achievedGbps), optGbps(newer.achievedGbps), older.achievedGbps,
        newer.achievedGbps, -1);
    row(tr("% of the bandwidth ceiling"), optFraction(older.ceilingFraction()), optFraction(newer.ceilingFraction()),
        older.ceilingFraction(), newer.ceilingFraction(), -1);
    row(tr("DRAM read"), optBytes(older.dramReadBytes), optBytes(newer.dramReadBytes));
    row(tr("Bytes stored"), optBytes(older.storedBytes), optBytes(newer.storedBytes));
    row(tr("DRAM traffic (read + stored)"), bytes(older) ? formatBytes(*bytes(older)) : dash(),
        bytes(newer) ? formatBytes(*bytes(newer)) : dash(), bytes(older), bytes(newer), 1);
    row(tr("DRAM efficiency (ideal / actual)"), optFraction(older.dramEfficiency()),
        optFraction(newer.dramEfficiency()), older.dramEfficiency(), newer.dramEfficiency(), -1);
    row(tr("Meta-parameters"), formatMeta(older.meta), formatMeta(newer.meta));
    row(tr("Device"), QString::fromStdString(older.device), QString::fromStdString(newer.device));
    row(tr("Track"), QString::fromStdString(older.track), QString::fromStdString(newer.track));
    row(tr("Source lines"), QString::number(QString::fromStdString(older.source).count(QLatin1Char('\n')) + 1),
        QString::number(QString::fromStdString(newer.source).count(QLatin1Char('\n')) + 1));
    layout->addWidget(new QLabel(tr("Both runs are also drawn in the results charts (Results dock)."), this));
    layout->addWidget(m_figures, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_figures->header()->setStretchLastSection(false);
    m_figures->setWordWrap(true);
    resize(760, 430);
}

} // namespace tkm::app
