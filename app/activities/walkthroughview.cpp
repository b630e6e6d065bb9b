#include "app/activities/walkthroughview.h"

#include "app/activities/markdownview.h"
#include "app/common/qtconvert.h"
#include "app/course/coursenavigator.h"
#include "app/editor/codeview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include "modules/course/model.h"

namespace tkm::app {

WalkthroughView::WalkthroughView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(makeHeader(activityKindLabel(QStringLiteral("walkthrough"))));
    auto* hint =
        new QLabel(tr("Click a line (or move with the arrow keys) to read its note. Lines with a dot have one; "
                      "Ctrl+Return jumps to the next."),
                   this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(hint);

    auto* vertical = new QSplitter(Qt::Vertical, this);
    auto* panes = new QSplitter(Qt::Horizontal, vertical);
    const auto* walkthrough = activity.as<course::Walkthrough>();
    if (walkthrough) {
        for (int p = 0; p < static_cast<int>(walkthrough->panes.size()); ++p) {
            const course::WalkthroughPane& pane = walkthrough->panes[p];
            auto* column = new QWidget(panes);
            auto* columnLayout = new QVBoxLayout(column);
            columnLayout->setContentsMargins(0, 0, 0, 0);
            auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(qs(pane.label).toHtmlEscaped()), column);
            columnLayout->addWidget(label);
            auto* listing = new ListingView(column);
            listing->setListing(qs(pane.code), qs(pane.language));
            listing->setAccessibleName(qs(pane.label));
            label->setBuddy(listing);
            for (const auto& [line, note] : pane.notes) {
                listing->markerAdd(line - 1, kMarkerNote);
                ++m_totalNotes;
            }
            columnLayout->addWidget(listing);
            m_listings.append(listing);
            connect(listing, &ListingView::currentLineChanged, this, [this, p](int line) { showNote(p, line); });
            connect(listing, &ListingView::lineActivated, this, [this, p](int line) { showNote(p, line); });
        }
    }
    auto* noteBox = new QWidget(vertical);
    auto* noteLayout = new QVBoxLayout(noteBox);
    noteLayout->setContentsMargins(0, 6, 0, 0);
    auto* noteHeader = new QHBoxLayout;
    m_noteTitle = new QLabel(noteBox);
    auto* next = new QPushButton(tr("&Next note"), noteBox);
    next->setToolTip(tr("Jump to the next line that has a note (Ctrl+Return)."));
    connect(next, &QPushButton::clicked, this, [this] { nextNote(); });
    noteHeader->addWidget(m_noteTitle, 1);
    noteHeader->addWidget(next);
    noteLayout->addLayout(noteHeader);
    m_note = new MarkdownView(noteBox);
    m_note->setFrameShape(QFrame::StyledPanel);
    noteLayout->addWidget(m_note);
    vertical->addWidget(panes);
    vertical->addWidget(noteBox);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 1);
    layout->addWidget(vertical, 1);
    m_noteTitle->setText(tr("<b>Notes</b> · %n line(s) explained", nullptr, m_totalNotes));
    m_note->setMarkdownText(tr("Select a line with a dot to read what it does and why."));
    markInProgress();
}

void WalkthroughView::showNote(int pane, int line)
{
    const auto* walkthrough = activity().as<course::Walkthrough>();
    if (!walkthrough || pane < 0 || pane >= static_cast<int>(walkthrough->panes.size()))
        return;
    for (ListingView* l : std::as_const(m_listings))
        l->markerDeleteAll(kMarkerSelected);
    m_pane = pane;
    m_line = line;
    const course::WalkthroughPane& p = walkthrough->panes[pane];
    m_listings[pane]->markerAdd(line - 1, kMarkerSelected);
    const auto it = p.notes.find(line);
    if (it == p.notes.end()) {
        m_noteTitle->setText(tr("<b>%1 · line %2</b>").arg(qs(p.label).toHtmlEscaped()).arg(line));
        m_note->setMarkdownText(tr("No note on this line. Lines with a dot in the margin have one."));
        return;
    }
    m_seen.insert({pane, line});
    m_noteTitle->setText(tr("<b>%1 · line %2</b> · note %3 of %4 read")
                             .arg(qs(p.label).toHtmlEscaped())
                             .arg(line)
                             .arg(m_seen.size())
                             .arg(m_totalNotes));
    m_note->setMarkdownText(qs(it->second));
    if (static_cast<int>(m_seen.size()) >= m_totalNotes)
        markDone();
}

void WalkthroughView::selectLine(int pane, int line)
{
    if (pane < 0 || pane >= m_listings.size())
        return;
    m_listings[pane]->setCurrentLineNumber(line);
    showNote(pane, line);
}

bool WalkthroughView::nextNote()
{
    const auto* walkthrough = activity().as<course::Walkthrough>();
    if (!walkthrough)
        return false;
    for (int p = m_pane; p < static_cast<int>(walkthrough->panes.size()); ++p) {
        for (const auto& [line, note] : walkthrough->panes[p].notes) {
            if (p == m_pane && line <= m_line)
                continue;
            selectLine(p, line);
            m_listings[p]->setFocus();
            return true;
        }
    }
    emit statusMessage(tr("That was the last note."));
    return false;
}

QString WalkthroughView::noteText() const
{
    return m_note->markdownText();
}

void WalkthroughView::reset()
{
    m_seen.clear();
    m_pane = 0;
    m_line = 0;
    for (ListingView* l : std::as_const(m_listings))
        l->markerDeleteAll(kMarkerSelected);
    m_note->setMarkdownText(tr("Select a line with a dot to read what it does and why."));
}

} // namespace tkm::app
