#include "app/editor/syntaxtheme.h"

#include "app/common/theme.h"

#include <QFontDatabase>

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>

namespace tkm::app {

namespace {

/// QsciLexerCPP with CUDA's words: set 1 (keywords) gains the qualifiers, set 2 (secondary) the built-ins.
class CudaLexer : public QsciLexerCPP
{
public:
    explicit CudaLexer(QObject* parent) : QsciLexerCPP(parent)
    {
        m_keywords = QByteArray(QsciLexerCPP::keywords(1)) + ' ' + cudaTypeKeywords().join(QLatin1Char(' ')).toLatin1();
        m_builtins = cudaBuiltins().join(QLatin1Char(' ')).toLatin1();
    }
    const char* language() const override { return "CUDA"; }
    const char* keywords(int set) const override
    {
        if (set == 1)
            return m_keywords.constData();
        if (set == 2)
            return m_builtins.constData();
        return QsciLexerCPP::keywords(set);
    }

private:
    QByteArray m_keywords;
    QByteArray m_builtins;
};

/// Python with Triton's names highlighted (set 2: HighlightedIdentifier).
class TritonLexer : public QsciLexerPython
{
public:
    explicit TritonLexer(QObject* parent) : QsciLexerPython(parent) {}
    const char* keywords(int set) const override
    {
        if (set == 2)
            return "tl triton torch constexpr program_id arange load store zeros cdiv jit autotune Config dot exp max "
                   "sum "
                   "where maximum minimum num_programs float32 float16 bfloat16 int32 int64";
        return QsciLexerPython::keywords(set);
    }
};

} // namespace

SyntaxColors syntaxColors(const QPalette& palette)
{
    SyntaxColors c;
    c.background = palette.color(QPalette::Base);
    c.text = palette.color(QPalette::Text);
    if (isDarkPalette(palette)) {
        c.keyword = QColor(0xff, 0x7b, 0x72);
        c.builtin = QColor(0xd2, 0xa8, 0xff);
        c.type = QColor(0x79, 0xc0, 0xff);
        c.string = QColor(0xa5, 0xd6, 0xff);
        c.comment = QColor(0x8b, 0x94, 0x9e);
        c.number = QColor(0x79, 0xc0, 0xff);
        c.preprocessor = QColor(0xff, 0xa6, 0x57);
        c.margin = c.background.lighter(120);
        c.marginText = QColor(0x8b, 0x94, 0x9e);
        c.caretLine = c.background.lighter(140);
    } else {
        c.keyword = QColor(0xcf, 0x22, 0x2e);
        c.builtin = QColor(0x82, 0x50, 0xdf);
        c.type = QColor(0x05, 0x50, 0xae);
        c.string = QColor(0x0a, 0x30, 0x69);
        c.comment = QColor(0x6e, 0x77, 0x81);
        c.number = QColor(0x05, 0x50, 0xae);
        c.preprocessor = QColor(0x95, 0x38, 0x00);
        c.margin = c.background.darker(106);
        c.marginText = QColor(0x6e, 0x77, 0x81);
        c.caretLine = QColor(0xff, 0xf8, 0xc5);
    }
    return c;
}

QFont codeFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    return font;
}

QStringList cudaTypeKeywords()
{
    return {QStringLiteral("__global__"),
            QStringLiteral("__device__"),
            QStringLiteral("__host__"),
            QStringLiteral("__shared__"),
            QStringLiteral("__constant__"),
            QStringLiteral("__restrict__"),
            QStringLiteral("__forceinline__"),
            QStringLiteral("__launch_bounds__"),
            QStringLiteral("__half"),
            QStringLiteral("__half2"),
            QStringLiteral("__nv_bfloat16"),
            QStringLiteral("float2"),
            QStringLiteral("float4"),
            QStringLiteral("int2"),
            QStringLiteral("int4"),
            QStringLiteral("dim3"),
            QStringLiteral("size_t"),
            QStringLiteral("int64_t"),
            QStringLiteral("uint32_t")};
}

QStringList cudaBuiltins()
{
    return {QStringLiteral("threadIdx"),
            QStringLiteral("blockIdx"),
            QStringLiteral("blockDim"),
            QStringLiteral("gridDim"),
            QStringLiteral("warpSize"),
            QStringLiteral("__syncthreads"),
            QStringLiteral("__syncwarp"),
            QStringLiteral("__shfl_sync"),
            QStringLiteral("__shfl_xor_sync"),
            QStringLiteral("__shfl_down_sync"),
            QStringLiteral("atomicAdd"),
            QStringLiteral("atomicMax"),
            QStringLiteral("__expf"),
            QStringLiteral("expf"),
            QStringLiteral("exp"),
            QStringLiteral("fmaxf"),
            QStringLiteral("fminf"),
            QStringLiteral("__half2float"),
            QStringLiteral("__float2half"),
            QStringLiteral("__ldg"),
            QStringLiteral("INFINITY"),
            QStringLiteral("BLOCK_SIZE"),
            QStringLiteral("NUM_WARPS"),
            QStringLiteral("BLOCK_M"),
            QStringLiteral("BLOCK_N"),
            QStringLiteral("BLOCK_K"),
            QStringLiteral("GROUP_SIZE_M")};
}

QsciLexer* makeLexer(const QString& language, const QPalette& palette, QObject* parent)
{
    const SyntaxColors c = syntaxColors(palette);
    const QFont font = codeFont();
    const QString lang = language.toLower();
    if (lang == QLatin1String("python") || lang == QLatin1String("triton") || lang == QLatin1String("py")) {
        auto* lexer = new TritonLexer(parent);
        lexer->setDefaultFont(font);
        lexer->setFont(font, -1);
        lexer->setDefaultPaper(c.background);
        lexer->setPaper(c.background, -1);
        lexer->setDefaultColor(c.text);
        lexer->setColor(c.text, -1);
        lexer->setColor(c.comment, QsciLexerPython::Comment);
        lexer->setColor(c.comment, QsciLexerPython::CommentBlock);
        lexer->setColor(c.number, QsciLexerPython::Number);
        for (int s : {QsciLexerPython::DoubleQuotedString, QsciLexerPython::SingleQuotedString,
                      QsciLexerPython::TripleSingleQuotedString, QsciLexerPython::TripleDoubleQuotedString,
                      QsciLexerPython::UnclosedString, QsciLexerPython::DoubleQuotedFString,
                      QsciLexerPython::SingleQuotedFString})
            lexer->setColor(c.string, s);
        lexer->setColor(c.keyword, QsciLexerPython::Keyword);
        lexer->setColor(c.type, QsciLexerPython::ClassName);
        lexer->setColor(c.type, QsciLexerPython::FunctionMethodName);
        lexer->setColor(c.builtin, QsciLexerPython::HighlightedIdentifier);
        lexer->setColor(c.preprocessor, QsciLexerPython::Decorator);
        lexer->setColor(c.text, QsciLexerPython::Operator);
        return lexer;
    }
    if (lang == QLatin1String("cuda") || lang == QLatin1String("cpp") || lang == QLatin1String("c++") ||
        lang == QLatin1String("cu") || lang == QLatin1String("c")) {
        auto* lexer = new CudaLexer(parent);
        lexer->setDefaultFont(font);
        lexer->setFont(font, -1);
        lexer->setDefaultPaper(c.background);
        lexer->setPaper(c.background, -1);
        lexer->setDefaultColor(c.text);
        lexer->setColor(c.text, -1);
        // Active and inactive (#if 0) variants of each style.
        for (int offset : {0, 64}) {
            for (int s : {QsciLexerCPP::Comment, QsciLexerCPP::CommentLine, QsciLexerCPP::CommentDoc,
                          QsciLexerCPP::CommentLineDoc})
                lexer->setColor(c.comment, s + offset);
            lexer->setColor(c.number, QsciLexerCPP::Number + offset);
            lexer->setColor(c.keyword, QsciLexerCPP::Keyword + offset);
            for (int s : {QsciLexerCPP::DoubleQuotedString, QsciLexerCPP::SingleQuotedString,
                          QsciLexerCPP::UnclosedString, QsciLexerCPP::RawString})
                lexer->setColor(c.string, s + offset);
            lexer->setColor(c.preprocessor, QsciLexerCPP::PreProcessor + offset);
            lexer->setColor(c.text, QsciLexerCPP::Operator + offset);
            lexer->setColor(c.text, QsciLexerCPP::Identifier + offset);
            lexer->setColor(c.builtin, QsciLexerCPP::KeywordSet2 + offset);
            lexer->setColor(c.type, QsciLexerCPP::GlobalClass + offset);
        }
        return lexer;
    }
    return nullptr;
}

} // namespace tkm::app
