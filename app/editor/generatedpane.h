#pragma once
// "What your Triton became": read-only tabs beside the Triton editor — the CUDA our lowering generated for one
// program (layout notes as comments at its top), the PTX NVRTC made of it and, when the toolkit has nvdisasm,
// the SASS. Clicking a line of any tab names the Triton line it came from; highlightTritonLine() tints the lines
// of every tab that came from one Triton line. PTX and SASS compile off the UI thread when their tab is shown.

#include "app/editor/generatedcode.h"

#include <QWidget>

class QLabel;
class QTabWidget;

namespace tkm::app {

class ListingView;

/// Generated CUDA / PTX / SASS tabs.
class GeneratedCodePane : public QWidget
{
    Q_OBJECT
public:
    explicit GeneratedCodePane(QWidget* parent = nullptr);

    /// Shows `lowering` (its CUDA at once; PTX and SASS are recomputed when their tab is next shown).
    void setLowering(const TritonLowering& lowering);
    /// The lowering shown.
    const TritonLowering& lowering() const { return m_lowering; }
    /// Tints the lines of every tab that came from `tritonLine` [1-based] (0 clears) and scrolls to the first.
    void highlightTritonLine(int tritonLine);
    /// Highlighted lines of the Generated CUDA tab [1-based, ascending].
    QList<int> highlightedCudaLines() const;
    /// Highlighted lines of the PTX tab [1-based, ascending].
    QList<int> highlightedPtxLines() const;
    /// Starts the PTX compile now (it also starts when the PTX tab is shown).
    void requestPtx();
    /// The PTX listing (empty text until its compile finished; see ptxReady).
    const MappedListing& ptx() const { return m_ptx; }
    /// The Generated CUDA view.
    ListingView* cudaView() const { return m_cudaView; }
    /// The tabs.
    QTabWidget* tabs() const { return m_tabs; }

signals:
    /// The learner clicked a line of a tab that came from `tritonLine` [1-based].
    void tritonLineClicked(int tritonLine);
    /// The PTX tab was filled.
    void ptxReady();

private:
    void showListing(ListingView* view, const MappedListing& listing, const QString& language);
    void requestSass();
    /// Runs `make` on the lowering off the UI thread and puts its listing in `slot` and `view`.
    void compileInBackground(ListingView* view, const QString& waiting,
                             MappedListing (*make)(const TritonLowering&, int), MappedListing GeneratedCodePane::*slot);
    void onTab(int index);

    QTabWidget* m_tabs = nullptr;
    QLabel* m_caption = nullptr;
    ListingView* m_cudaView = nullptr;
    ListingView* m_ptxView = nullptr;
    ListingView* m_sassView = nullptr;
    TritonLowering m_lowering;
    MappedListing m_ptx;
    MappedListing m_sass;
    int m_generation = 0;     ///< bumped by setLowering: late PTX/SASS of an older lowering are dropped
    int m_ptxGeneration = -1; ///< generation the PTX was requested for
    int m_sassGeneration = -1;
    int m_highlighted = 0;
};

} // namespace tkm::app
