#include "app/editor/editorsplit.h"

#include "app/editor/generatedpane.h"
#include "app/editor/kerneleditor.h"

#include <QHBoxLayout>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace tkm::app {

namespace {
const QString kSplitKey = QStringLiteral("exercise/code_split");              // the editor's share of the width [0, 1]
const QString kCollapsedKey = QStringLiteral("exercise/generated_collapsed"); // the learner's last choice
constexpr int kMinPaneWidth = 320; // [px] narrower, a line of generated CUDA is mostly cut off
constexpr int kMargins = 5;        // QScintilla's margins 0-4
} // namespace

EditorSplit::EditorSplit(KernelEditor* editor, GeneratedCodePane* pane, QWidget* parent)
    : QWidget(parent), m_editor(editor), m_pane(pane)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(editor);
    m_splitter->addWidget(pane);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    pane->setMinimumWidth(200);
    layout->addWidget(m_splitter);
    m_toggle = new QToolButton(this);
    m_toggle->setCheckable(true);
    m_toggle->setAutoRaise(true);
    m_toggle->setAccessibleName(tr("Generated CUDA pane"));
    m_toggle->setToolTip(tr("Show or hide the CUDA, PTX and SASS your Triton kernel became, beside the editor."));
    const QSettings settings;
    m_collapsed = settings.value(kCollapsedKey, false).toBool();
    connect(m_toggle, &QToolButton::toggled, this, [this](bool expanded) { setPaneCollapsed(!expanded); });
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] {
        const QList<int> sizes = m_splitter->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        if (m_pane->isVisible() && total > 0)
            QSettings().setValue(kSplitKey, static_cast<double>(sizes[0]) / total);
    });
    setPaneAvailable(false);
}

void EditorSplit::setPaneAvailable(bool available)
{
    m_available = available;
    m_toggle->setVisible(available);
    m_pane->setVisible(available && !m_collapsed);
    if (m_pane->isVisibleTo(this) && m_sized)
        applyDefaultSizes();
    updateToggle();
}

void EditorSplit::setPaneCollapsed(bool collapsed, bool remember)
{
    m_chosen = true;
    if (remember)
        QSettings().setValue(kCollapsedKey, collapsed);
    if (collapsed == m_collapsed)
        return updateToggle();
    m_collapsed = collapsed;
    setPaneAvailable(m_available);
}

void EditorSplit::updateToggle()
{
    const bool blocked = m_toggle->blockSignals(true);
    m_toggle->setChecked(!m_collapsed);
    m_toggle->blockSignals(blocked);
    m_toggle->setText(m_collapsed ? tr("◂ Show generated CUDA") : tr("Hide generated CUDA ▸"));
}

int EditorSplit::visibleColumns() const
{
    int margins = 0;
    for (int i = 0; i < kMargins; ++i)
        margins += m_editor->marginWidth(i);
    const long digit =
        m_editor->SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH, QsciScintillaBase::STYLE_DEFAULT, "0000000000");
    return digit > 0 ? static_cast<int>((m_editor->viewport()->width() - margins) * 10 / digit) : 0;
}

int EditorSplit::editorWidthFor80Columns() const
{
    int margins = 0;
    for (int i = 0; i < kMargins; ++i)
        margins += m_editor->marginWidth(i);
    const long text = m_editor->SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH, QsciScintillaBase::STYLE_DEFAULT,
                                              QByteArray(80, '0').constData());
    const int scrollBar = m_editor->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_editor);
    // Scintilla keeps a few pixels of blank space left of the text.
    return static_cast<int>(text) + margins + scrollBar + 2 * m_editor->frameWidth() + 8;
}

void EditorSplit::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    firstSizing();
}

void EditorSplit::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // The window's layout gives this widget its real width once the events of showing it are handled.
    QTimer::singleShot(0, this, &EditorSplit::firstSizing);
}

void EditorSplit::firstSizing()
{
    if (m_sized || !isVisible() || width() < 200)
        return;
    m_sized = true;
    // No choice of the learner yet: collapsed when 80 columns leave the pane too little room.
    if (!m_chosen && !QSettings().contains(kCollapsedKey))
        m_collapsed = width() - m_splitter->handleWidth() - editorWidthFor80Columns() < kMinPaneWidth;
    setPaneAvailable(m_available);
}

void EditorSplit::applyDefaultSizes()
{
    const int total = width() - m_splitter->handleWidth();
    if (total <= 0)
        return;
    const QSettings settings;
    // 80 columns or half the width for the editor, but a pane the learner opened stays readable.
    int editor = std::min(std::max(editorWidthFor80Columns(), total / 2), total - kMinPaneWidth);
    if (settings.contains(kSplitKey))
        editor = static_cast<int>(settings.value(kSplitKey).toDouble() * total);
    editor = std::clamp(editor, 0, total - m_pane->minimumWidth());
    m_splitter->setSizes({editor, total - editor});
}

} // namespace tkm::app
