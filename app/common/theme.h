#pragma once
// Colours of the app that follow the palette (light or dark): the theme setting (System / Light / Dark), verdict
// banners, text roles made readable (WCAG 2.x AA: contrast ≥ 4.5:1), dark-mode detection.

#include "engine/report/verdict.h"

#include <QColor>
#include <QPalette>
#include <QString>

class QPushButton;
class QWidget;

namespace tkm::app {

/// The learner's theme choice (View → Theme), saved in QSettings under kThemeKey.
enum class Theme { System, Light, Dark };

/// QSettings key of the theme: "system", "light" or "dark".
inline constexpr char kThemeKey[] = "view/theme";
/// WCAG AA minimum contrast of body text [ratio].
inline constexpr double kMinTextContrast = 4.5;

/// What a coloured word says: right, informative (compiled), wrong, broken (fault, time-out), or caution.
enum class Tone { Good, Info, Wrong, Broken, Caution };

/// The tone of a verdict (pass good, compiled info, fail/compile_error wrong, fault/timeout broken, else caution).
Tone verdictTone(report::Verdict verdict);
/// The tone of a case verdict (skipped: caution).
Tone verdictTone(report::CaseVerdict verdict);
/// The tone of a configuration verdict (skipped: caution).
Tone verdictTone(report::ConfigVerdict verdict);
/// Colour of a tone's text, readable on `palette`'s base colour (light or dark).
QColor toneColor(Tone tone, const QPalette& palette);
/// Colour of a verdict's text, readable on `palette`'s base colour (light or dark).
QColor verdictColor(report::Verdict verdict, const QPalette& palette);
/// Colour of a case verdict's text (as verdictColor).
QColor verdictColor(report::CaseVerdict verdict, const QPalette& palette);
/// Colour of a configuration verdict's text (as verdictColor).
QColor verdictColor(report::ConfigVerdict verdict, const QPalette& palette);
/// Background of a verdict banner that carries white text (≥ 4.5:1 against white in both themes).
QColor verdictBannerColor(report::Verdict verdict);
/// Whether the palette is dark (window text lighter than the window).
bool isDarkPalette(const QPalette& palette);

/// WCAG 2.x contrast ratio of two opaque colours [1, 21] (relative luminance, sRGB).
double contrastRatio(const QColor& a, const QColor& b);
/// `colour` moved towards `towards` until it reaches `ratio` against `background` (unchanged when it already does).
QColor readableOn(const QColor& colour, const QColor& background, const QColor& towards,
                  double ratio = kMinTextContrast);
/// Raises the palette's secondary text roles (PlaceholderText, Link, LinkVisited, disabled text) to AA contrast
/// against both Window and Base, so section labels, hints and links stay readable on any palette.
void makeReadable(QPalette& palette);

/// A button for the page's one forward action (Next →, Start, Continue): default, bold, named `objectName`.
QPushButton* makePrimaryButton(const QString& objectName, QWidget* parent);

/// The Fusion dark palette the app uses for Theme::Dark (already readable).
QPalette darkPalette();
/// The Fusion light palette for Theme::Light (already readable).
QPalette lightPalette();

/// "system", "light" or "dark".
QString themeKey(Theme theme);
/// The theme of a key; System for anything else.
Theme themeFromKey(const QString& key);
/// The saved theme (System when none).
Theme savedTheme();
/// Applies `theme` to the application (Fusion style for Light and Dark, the platform's style and palette made
/// readable for System) and saves it.
void applyTheme(Theme theme);

} // namespace tkm::app
