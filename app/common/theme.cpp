#include "app/common/theme.h"

#include <QApplication>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

#include <algorithm>
#include <cmath>

namespace tkm::app {

namespace {

double channel(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c)
{
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

// The platform's style and palette as they were before the first applyTheme, for Theme::System.
struct SystemLook
{
    QString style;
    QPalette palette;
    bool captured = false;
};

SystemLook& systemLook()
{
    static SystemLook look;
    if (!look.captured && qApp) {
        look.style = QApplication::style()->name();
        look.palette = QApplication::palette();
        look.captured = true;
    }
    return look;
}

} // namespace

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::WindowText).lightness() > palette.color(QPalette::Window).lightness();
}

namespace {

QColor toneHue(Tone tone, bool dark)
{
    switch (tone) {
    case Tone::Good:
        return dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x1a, 0x7f, 0x37);
    case Tone::Info:
        return dark ? QColor(0x58, 0xa6, 0xff) : QColor(0x09, 0x69, 0xda);
    case Tone::Wrong:
        return dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e);
    case Tone::Broken:
        return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xa4, 0x0e, 0x26);
    case Tone::Caution:
        break;
    }
    return dark ? QColor(0xd2, 0x99, 0x22) : QColor(0x9a, 0x67, 0x00);
}

} // namespace

Tone verdictTone(report::Verdict verdict)
{
    using report::Verdict;
    switch (verdict) {
    case Verdict::Pass:
        return Tone::Good;
    case Verdict::Compiled:
        return Tone::Info;
    case Verdict::Fail:
    case Verdict::CompileError:
        return Tone::Wrong;
    case Verdict::Fault:
    case Verdict::Timeout:
        return Tone::Broken;
    case Verdict::Error:
        break;
    }
    return Tone::Caution;
}

Tone verdictTone(report::CaseVerdict verdict)
{
    using report::CaseVerdict;
    switch (verdict) {
    case CaseVerdict::Pass:
        return Tone::Good;
    case CaseVerdict::Fail:
        return Tone::Wrong;
    case CaseVerdict::Fault:
        return Tone::Broken;
    case CaseVerdict::Skipped:
        break;
    }
    return Tone::Caution;
}

Tone verdictTone(report::ConfigVerdict verdict)
{
    const std::optional<report::Verdict> run = report::toRunVerdict(verdict);
    return run ? verdictTone(*run) : Tone::Caution;
}

QColor toneColor(Tone tone, const QPalette& palette)
{
    // Readable as text on both Window (labels) and Base (pages).
    const QColor window = palette.color(QPalette::Window), base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor worst = contrastRatio(text, window) < contrastRatio(text, base) ? window : base;
    return readableOn(toneHue(tone, isDarkPalette(palette)), worst, text);
}

QColor verdictColor(report::Verdict verdict, const QPalette& palette)
{
    return toneColor(verdictTone(verdict), palette);
}

QColor verdictColor(report::CaseVerdict verdict, const QPalette& palette)
{
    return toneColor(verdictTone(verdict), palette);
}

QColor verdictColor(report::ConfigVerdict verdict, const QPalette& palette)
{
    return toneColor(verdictTone(verdict), palette);
}

QColor verdictBannerColor(report::Verdict verdict)
{
    // The light palette's verdict colours carry white text at AA on either theme; the amber one is darkened a step.
    return readableOn(toneHue(verdictTone(verdict), false), Qt::white, Qt::black);
}

double contrastRatio(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor& colour, const QColor& background, const QColor& towards, double ratio)
{
    QColor c = colour;
    for (int step = 1; step <= 20 && contrastRatio(c, background) < ratio; ++step)
        c = mix(colour, towards, step / 20.0);
    return c;
}

void makeReadable(QPalette& palette)
{
    for (QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive}) {
        const QColor text = palette.color(group, QPalette::Text);
        const QColor window = palette.color(group, QPalette::Window);
        const QColor base = palette.color(group, QPalette::Base);
        // Against whichever of Window and Base is closer to the text: then it holds on both.
        const QColor worst = contrastRatio(text, window) < contrastRatio(text, base) ? window : base;
        for (QPalette::ColorRole role : {QPalette::PlaceholderText, QPalette::Link, QPalette::LinkVisited})
            palette.setColor(group, role, readableOn(palette.color(group, role), worst, text));
    }
    // Selected rows: white (or dark) text on the highlight at AA.
    const QColor selected = palette.color(QPalette::Active, QPalette::HighlightedText);
    for (QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive})
        palette.setColor(group, QPalette::Highlight,
                         readableOn(palette.color(group, QPalette::Highlight), selected,
                                    selected.lightness() > 128 ? QColor(Qt::black) : QColor(Qt::white)));
    // Disabled text is allowed to look disabled, but not to vanish (3:1, WCAG's large-text and non-text figure).
    palette.setColor(QPalette::Disabled, QPalette::WindowText,
                     readableOn(palette.color(QPalette::Disabled, QPalette::WindowText),
                                palette.color(QPalette::Disabled, QPalette::Window),
                                palette.color(QPalette::Active, QPalette::WindowText), 3.0));
    palette.setColor(QPalette::Disabled, QPalette::Text,
                     readableOn(palette.color(QPalette::Disabled, QPalette::Text),
                                palette.color(QPalette::Disabled, QPalette::Base),
                                palette.color(QPalette::Active, QPalette::Text), 3.0));
    palette.setColor(QPalette::Disabled, QPalette::ButtonText,
                     readableOn(palette.color(QPalette::Disabled, QPalette::ButtonText),
                                palette.color(QPalette::Disabled, QPalette::Button),
                                palette.color(QPalette::Active, QPalette::ButtonText), 3.0));
}

QPushButton* makePrimaryButton(const QString& objectName, QWidget* parent)
{
    auto* button = new QPushButton(parent);
    button->setObjectName(objectName);
    button->setDefault(true);
    QFont bold = button->font();
    bold.setBold(true);
    button->setFont(bold);
    return button;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x25, 0x27, 0x2b), base(0x1b, 0x1d, 0x21), text(0xe6, 0xe6, 0xe6);
    const QColor button(0x32, 0x35, 0x3b), muted(0x9a, 0xa0, 0xa6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2d, 0x32));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Light, QColor(0x4a, 0x4e, 0x55));
    p.setColor(QPalette::Midlight, QColor(0x3b, 0x3f, 0x45));
    p.setColor(QPalette::Mid, QColor(0x2c, 0x2f, 0x34));
    p.setColor(QPalette::Dark, QColor(0x16, 0x18, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xd0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, muted);
    p.setColor(QPalette::Link, QColor(0x58, 0xa6, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xbc, 0x8c, 0xff));
    p.setColor(QPalette::ToolTipBase, button);
    p.setColor(QPalette::ToolTipText, text);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x80, 0x85, 0x8c));
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    makeReadable(p);
    return p;
}

QPalette lightPalette()
{
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette(QColor(0xef, 0xef, 0xef));
    delete fusion;
    p.setColor(QPalette::PlaceholderText, QColor(0x5f, 0x63, 0x68));
    p.setColor(QPalette::Link, QColor(0x09, 0x69, 0xda));
    p.setColor(QPalette::LinkVisited, QColor(0x82, 0x50, 0xdf));
    makeReadable(p);
    return p;
}

QString themeKey(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString& key)
{
    if (key == QLatin1String("light"))
        return Theme::Light;
    if (key == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

Theme savedTheme()
{
    return themeFromKey(QSettings().value(QLatin1String(kThemeKey)).toString());
}

void applyTheme(Theme theme)
{
    SystemLook& system = systemLook();
    QSettings().setValue(QLatin1String(kThemeKey), themeKey(theme));
    if (theme == Theme::System) {
        if (QApplication::style()->name() != system.style)
            QApplication::setStyle(system.style);
        QPalette p = system.palette;
        makeReadable(p);
        QApplication::setPalette(p);
        return;
    }
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
}

} // namespace tkm::app
