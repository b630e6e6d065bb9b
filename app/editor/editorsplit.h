#pragma once
// The kernel editor with, beside it in the Triton track, the Generated CUDA / PTX / SASS pane. The editor keeps
// room for 80 columns of code where the window allows it; when the pane would then be narrower than it can be
// read (about 320 px: a 1400 or 1600 px wide window, beside the navigator and the prompt) it starts collapsed
// behind its toggle button. The learner's own split and their collapse/expand choice are kept for every exercise
// (QSettings "exercise/code_split", "exercise/generated_collapsed").

#include <QWidget>

class QSplitter;
class QToolButton;

namespace tkm::app {

class GeneratedCodePane;
class KernelEditor;

/// Editor | generated-code split with a collapsible pane.
class EditorSplit : public QWidget
{
    Q_OBJECT
public:
    /// Takes `editor` and `pane` into a horizontal splitter (they become its children).
    EditorSplit(KernelEditor* editor, GeneratedCodePane* pane, QWidget* parent = nullptr);

    /// Whether the track has a pane at all (the Triton track); hides pane and toggle when not.
    void setPaneAvailable(bool available);
    /// Collapses or expands the pane; `remember`: the learner chose it (kept for the next exercise).
    void setPaneCollapsed(bool collapsed, bool remember = true);
    /// Whether the pane is collapsed (it may still be unavailable).
    bool paneCollapsed() const { return m_collapsed; }
    /// The button that collapses and expands the pane (the view puts it in its toolbar row).
    QToolButton* toggleButton() const { return m_toggle; }
    /// The splitter holding the editor and the pane.
    QSplitter* splitter() const { return m_splitter; }
    /// Columns of the code font the editor shows without scrolling sideways.
    int visibleColumns() const;
    /// [px] the editor's width that shows 80 columns (text, margins and scroll bar).
    int editorWidthFor80Columns() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void firstSizing();
    void applyDefaultSizes();
    void updateToggle();

    KernelEditor* m_editor = nullptr;
    GeneratedCodePane* m_pane = nullptr;
    QSplitter* m_splitter = nullptr;
    QToolButton* m_toggle = nullptr;
    bool m_available = false;
    bool m_collapsed = false;
    bool m_sized = false;  ///< the first real width has given the splitter its sizes
    bool m_chosen = false; ///< setPaneCollapsed() was called: the first sizing keeps that state
};

} // namespace tkm::app
