#pragma once
// Course Markdown (docs/content-format.md) rendered for reading: headings, lists, tables, emphasis, callout boxes
// (`> [!PROBE] title` …) with their title, and fenced code highlighted for Python (Triton) and CUDA C++.

#include <QString>
#include <QTextBrowser>

class QTextDocument;

namespace tkm::app {

/// Replaces `document`'s content with `markdown` rendered for `palette`.
void renderMarkdown(QTextDocument *document, const QString &markdown, const QPalette &palette);

/// A read-only Markdown page that re-renders when the palette changes (light ↔ dark).
class MarkdownView : public QTextBrowser {
  Q_OBJECT
public:
  explicit MarkdownView(QWidget *parent = nullptr);
  /// Shows `markdown`.
  void setMarkdownText(const QString &markdown);
  /// The Markdown shown.
  const QString &markdownText() const { return m_markdown; }

protected:
  void changeEvent(QEvent *event) override;

private:
  QString m_markdown;
};

} // namespace tkm::app
