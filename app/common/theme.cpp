#include "app/common/theme.h"

namespace tkm::app {

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::WindowText).lightness() > palette.color(QPalette::Window).lightness();
}

QColor verdictColor(const QString& verdict, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    if (verdict == QLatin1String("pass"))
        return dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x1a, 0x7f, 0x37);
    if (verdict == QLatin1String("compiled"))
        return dark ? QColor(0x58, 0xa6, 0xff) : QColor(0x09, 0x69, 0xda);
    if (verdict == QLatin1String("fail") || verdict == QLatin1String("compile_error"))
        return dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e);
    if (verdict == QLatin1String("fault") || verdict == QLatin1String("timeout"))
        return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xa4, 0x0e, 0x26);
    return dark ? QColor(0xd2, 0x99, 0x22) : QColor(0x9a, 0x67, 0x00);
}

} // namespace tkm::app
