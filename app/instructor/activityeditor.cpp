// Instructor editors: the base class, the sub-item list, and the widgets the per-kind editors share.
#include "app/instructor/activityeditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace tkm::app {

ItemListPanel::ItemListPanel(const QString& noun, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new QListWidget(this);
    layout->addWidget(m_list, 1);
    auto* buttons = new QHBoxLayout;
    auto button = [&](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        buttons->addWidget(b);
        return b;
    };
    QToolButton* add = button(tr("+ Add"), tr("Add a %1").arg(noun));
    m_remove = button(tr("− Remove"), tr("Remove the selected %1").arg(noun));
    m_up = button(tr("↑"), tr("Move the selected %1 up").arg(noun));
    m_down = button(tr("↓"), tr("Move the selected %1 down").arg(noun));
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(add, &QToolButton::clicked, this, &ItemListPanel::addRequested);
    connect(m_remove, &QToolButton::clicked, this, [this] {
        if (currentRow() >= 0)
            emit removeRequested(currentRow());
    });
    connect(m_up, &QToolButton::clicked, this, [this] {
        if (currentRow() > 0)
            emit moveRequested(currentRow(), -1);
    });
    connect(m_down, &QToolButton::clicked, this, [this] {
        if (currentRow() >= 0 && currentRow() + 1 < m_list->count())
            emit moveRequested(currentRow(), +1);
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        updateButtons();
        emit currentChanged(row);
    });
    updateButtons();
}

void ItemListPanel::setItems(const QStringList& labels, int current)
{
    const QSignalBlocker block(m_list);
    m_list->clear();
    m_list->addItems(labels);
    m_list->setCurrentRow(labels.isEmpty() ? -1 : std::clamp(current, 0, static_cast<int>(labels.size()) - 1));
    updateButtons();
}

void ItemListPanel::setLabel(int row, const QString& label)
{
    if (QListWidgetItem* item = m_list->item(row))
        item->setText(label);
}

int ItemListPanel::currentRow() const
{
    return m_list->currentRow();
}
void ItemListPanel::setCurrentRow(int row)
{
    m_list->setCurrentRow(row);
}

bool ItemListPanel::holds(const QStringList& tokens, bool reveal)
{
    if (tokens.size() < 2)
        return false;
    const int row = tokens[1].toInt();
    if (reveal && row != currentRow())
        setCurrentRow(row);
    return row == currentRow();
}

void ItemListPanel::updateButtons()
{
    const int row = m_list->currentRow();
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row + 1 < m_list->count());
}

ActivityEditor::ActivityEditor(QWidget* parent) : QWidget(parent) {}

void ActivityEditor::load(const course::Activity& activity)
{
    m_loading = true;
    doLoad(activity);
    m_loading = false;
}

void ActivityEditor::notify(const QString& field, const QString& description)
{
    if (!m_loading)
        emit edited(field, description);
}

void ActivityEditor::watch(QLineEdit* edit, const QString& field, const QString& description)
{
    connect(edit, &QLineEdit::textChanged, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QPlainTextEdit* edit, const QString& field, const QString& description)
{
    connect(edit, &QPlainTextEdit::textChanged, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QSpinBox* spin, const QString& field, const QString& description)
{
    connect(spin, &QSpinBox::valueChanged, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QCheckBox* check, const QString& field, const QString& description)
{
    connect(check, &QCheckBox::toggled, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QComboBox* combo, const QString& field, const QString& description)
{
    connect(combo, &QComboBox::currentIndexChanged, this, [=, this] { notify(field, description); });
}

QPlainTextEdit* makeTextEdit(QWidget* parent, int lines, bool monospace)
{
    auto* edit = new QPlainTextEdit(parent);
    if (monospace)
        edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setTabStopDistance(QFontMetricsF(edit->font()).horizontalAdvance(QLatin1Char(' ')) * 4);
    edit->setMinimumHeight(QFontMetrics(edit->font()).lineSpacing() * lines + 12);
    edit->setLineWrapMode(monospace ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    return edit;
}

QComboBox* makeLanguageCombo(QWidget* parent)
{
    auto* combo = new QComboBox(parent);
    for (const char* language : {"python", "cuda", "cpp", "text", "shell"})
        combo->addItem(QString::fromLatin1(language));
    return combo;
}

QStringList pointerTokens(const QString& pointer)
{
    QStringList tokens = pointer.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (QString& t : tokens)
        t.replace(QStringLiteral("~1"), QStringLiteral("/")).replace(QStringLiteral("~0"), QStringLiteral("~"));
    return tokens;
}

course::Activity makeActivity(course::ActivityKind kind, const std::string& id, const std::string& title,
                              course::ActivityPayload payload)
{
    course::Activity a;
    a.id = id;
    a.kind = kind;
    a.title = title;
    a.payload = std::move(payload);
    return a;
}

QTableWidget* makeTable(QWidget* parent, const QStringList& headers)
{
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 10);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    return table;
}

QHBoxLayout* tableButtons(QWidget* parent, const QString& noun, QPushButton** add, QPushButton** remove,
                          QPushButton** up, QPushButton** down)
{
    auto* row = new QHBoxLayout;
    *add = new QPushButton(QObject::tr("Add %1").arg(noun), parent);
    *remove = new QPushButton(QObject::tr("Remove"), parent);
    *up = new QPushButton(QObject::tr("↑"), parent);
    *down = new QPushButton(QObject::tr("↓"), parent);
    (*up)->setToolTip(QObject::tr("Move the selected %1 up").arg(noun));
    (*down)->setToolTip(QObject::tr("Move the selected %1 down").arg(noun));
    for (QPushButton* b : {*add, *remove, *up, *down})
        row->addWidget(b);
    row->addStretch(1);
    return row;
}

QString cellText(const QTableWidget* table, int row, int column)
{
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

} // namespace tkm::app
