#pragma once
// Colours of the app that follow the palette (light or dark): verdict banners, dark-mode detection.

#include <QColor>
#include <QPalette>
#include <QString>

namespace tkm::app {

/// Colour of a verdict's banner, readable on `palette`'s base colour (light or dark).
QColor verdictColor(const QString& verdict, const QPalette& palette);
/// Whether the palette is dark (window text lighter than the window).
bool isDarkPalette(const QPalette& palette);

} // namespace tkm::app
