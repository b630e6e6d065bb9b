#include "app/activities/autotunepanel.h"

#include "engine/problem/spec.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace tkm::app {
namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }

QString shapeText(const std::map<std::string, int64_t> &shape)
{
  QStringList parts;
  for (const auto &[name, value] : shape)
    parts << QStringLiteral("%1 = %2").arg(qs(name), QLocale().toString(static_cast<qlonglong>(value)));
  return parts.join(QStringLiteral(", "));
}

} // namespace

QList<MetaConfig> AutotunePanel::defaultConfigs(const problem::ExerciseSpec &spec, int count)
{
  QList<MetaConfig> out;
  for (int i = 0; i < count; ++i) {
    MetaConfig config;
    for (const problem::Meta &m : spec.meta) {
      qint64 value = m.defaultValue;
      if (!m.allowed.empty()) {
        const double at = static_cast<double>(i + 1) * static_cast<double>(m.allowed.size() - 1) / (count + 1);
        value = m.allowed[static_cast<size_t>(std::lround(at))];
      }
      config.append({qs(m.name), value});
    }
    out.append(config);
  }
  return out;
}

AutotunePanel::AutotunePanel(std::shared_ptr<const problem::ExerciseSpec> spec, QWidget *parent)
    : QWidget(parent), m_spec(std::move(spec))
{
  m_minConfigs = m_spec->autotune ? m_spec->autotune->minConfigs : 1;
  auto *outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  m_group = new QGroupBox(tr("Autotune on Run"), this);
  m_group->setCheckable(true);
  m_group->setChecked(true);
  m_group->setToolTip(tr("Checked: Run checks every configuration on the cases, then times each on the tuning "
                         "shapes and names the winner per shape, as @triton.autotune does. Unchecked: Run uses the "
                         "meta-parameters above the editor."));
  outer->addWidget(m_group);
  auto *layout = new QVBoxLayout(m_group);

  QStringList shapes;
  QStringList key;
  if (m_spec->autotune) {
    for (const auto &shape : m_spec->autotune->shapes)
      shapes << shapeText(shape);
    for (const auto &k : m_spec->autotune->key)
      key << qs(k);
  }
  auto *intro = new QLabel(tr("List at least %1 configurations. Each is checked on every case, then timed on "
                              "%2; the winner is picked per key (%3).")
                               .arg(m_minConfigs)
                               .arg(shapes.join(QStringLiteral("; ")), key.join(QStringLiteral(", "))),
                           m_group);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  m_table = new QTableWidget(0, static_cast<int>(m_spec->meta.size()), m_group);
  QStringList headers;
  for (const problem::Meta &m : m_spec->meta)
    headers << qs(m.name);
  m_table->setHorizontalHeaderLabels(headers);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setAccessibleName(tr("Autotune configurations"));
  // Room for the header and one row more than the minimum; rows hold combo boxes, taller than plain text.
  const int rowHeight = QComboBox().sizeHint().height() + 2;
  m_table->verticalHeader()->setDefaultSectionSize(rowHeight);
  m_table->setMinimumHeight(rowHeight * (m_minConfigs + 2) + 4);
  layout->addWidget(m_table, 1);

  auto *buttons = new QHBoxLayout;
  m_add = new QPushButton(tr("&Add configuration"), m_group);
  m_remove = new QPushButton(tr("Re&move"), m_group);
  m_remove->setToolTip(tr("Remove the selected configuration (at least %1 must stay).").arg(m_minConfigs));
  m_count = new QLabel(m_group);
  buttons->addWidget(m_add);
  buttons->addWidget(m_remove);
  buttons->addStretch();
  buttons->addWidget(m_count);
  layout->addLayout(buttons);
  connect(m_add, &QPushButton::clicked, this, [this] { addConfig(); });
  connect(m_remove, &QPushButton::clicked, this, [this] {
    const int row = m_table->currentRow();
    removeConfig(row >= 0 ? row : m_table->rowCount() - 1);
  });

  // reset_to_zero: one checkbox per output buffer.
  auto *resets = new QHBoxLayout;
  auto *resetLabel = new QLabel(tr("reset_to_zero:"), m_group);
  resetLabel->setToolTip(tr("Outputs zeroed before every launch while tuning, as "
                            "@triton.autotune(reset_to_zero=[…]). A kernel that adds into its output needs it: the "
                            "autotuner launches it many times on the same tensor."));
  resets->addWidget(resetLabel);
  for (const problem::Param &p : m_spec->params) {
    if (p.kind != problem::ParamKind::Buffer || p.role == problem::Role::In)
      continue;
    auto *box = new QCheckBox(qs(p.name), m_group);
    box->setToolTip(resetLabel->toolTip());
    connect(box, &QCheckBox::toggled, this, &AutotunePanel::changed);
    resets->addWidget(box);
    m_resets.append({qs(p.name), box});
  }
  resets->addStretch();
  layout->addLayout(resets);
  connect(m_group, &QGroupBox::toggled, this, &AutotunePanel::changed);

  setConfigs({});
}

bool AutotunePanel::tuningEnabled() const { return m_group->isChecked(); }
void AutotunePanel::setTuningEnabled(bool on) { m_group->setChecked(on); }

QList<MetaConfig> AutotunePanel::configs() const
{
  QList<MetaConfig> out;
  for (int row = 0; row < m_table->rowCount(); ++row) {
    MetaConfig config;
    for (int col = 0; col < m_table->columnCount(); ++col) {
      const QString name = qs(m_spec->meta[static_cast<size_t>(col)].name);
      QWidget *w = m_table->cellWidget(row, col);
      if (auto *combo = qobject_cast<QComboBox *>(w))
        config.append({name, combo->currentData().toLongLong()});
      else if (auto *spin = qobject_cast<QSpinBox *>(w))
        config.append({name, spin->value()});
    }
    out.append(config);
  }
  return out;
}

void AutotunePanel::setRow(int row, const MetaConfig &config)
{
  for (int col = 0; col < m_table->columnCount(); ++col) {
    const problem::Meta &m = m_spec->meta[static_cast<size_t>(col)];
    const QString name = qs(m.name);
    qint64 value = m.defaultValue;
    for (const auto &[n, v] : config)
      if (n == name)
        value = v;
    QWidget *control = nullptr;
    if (!m.allowed.empty()) {
      auto *combo = new QComboBox(m_table);
      for (int64_t v : m.allowed)
        combo->addItem(QString::number(v), static_cast<qint64>(v));
      const int index = combo->findData(value);
      combo->setCurrentIndex(index >= 0 ? index : combo->findData(static_cast<qint64>(m.defaultValue)));
      connect(combo, &QComboBox::currentIndexChanged, this, &AutotunePanel::changed);
      control = combo;
    } else {
      auto *spin = new QSpinBox(m_table);
      spin->setRange(1, 1 << 20);
      spin->setValue(static_cast<int>(value));
      connect(spin, &QSpinBox::valueChanged, this, &AutotunePanel::changed);
      control = spin;
    }
    control->setAccessibleName(tr("%1 of configuration %2").arg(name).arg(row + 1));
    m_table->setCellWidget(row, col, control);
  }
}

void AutotunePanel::setConfigs(const QList<MetaConfig> &configs)
{
  QList<MetaConfig> rows = configs;
  const QList<MetaConfig> defaults = defaultConfigs(*m_spec, m_minConfigs);
  for (int i = static_cast<int>(rows.size()); i < m_minConfigs; ++i)
    rows.append(defaults[i]);
  m_table->setRowCount(static_cast<int>(rows.size()));
  for (int row = 0; row < rows.size(); ++row)
    setRow(row, rows[row]);
  updateButtons();
  emit changed();
}

int AutotunePanel::addConfig()
{
  const int row = m_table->rowCount();
  // The next configuration of an evenly spread list one longer than the table.
  const QList<MetaConfig> spread = defaultConfigs(*m_spec, row + 1);
  m_table->insertRow(row);
  setRow(row, spread[row]);
  m_table->setCurrentCell(row, 0);
  updateButtons();
  emit changed();
  return row;
}

bool AutotunePanel::removeConfig(int row)
{
  if (row < 0 || row >= m_table->rowCount() || m_table->rowCount() <= m_minConfigs)
    return false;
  m_table->removeRow(row);
  updateButtons();
  emit changed();
  return true;
}

bool AutotunePanel::setValue(int row, const QString &name, qint64 value)
{
  if (row < 0 || row >= m_table->rowCount())
    return false;
  for (int col = 0; col < m_table->columnCount(); ++col) {
    if (qs(m_spec->meta[static_cast<size_t>(col)].name) != name)
      continue;
    QWidget *w = m_table->cellWidget(row, col);
    if (auto *combo = qobject_cast<QComboBox *>(w)) {
      const int index = combo->findData(value);
      if (index < 0)
        return false;
      combo->setCurrentIndex(index);
      return true;
    }
    if (auto *spin = qobject_cast<QSpinBox *>(w)) {
      spin->setValue(static_cast<int>(value));
      return spin->value() == value;
    }
  }
  return false;
}

QStringList AutotunePanel::resetToZero() const
{
  QStringList out;
  for (const auto &[name, box] : m_resets)
    if (box->isChecked())
      out << name;
  return out;
}

void AutotunePanel::setResetToZero(const QStringList &names)
{
  for (const auto &[name, box] : m_resets)
    box->setChecked(names.contains(name));
}

QString AutotunePanel::saveState() const
{
  QJsonArray rows;
  for (const MetaConfig &config : configs()) {
    QJsonObject row;
    for (const auto &[name, value] : config)
      row.insert(name, value);
    rows.append(row);
  }
  const QJsonObject state{{QStringLiteral("tune"), tuningEnabled()},
                          {QStringLiteral("configs"), rows},
                          {QStringLiteral("reset_to_zero"), QJsonArray::fromStringList(resetToZero())}};
  return QString::fromUtf8(QJsonDocument(state).toJson(QJsonDocument::Compact));
}

void AutotunePanel::restoreState(const QString &text)
{
  const QJsonObject state = QJsonDocument::fromJson(text.toUtf8()).object();
  if (state.isEmpty())
    return;
  const QSignalBlocker block(this); // one `changed` at the end, not one per cell
  QList<MetaConfig> rows;
  for (const QJsonValue &v : state.value(QStringLiteral("configs")).toArray()) {
    MetaConfig config;
    const QJsonObject row = v.toObject();
    for (auto it = row.begin(); it != row.end(); ++it)
      config.append({it.key(), static_cast<qint64>(it.value().toDouble())});
    rows.append(config);
  }
  setConfigs(rows);
  QStringList resets;
  for (const QJsonValue &v : state.value(QStringLiteral("reset_to_zero")).toArray())
    resets << v.toString();
  setResetToZero(resets);
  setTuningEnabled(state.value(QStringLiteral("tune")).toBool(true));
}

void AutotunePanel::updateButtons()
{
  const int rows = m_table->rowCount();
  m_remove->setEnabled(rows > m_minConfigs);
  m_count->setText(tr("%1 listed, %2 needed").arg(rows).arg(m_minConfigs));
}

} // namespace tkm::app
