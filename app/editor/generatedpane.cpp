#include "app/editor/generatedpane.h"

#include "app/editor/codeview.h"

#include <QApplication>
#include <QLabel>
#include <QPointer>
#include <QTabWidget>
#include <QThreadPool>
#include <QVBoxLayout>

namespace tkm::app {

namespace {
enum Tab { kCudaTab = 0, kPtxTab = 1, kSassTab = 2 };

} // namespace

GeneratedCodePane::GeneratedCodePane(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    layout->addWidget(m_caption);
    m_tabs = new QTabWidget(this);
    m_cudaView = new ListingView(m_tabs);
    m_cudaView->setAccessibleName(tr("Generated CUDA"));
    m_ptxView = new ListingView(m_tabs);
    m_ptxView->setAccessibleName(tr("PTX"));
    m_sassView = new ListingView(m_tabs);
    m_sassView->setAccessibleName(tr("SASS"));
    m_tabs->addTab(m_cudaView, tr("Generated CUDA"));
    m_tabs->addTab(m_ptxView, tr("PTX"));
    m_tabs->addTab(m_sassView, tr("SASS"));
    m_tabs->setTabToolTip(kCudaTab, tr("The CUDA C++ our compiler generated for one program of your kernel. Click a "
                                       "line to see the Triton line it came from."));
    m_tabs->setTabToolTip(kPtxTab, tr("What NVRTC made of it (compute_90, -lineinfo)."));
    m_tabs->setTabToolTip(kSassTab, tr("The machine code (nvdisasm), when the CUDA toolkit has it."));
    layout->addWidget(m_tabs, 1);
    connect(m_tabs, &QTabWidget::currentChanged, this, &GeneratedCodePane::onTab);
    const QList<QPair<ListingView*, const MappedListing*>> views = {
        {m_cudaView, &m_lowering.cuda}, {m_ptxView, &m_ptx}, {m_sassView, &m_sass}};
    for (const auto& [view, listing] : views)
        connect(view, &ListingView::lineActivated, this, [this, listing](int line) {
            const int triton = listing->tritonLine(line);
            highlightTritonLine(triton);
            if (triton > 0)
                emit tritonLineClicked(triton);
        });
}

void GeneratedCodePane::showListing(ListingView* view, const MappedListing& listing, const QString& language)
{
    view->setListing(listing.text.isEmpty() ? QStringLiteral("// ") + listing.message : listing.text,
                     listing.text.isEmpty() ? QString() : language);
}

void GeneratedCodePane::setLowering(const TritonLowering& lowering)
{
    ++m_generation;
    m_lowering = lowering;
    m_caption->setText(lowering.ok ? tr("One program of your kernel, as our compiler lowered it for the case "
                                        "“%1”.")
                                         .arg(lowering.caseName)
                                   : lowering.cuda.message);
    showListing(m_cudaView, m_lowering.cuda, QStringLiteral("cuda"));
    m_ptx = MappedListing{};
    m_sass = MappedListing{};
    m_ptxView->setListing(tr("// PTX appears when this tab is shown."), QString());
    m_sassView->setListing(tr("// SASS appears when this tab is shown."), QString());
    if (m_tabs->currentIndex() != kCudaTab)
        onTab(m_tabs->currentIndex());
    highlightTritonLine(m_highlighted);
}

void GeneratedCodePane::highlightTritonLine(int tritonLine)
{
    m_highlighted = tritonLine;
    const QList<QPair<ListingView*, const MappedListing*>> views = {
        {m_cudaView, &m_lowering.cuda}, {m_ptxView, &m_ptx}, {m_sassView, &m_sass}};
    for (const auto& [view, listing] : views) {
        view->markerDeleteAll(kMarkerSelected);
        const QList<int> lines = listing->linesFrom(tritonLine);
        for (int line : lines)
            view->markerAdd(line - 1, kMarkerSelected);
        if (!lines.isEmpty())
            view->ensureLineVisible(lines.first() - 1);
    }
}

QList<int> GeneratedCodePane::highlightedCudaLines() const
{
    return markedLines(m_cudaView, kMarkerSelected);
}

QList<int> GeneratedCodePane::highlightedPtxLines() const
{
    return markedLines(m_ptxView, kMarkerSelected);
}

void GeneratedCodePane::onTab(int index)
{
    if (index == kPtxTab)
        requestPtx();
    else if (index == kSassTab)
        requestSass();
}

void GeneratedCodePane::requestPtx()
{
    if (m_ptxGeneration == m_generation)
        return;
    m_ptxGeneration = m_generation;
    compileInBackground(m_ptxView, tr("// Compiling the generated CUDA to PTX…"), &ptxOf, &GeneratedCodePane::m_ptx);
}

void GeneratedCodePane::requestSass()
{
    if (m_sassGeneration == m_generation)
        return;
    m_sassGeneration = m_generation;
    compileInBackground(m_sassView, tr("// Disassembling…"), &sassOf, &GeneratedCodePane::m_sass);
}

void GeneratedCodePane::compileInBackground(ListingView* view, const QString& waiting,
                                            MappedListing (*make)(const TritonLowering&, int),
                                            MappedListing GeneratedCodePane::*slot)
{
    view->setListing(waiting, QString());
    QPointer<GeneratedCodePane> self(this);
    const TritonLowering lowering = m_lowering;
    const int generation = m_generation;
    QThreadPool::globalInstance()->start([self, lowering, generation, make, slot, view] {
        MappedListing listing = make(lowering, 90);
        QMetaObject::invokeMethod(
            qApp,
            [self, listing = std::move(listing), generation, slot, view] {
                if (!self || generation != self->m_generation)
                    return; // the kernel changed meanwhile: a newer compile is on its way
                self->*slot = listing;
                self->showListing(view, self->*slot, QString());
                self->highlightTritonLine(self->m_highlighted);
                if (slot == &GeneratedCodePane::m_ptx)
                    emit self->ptxReady();
            },
            Qt::QueuedConnection);
    });
}

} // namespace tkm::app
