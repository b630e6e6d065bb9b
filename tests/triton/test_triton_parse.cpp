// Parser of the Triton frontend: tokens and INDENT/DEDENT, the tree of the tutorials' kernels (01, 02, 03, 05,
// 06, written in our own words in tests/data/triton/), decorators kept as data, host code skipped, CPython-like
// syntax errors at exact positions, and a fuzz run that must never crash or hang.
#include "engine/triton/syntax/lexer.h"
#include "engine/triton/syntax/parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

namespace tkm::triton {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;

std::string readData(const std::string& name)
{
    std::ifstream in(std::string(TKM_SOURCE_DIR) + "/tests/data/triton/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string dump(const Expr& e);

std::string dumpSlice(const ast::SliceItem& s)
{
    switch (s.kind) {
    case ast::SliceItem::Kind::Index:
        return dump(*s.index);
    case ast::SliceItem::Kind::NewAxis:
        return "None";
    case ast::SliceItem::Kind::Ellipsis:
        return "...";
    case ast::SliceItem::Kind::Slice:
        break;
    }
    std::string out = (s.lower ? dump(*s.lower) : "") + ":" + (s.upper ? dump(*s.upper) : "");
    if (s.step) {
        out += ":" + dump(*s.step);
    }
    return out;
}

std::string join(const std::vector<ast::ExprPtr>& es)
{
    std::string out;
    for (size_t i = 0; i < es.size(); ++i) {
        out += (i ? ", " : "") + dump(*es[i]);
    }
    return out;
}

/// A compact, fully parenthesised spelling of an expression tree (the shape, not the source text).
std::string dump(const Expr& e)
{
    switch (e.kind) {
    case ExprKind::Name:
        return e.id;
    case ExprKind::Constant:
        switch (e.constant.kind) {
        case ast::Constant::Kind::None:
            return "None";
        case ast::Constant::Kind::Bool:
            return e.constant.boolValue ? "True" : "False";
        case ast::Constant::Kind::Int:
            return std::to_string(e.constant.intValue);
        case ast::Constant::Kind::Float: {
            std::ostringstream os;
            os << e.constant.floatValue << "f";
            return os.str();
        }
        case ast::Constant::Kind::Str:
            return "'" + e.constant.strValue + "'";
        case ast::Constant::Kind::Ellipsis:
            return "...";
        }
        return "?";
    case ExprKind::Attribute:
        return dump(*e.value) + "." + e.id;
    case ExprKind::Subscript: {
        std::string out = dump(*e.value) + "[";
        for (size_t i = 0; i < e.slices.size(); ++i) {
            out += (i ? ", " : "") + dumpSlice(e.slices[i]);
        }
        return out + "]";
    }
    case ExprKind::Call: {
        std::string out = dump(*e.value) + "(" + join(e.args);
        for (size_t i = 0; i < e.keywords.size(); ++i) {
            out += (i || !e.args.empty() ? ", " : "") + e.keywords[i].name + "=" + dump(*e.keywords[i].value);
        }
        return out + ")";
    }
    case ExprKind::BinOp:
        return "(" + dump(*e.left) + " " + ast::opText(e.binOp) + " " + dump(*e.right) + ")";
    case ExprKind::UnaryOp:
        return "(" + std::string(ast::opText(e.unaryOp)) + (e.unaryOp == ast::UnaryOpKind::Not ? " " : "") +
               dump(*e.left) + ")";
    case ExprKind::BoolOp: {
        std::string out = "(";
        for (size_t i = 0; i < e.elts.size(); ++i) {
            out += (i ? std::string(" ") + ast::opText(e.boolOp) + " " : "") + dump(*e.elts[i]);
        }
        return out + ")";
    }
    case ExprKind::Compare: {
        std::string out = "(" + dump(*e.left);
        for (size_t i = 0; i < e.cmpOps.size(); ++i) {
            out += std::string(" ") + ast::opText(e.cmpOps[i]) + " " + dump(*e.elts[i]);
        }
        return out + ")";
    }
    case ExprKind::IfExp:
        return "(" + dump(*e.left) + " if " + dump(*e.test) + " else " + dump(*e.right) + ")";
    case ExprKind::Tuple:
        return "(" + join(e.elts) + (e.elts.size() == 1 ? ",)" : ")");
    case ExprKind::List:
        return "[" + join(e.elts) + "]";
    case ExprKind::Dict: {
        std::string out = "{";
        for (size_t i = 0; i < e.elts.size(); ++i) {
            out += (i ? ", " : "") + dump(*e.elts[i]) + ": " + dump(*e.values[i]);
        }
        return out + "}";
    }
    case ExprKind::Lambda: {
        std::string out = "(lambda";
        for (size_t i = 0; i < e.params.size(); ++i) {
            out += (i ? ", " : " ") + e.params[i];
        }
        return out + ": " + dump(*e.left) + ")";
    }
    case ExprKind::Starred:
        return "*" + dump(*e.left);
    }
    return "?";
}

/// Parses `src` and expects no diagnostics.
ParseResult parseOk(const std::string& src)
{
    ParseResult r = parse(src);
    EXPECT_TRUE(r.diagnostics.empty()) << (r.diagnostics.empty() ? std::string()
                                                                 : formatDiagnostic(r.diagnostics[0], "kernel.py"));
    return r;
}

/// The expression of `x = <expr>` parsed as the file's only statement.
std::string expr(const std::string& text)
{
    ParseResult r = parse("@triton.jit\ndef k():\n    x = " + text + "\n");
    if (!r.diagnostics.empty()) {
        return "error: " + r.diagnostics[0].message;
    }
    auto fns = r.module.jitFunctions();
    if (fns.size() != 1 || fns[0]->body.size() != 1 || fns[0]->body[0]->kind != StmtKind::Assign) {
        return "not an assignment";
    }
    return dump(*fns[0]->body[0]->value);
}

/// The expression of a module-level `x = <expr>` (host code: lambdas allowed).
std::string hostExpr(const std::string& text)
{
    ParseResult r = parse("x = " + text + "\n");
    if (r.module.body.size() != 1 || r.module.body[0]->kind != StmtKind::Assign) {
        return "not an assignment";
    }
    return dump(*r.module.body[0]->value);
}

/// The first diagnostic as "line:column: message" ("" when there is none).
std::string firstError(const std::string& src)
{
    ParseResult r = parse(src);
    if (r.diagnostics.empty()) {
        return "";
    }
    const Diagnostic& d = r.diagnostics[0];
    return std::to_string(d.range.begin.line) + ":" + std::to_string(d.range.begin.column) + ": " + d.message;
}

std::vector<syntax::TokKind> kinds(const std::string& src)
{
    std::vector<syntax::TokKind> out;
    for (const syntax::Token& t : syntax::tokenize(src).tokens) {
        out.push_back(t.kind);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens

TEST(TritonLexer, IndentDedentAndNewlines)
{
    using K = syntax::TokKind;
    std::string src = "def f(x):\n"
                      "    if x:\n"
                      "        y = 1\n"
                      "\n"
                      "      # a comment at an odd indentation\n"
                      "   \n"
                      "    return (x +\n"
                      "  1)\n";
    std::vector<K> want = {K::Name,   K::Name, K::Op,      K::Name,    K::Op,      K::Op,       K::Newline,
                           K::Indent, K::Name, K::Name,    K::Op,      K::Newline, K::Indent,   K::Name,
                           K::Op,     K::Int,  K::Newline, K::Dedent,  K::Name,    K::Op,       K::Name,
                           K::Op,     K::Int,  K::Op,      K::Newline, K::Dedent,  K::EndMarker};
    EXPECT_EQ(kinds(src), want);
}

TEST(TritonLexer, Numbers)
{
    EXPECT_EQ(expr("0x_FF"), "255");
    EXPECT_EQ(expr("0o17"), "15");
    EXPECT_EQ(expr("0b1010_1010"), "170");
    EXPECT_EQ(expr("1_000_000"), "1000000");
    EXPECT_EQ(expr("0"), "0");
    EXPECT_EQ(expr("00"), "0");
    EXPECT_EQ(expr("1."), "1f");
    EXPECT_EQ(expr(".5"), "0.5f");
    EXPECT_EQ(expr("1e-6"), "1e-06f");
    EXPECT_EQ(expr("1_000.0"), "1000f");
    EXPECT_EQ(expr("2.5E+3"), "2500f");
    EXPECT_EQ(expr("9223372036854775807"), "9223372036854775807");
    EXPECT_EQ(expr("9223372036854775808"), "error: integer literal too large");
    EXPECT_EQ(firstError("x = 1abc\n"), "1:5: invalid decimal literal");
    EXPECT_EQ(firstError("x = 1_\n"), "1:5: invalid decimal literal");
    EXPECT_EQ(firstError("x = 0x\n"), "1:5: invalid hexadecimal literal");
    EXPECT_EQ(firstError("x = 0o8\n"), "1:7: invalid digit '8' in octal literal");
    EXPECT_EQ(firstError("x = 0b102\n"), "1:9: invalid digit '2' in binary literal");
    EXPECT_EQ(firstError("x = 012\n"),
              "1:5: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
}

TEST(TritonLexer, Strings)
{
    EXPECT_EQ(expr("'a\\tb\\n'"), "'a\tb\n'");
    EXPECT_EQ(expr("r'a\\tb'"), "'a\\tb'");
    EXPECT_EQ(expr("\"x\" 'y'  \"\"\"z\"\"\""), "'xyz'");
    EXPECT_EQ(expr("'\\x41\\u00e9\\101'"), "'A\xc3\xa9"
                                           "A'");
    EXPECT_EQ(expr("'''one\ntwo'''"), "'one\ntwo'");
    EXPECT_EQ(expr("('leaky'\n     '_relu')"), "'leaky_relu'");
    EXPECT_EQ(expr("'it''s'"), "'its'");
    EXPECT_EQ(expr("\"a\\\"b\""), "'a\"b'");
}

TEST(TritonLexer, LineJoins)
{
    ParseResult r = parseOk("x = 1 + \\\n    2\ny = [1,\n2,\n  3]\nz = {'a':\n1}\n");
    ASSERT_EQ(r.module.body.size(), 3u);
    EXPECT_EQ(dump(*r.module.body[0]->value), "(1 + 2)");
    EXPECT_EQ(r.module.body[1]->range.begin.line, 3);
    EXPECT_EQ(dump(*r.module.body[1]->value), "[1, 2, 3]");
    EXPECT_EQ(dump(*r.module.body[2]->value), "{'a': 1}");
    EXPECT_EQ(r.module.body[2]->range.end.line, 7);
}

TEST(TritonLexer, TabsFollowCPython)
{
    // A tab counts to the next multiple of 8, and must agree with tabs-as-one-column.
    parseOk("def f(x):\n\tif x:\n\t\treturn 1\n\treturn 2\n");
    EXPECT_EQ(firstError("def f(x):\n        a = 1\n\tb = 2\n"),
              "3:2: inconsistent use of tabs and spaces in indentation");
}

// ---------------------------------------------------------------------------------------------------------------
// Expressions: Python's precedence

TEST(TritonParser, Precedence)
{
    EXPECT_EQ(expr("a + b * c"), "(a + (b * c))");
    EXPECT_EQ(expr("a - b - c"), "((a - b) - c)");
    EXPECT_EQ(expr("a ** b ** c"), "(a ** (b ** c))");
    EXPECT_EQ(expr("-a ** b"), "(-(a ** b))");
    EXPECT_EQ(expr("a ** -b"), "(a ** (-b))");
    EXPECT_EQ(expr("~a + b"), "((~a) + b)");
    EXPECT_EQ(expr("a << b + c"), "(a << (b + c))");
    EXPECT_EQ(expr("a & b << c"), "(a & (b << c))");
    EXPECT_EQ(expr("a | b ^ c & d"), "(a | (b ^ (c & d)))");
    EXPECT_EQ(expr("a // b % c @ d"), "(((a // b) % c) @ d)");
    EXPECT_EQ(expr("rm[:, None] < M & rk[None, :] < K"), "(rm[:, None] < (M & rk[None, :]) < K)");
    EXPECT_EQ(expr("a < b <= c != d"), "(a < b <= c != d)");
    EXPECT_EQ(expr("a is not None and b not in c"), "((a is not None) and (b not in c))");
    EXPECT_EQ(expr("not a == b"), "(not (a == b))");
    EXPECT_EQ(expr("a or b and not c"), "(a or (b and (not c)))");
    EXPECT_EQ(expr("a and b and c"), "(a and b and c)");
    EXPECT_EQ(expr("x if c else y if d else z"), "(x if c else (y if d else z))");
    EXPECT_EQ(hostExpr("lambda args: args['n'] % 1024 == 0"), "(lambda args: ((args['n'] % 1024) == 0))");
    EXPECT_EQ(expr("f(a)(b).c[d]"), "f(a)(b).c[d]");
    EXPECT_EQ(expr("(a + b).to(tl.float16)"), "(a + b).to(tl.float16)");
    EXPECT_EQ(expr("-float('inf')"), "(-float('inf'))");
}

TEST(TritonParser, SubscriptsAndDisplays)
{
    EXPECT_EQ(expr("a[:, None]"), "a[:, None]");
    EXPECT_EQ(expr("a[None, :]"), "a[None, :]");
    EXPECT_EQ(expr("a[1:2, ::2]"), "a[1:2, ::2]");
    EXPECT_EQ(expr("a[..., 1:]"), "a[..., 1:]");
    EXPECT_EQ(expr("a[i]"), "a[i]");
    EXPECT_EQ(expr("a[i,]"), "a[i]");
    EXPECT_EQ(expr("a[:2:]"), "a[:2]");
    EXPECT_EQ(expr("()"), "()");
    EXPECT_EQ(expr("(1,)"), "(1,)");
    EXPECT_EQ(expr("1, 2"), "(1, 2)");
    EXPECT_EQ(expr("[1, [2, 3],]"), "[1, [2, 3]]");
    EXPECT_EQ(expr("{}"), "{}");
    EXPECT_EQ(expr("{'a': 1, 'b': (2, 3)}"), "{'a': 1, 'b': (2, 3)}");
    EXPECT_EQ(expr("f(*args, k=1)"), "f(*args, k=1)");
    EXPECT_EQ(expr("..."), "...");

    ParseResult r = parseOk("x = a[:, None]\n");
    const Expr& sub = *r.module.body[0]->value;
    ASSERT_EQ(sub.slices.size(), 2u);
    EXPECT_EQ(sub.slices[0].kind, ast::SliceItem::Kind::Slice);
    EXPECT_EQ(sub.slices[1].kind, ast::SliceItem::Kind::NewAxis);
    EXPECT_EQ(sub.slices[1].range.begin.column, 10);
    EXPECT_EQ(sub.range.begin.column, 5);
    EXPECT_EQ(sub.range.end.column, 15);
}

TEST(TritonParser, ParenthesizedAndOperatorRanges)
{
    ParseResult r = parseOk("mask = (rm[:, None] < M) & (rk[None, :] < K)\n");
    const Expr& e = *r.module.body[0]->value;
    ASSERT_EQ(e.kind, ExprKind::BinOp);
    EXPECT_EQ(e.binOp, ast::BinOpKind::BitAnd);
    EXPECT_FALSE(e.parenthesized);
    EXPECT_TRUE(e.left->parenthesized);
    EXPECT_TRUE(e.right->parenthesized);
    EXPECT_EQ(e.left->range.begin.column, 9); // inside the parentheses, as CPython's ast
    EXPECT_EQ(e.opRange.begin.column, 26);
    EXPECT_EQ(e.opRange.end.column, 27);
    EXPECT_EQ(e.left->opRange.begin.column, 21);

    ParseResult r2 = parseOk("m = rm[:, None] < M & rk[None, :] < K\n");
    const Expr& c = *r2.module.body[0]->value;
    ASSERT_EQ(c.kind, ExprKind::Compare);
    EXPECT_EQ(c.cmpOps.size(), 2u);
    EXPECT_FALSE(c.parenthesized);
    EXPECT_EQ(c.opRange.begin.column, 17);
    EXPECT_EQ(c.elts[0]->kind, ExprKind::BinOp);
    EXPECT_EQ(c.elts[0]->opRange.begin.column, 21);

    ParseResult r3 = parseOk("m = a is not b\n");
    EXPECT_EQ(r3.module.body[0]->value->opRange.begin.column, 7);
    EXPECT_EQ(r3.module.body[0]->value->opRange.end.column, 13);
}

// ---------------------------------------------------------------------------------------------------------------
// Statements

const Stmt& only(const ParseResult& r, size_t i = 0)
{
    return *r.module.body.at(i);
}

/// The body of the first function of `src` (a @triton.jit kernel).
const ast::Body& kernelBody(const ParseResult& r)
{
    static const ast::Body kEmpty;
    auto fns = r.module.jitFunctions();
    return fns.empty() ? kEmpty : fns[0]->body;
}

TEST(TritonParser, AssignmentForms)
{
    ParseResult r = parseOk("@triton.jit\n"
                            "def k(p):\n"
                            "    a = b = 1\n"
                            "    a, b = f()\n"
                            "    (c, d) = 1, 2\n"
                            "    p[0] = 3\n"
                            "    o.x = 4\n"
                            "    x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2\n"
                            "    x &= 1; x |= 1; x ^= 1; x <<= 1; x >>= 1; x **= 2\n"
                            "    y: tl.constexpr = 3\n"
                            "    z: int\n"
                            "    return\n");
    const ast::Body& b = kernelBody(r);
    ASSERT_EQ(b.size(), 20u);
    EXPECT_EQ(b[0]->kind, StmtKind::Assign);
    EXPECT_EQ(b[0]->targets.size(), 2u);
    EXPECT_EQ(dump(*b[1]->targets[0]), "(a, b)");
    EXPECT_EQ(dump(*b[1]->value), "f()");
    EXPECT_EQ(dump(*b[2]->targets[0]), "(c, d)");
    EXPECT_EQ(dump(*b[3]->targets[0]), "p[0]");
    EXPECT_EQ(dump(*b[4]->targets[0]), "o.x");
    const ast::BinOpKind ops[] = {ast::BinOpKind::Add,    ast::BinOpKind::Sub,      ast::BinOpKind::Mul,
                                  ast::BinOpKind::Div,    ast::BinOpKind::FloorDiv, ast::BinOpKind::Mod,
                                  ast::BinOpKind::BitAnd, ast::BinOpKind::BitOr,    ast::BinOpKind::BitXor,
                                  ast::BinOpKind::LShift, ast::BinOpKind::RShift,   ast::BinOpKind::Pow};
    for (int i = 0; i < 12; ++i) {
        EXPECT_EQ(b[5 + i]->kind, StmtKind::AugAssign);
        EXPECT_EQ(b[5 + i]->binOp, ops[i]) << i;
    }
    EXPECT_EQ(b[17]->kind, StmtKind::AnnAssign);
    EXPECT_EQ(b[19]->kind, StmtKind::Return);
    EXPECT_EQ(b[19]->value, nullptr);
    ParseResult r2 = parseOk("@triton.jit\ndef k(p):\n    y: tl.constexpr = 3\n    z: int\n    return a, b\n");
    const ast::Body& b2 = kernelBody(r2);
    ASSERT_EQ(b2.size(), 3u);
    EXPECT_EQ(b2[0]->kind, StmtKind::AnnAssign);
    EXPECT_EQ(dump(*b2[0]->annotation), "tl.constexpr");
    EXPECT_EQ(dump(*b2[0]->value), "3");
    EXPECT_EQ(b2[1]->value, nullptr);
    EXPECT_EQ(b2[2]->kind, StmtKind::Return);
    EXPECT_EQ(dump(*b2[2]->value), "(a, b)");
}

TEST(TritonParser, CompoundStatements)
{
    ParseResult r = parseOk("@triton.jit\n"
                            "def k(n, STAGE: tl.constexpr):\n"
                            "    if STAGE == 1:\n"
                            "        a = 1\n"
                            "    elif STAGE == 2: a = 2\n"
                            "    else:\n"
                            "        a = 3\n"
                            "    for i in tl.static_range(4):\n"
                            "        if i == 2: continue\n"
                            "        pass\n"
                            "    while n > 0:\n"
                            "        n -= 1\n"
                            "        break\n"
                            "    assert n >= 0, 'negative'\n"
                            "    tl.static_assert(n is not None)\n");
    const ast::Body& b = kernelBody(r);
    ASSERT_EQ(b.size(), 5u);
    const Stmt& ifs = *b[0];
    EXPECT_EQ(ifs.kind, StmtKind::If);
    EXPECT_EQ(ifs.range.begin.line, 3);
    EXPECT_EQ(ifs.range.end.column, 19);
    ASSERT_EQ(ifs.orelse.size(), 1u);
    const Stmt& elif = *ifs.orelse[0];
    EXPECT_TRUE(elif.isElif);
    EXPECT_EQ(elif.range.begin.line, 5);
    EXPECT_EQ(dump(*elif.body[0]->value), "2");
    ASSERT_EQ(elif.orelse.size(), 1u);
    EXPECT_EQ(elif.orelse[0]->range.begin.line, 7);
    const Stmt& loop = *b[1];
    EXPECT_EQ(loop.kind, StmtKind::For);
    EXPECT_EQ(dump(*loop.targets[0]), "i");
    EXPECT_EQ(dump(*loop.iter), "tl.static_range(4)");
    ASSERT_EQ(loop.body.size(), 2u);
    EXPECT_EQ(loop.body[0]->body[0]->kind, StmtKind::Continue);
    EXPECT_EQ(b[2]->kind, StmtKind::While);
    EXPECT_EQ(b[2]->body[1]->kind, StmtKind::Break);
    EXPECT_EQ(b[3]->kind, StmtKind::Assert);
    EXPECT_EQ(dump(*b[3]->value), "'negative'");
    EXPECT_EQ(b[4]->kind, StmtKind::ExprStmt);
}

TEST(TritonParser, DefsAndImports)
{
    ParseResult r = parseOk("import triton\n"
                            "import triton.language as tl, torch\n"
                            "from triton.language import math, core as c\n"
                            "from triton import (jit,\n"
                            "    cdiv)\n"
                            "BLOCK: tl.constexpr = 128\n"
                            "@jit\n"
                            "def helper(x, y: tl.tensor, z=2, w: tl.constexpr = 4) -> tl.tensor:\n"
                            "    '''Adds.'''\n"
                            "    return x + y\n");
    ASSERT_EQ(r.module.body.size(), 6u);
    EXPECT_EQ(only(r, 0).modules, std::vector<std::string>{"triton"});
    EXPECT_EQ(only(r, 1).modules, (std::vector<std::string>{"triton.language as tl", "torch"}));
    EXPECT_EQ(only(r, 2).modules, (std::vector<std::string>{"triton.language.math", "triton.language.core as c"}));
    EXPECT_EQ(only(r, 3).modules, (std::vector<std::string>{"triton.jit", "triton.cdiv"}));
    EXPECT_EQ(only(r, 4).kind, StmtKind::AnnAssign);
    const ast::FunctionDef* fn = r.module.function("helper");
    ASSERT_NE(fn, nullptr);
    EXPECT_TRUE(fn->isJit());
    EXPECT_EQ(fn->range.begin.line, 8);
    EXPECT_EQ(fn->nameRange.begin.column, 5);
    ASSERT_EQ(fn->params.size(), 4u);
    EXPECT_EQ(fn->params[0].annotation, nullptr);
    EXPECT_EQ(dump(*fn->params[1].annotation), "tl.tensor");
    EXPECT_EQ(dump(*fn->params[2].defaultValue), "2");
    EXPECT_EQ(dump(*fn->params[3].annotation), "tl.constexpr");
    EXPECT_EQ(dump(*fn->params[3].defaultValue), "4");
    EXPECT_EQ(fn->params[3].range.begin.column, 34);
    EXPECT_EQ(fn->params[3].range.end.column, 53);
    EXPECT_EQ(dump(*fn->returns), "tl.tensor");
    ASSERT_EQ(fn->body.size(), 2u);
    EXPECT_EQ(dump(*fn->body[0]->value), "'Adds.'");
}

// ---------------------------------------------------------------------------------------------------------------
// The tutorials' kernels with their host code

TEST(TritonTutorials, VectorAdd)
{
    ParseResult r = parseOk(readData("vector_add.py"));
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 1u);
    const ast::FunctionDef& k = *fns[0];
    EXPECT_EQ(k.name, "add_kernel");
    EXPECT_EQ(k.range.begin.line, 11);
    ASSERT_EQ(k.decorators.size(), 1u);
    EXPECT_EQ(k.decorators[0].name, "triton.jit");
    EXPECT_EQ(k.decorators[0].range.begin.line, 10);
    ASSERT_EQ(k.params.size(), 5u);
    EXPECT_EQ(k.params[4].name, "BLOCK_SIZE");
    EXPECT_EQ(dump(*k.params[4].annotation), "tl.constexpr");
    EXPECT_EQ(k.params[4].range.begin.line, 15);
    ASSERT_EQ(k.body.size(), 8u);
    EXPECT_EQ(dump(*k.body[2]->value), "(block_start + tl.arange(0, BLOCK_SIZE))");
    EXPECT_EQ(dump(*k.body[4]->value), "tl.load((x_ptr + offsets), mask=mask)");
    EXPECT_EQ(k.body[7]->range.begin.line, 24);
    // The host function `add` parses (it stays in the tree as a plain def); main and the docstring are skipped.
    const ast::FunctionDef* add = r.module.function("add");
    ASSERT_NE(add, nullptr);
    EXPECT_FALSE(add->isJit());
    ASSERT_EQ(r.module.skipped.size(), 2u);
    EXPECT_EQ(r.module.skipped[0].what, "expression statement");
    EXPECT_EQ(r.module.skipped[1].what, "if statement");
    EXPECT_EQ(r.module.skipped[1].range.begin.line, 35);
    EXPECT_EQ(r.module.skipped[1].range.end.line, 40);
    ASSERT_GE(r.module.body.size(), 4u);
    EXPECT_EQ(only(r, 3).kind, StmtKind::Assign);
    EXPECT_EQ(only(r, 3).targets[0]->id, "DEVICE");
}

TEST(TritonTutorials, FusedSoftmaxPersistent)
{
    ParseResult r = parseOk(readData("softmax.py"));
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 1u);
    const ast::FunctionDef& k = *fns[0];
    EXPECT_EQ(k.name, "softmax_kernel");
    ASSERT_EQ(k.params.size(), 8u);
    EXPECT_EQ(k.params[7].name, "num_stages");
    ASSERT_EQ(k.body.size(), 3u);
    const Stmt& loop = *k.body[2];
    EXPECT_EQ(loop.kind, StmtKind::For);
    EXPECT_EQ(loop.range.begin.line, 13);
    EXPECT_EQ(dump(*loop.iter), "tl.range(row_start, n_rows, row_step, num_stages=num_stages)");
    ASSERT_EQ(loop.body.size(), 12u);
    EXPECT_EQ(dump(*loop.body[4]->value), "tl.load(input_ptrs, mask=mask, other=(-float('inf')))");
    EXPECT_EQ(dump(*loop.body[5]->value), "(row - tl.max(row, axis=0))");
    // Module-level assignments that parse are kept; the class with *args and a comprehension is skipped.
    bool sawNumSm = false;
    for (const ast::StmtPtr& s : r.module.body) {
        sawNumSm = sawNumSm || (s->kind == StmtKind::Assign && s->targets[0]->id == "NUM_SM");
    }
    EXPECT_TRUE(sawNumSm);
    EXPECT_NE(r.module.function("softmax"), nullptr);
    ASSERT_EQ(r.module.skipped.size(), 1u);
    EXPECT_EQ(r.module.skipped[0].what, "class Unused");
    EXPECT_EQ(r.module.skipped[0].range.begin.line, 46);
    EXPECT_EQ(r.module.skipped[0].range.end.line, 48);
}

TEST(TritonTutorials, GroupedMatmulWithAutotune)
{
    ParseResult r = parseOk(readData("matmul.py"));
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 2u);
    const ast::FunctionDef& k = *fns[0];
    EXPECT_EQ(k.name, "matmul_kernel");
    EXPECT_EQ(fns[1]->name, "leaky_relu");
    ASSERT_EQ(k.decorators.size(), 2u);
    const ast::Decorator* tune = k.decorator("triton.autotune");
    ASSERT_NE(tune, nullptr);
    EXPECT_EQ(tune->range.begin.line, 12);
    EXPECT_EQ(tune->range.end.line, 20);
    ASSERT_EQ(tune->expr->kind, ExprKind::Call);
    ASSERT_EQ(tune->expr->keywords.size(), 2u);
    EXPECT_EQ(tune->expr->keywords[0].name, "configs");
    const Expr& configs = *tune->expr->keywords[0].value;
    ASSERT_EQ(configs.kind, ExprKind::List);
    ASSERT_EQ(configs.elts.size(), 2u);
    const Expr& c1 = *configs.elts[1];
    EXPECT_EQ(dump(*c1.value), "triton.Config");
    EXPECT_EQ(dump(*c1.args[0]), "{'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}");
    ASSERT_EQ(c1.keywords.size(), 2u);
    EXPECT_EQ(c1.keywords[1].name, "num_warps");
    EXPECT_EQ(c1.keywords[1].value->constant.intValue, 4);
    EXPECT_EQ(dump(*tune->expr->keywords[1].value), "['M', 'N', 'K']");
    EXPECT_EQ(k.decorators[1].name, "triton.jit");
    ASSERT_EQ(k.params.size(), 17u);
    EXPECT_EQ(k.params[16].name, "ACTIVATION");
    EXPECT_EQ(k.range.begin.line, 22);
    EXPECT_EQ(dump(*k.body[0]->value), "'Computes C = A x B with grouped ordering of the program ids.'");
    const Stmt* ifAct = nullptr;
    for (const ast::StmtPtr& s : k.body) {
        if (s->kind == StmtKind::If) {
            ifAct = s.get();
        }
    }
    ASSERT_NE(ifAct, nullptr);
    EXPECT_EQ(dump(*ifAct->test), "(ACTIVATION == 'leaky_relu')");
    EXPECT_EQ(ifAct->range.begin.line, 56);
    // get_autotune_config uses a comprehension: a host def, skipped whole; matmul() parses.
    ASSERT_EQ(r.module.skipped.size(), 1u);
    EXPECT_EQ(r.module.skipped[0].what, "def get_autotune_config");
    EXPECT_EQ(r.module.function("get_autotune_config"), nullptr);
    EXPECT_NE(r.module.function("matmul"), nullptr);
}

TEST(TritonTutorials, LayerNormForward)
{
    ParseResult r = parseOk(readData("layer_norm.py"));
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 1u);
    const ast::FunctionDef& k = *fns[0];
    EXPECT_EQ(k.name, "_layer_norm_fwd_fused");
    ASSERT_EQ(k.params.size(), 10u);
    const Stmt& yInc = *k.body[1];
    EXPECT_EQ(yInc.kind, StmtKind::AugAssign);
    EXPECT_EQ(dump(*yInc.targets[0]), "Y");
    EXPECT_EQ(dump(*yInc.value), "(row * stride)");
    EXPECT_EQ(yInc.range.begin.line, 27);
    EXPECT_EQ(dump(*k.body[5]->body[1]->value), "tl.load((X + cols), mask=(cols < N), other=0f).to(tl.float32)");
    ASSERT_EQ(r.module.skipped.size(), 2u);
    EXPECT_EQ(r.module.skipped[0].what, "try statement");
    EXPECT_EQ(r.module.skipped[0].range.begin.line, 6);
    EXPECT_EQ(r.module.skipped[0].range.end.line, 10);
    EXPECT_EQ(r.module.skipped[1].what, "class LayerNorm");
    EXPECT_EQ(r.module.body.back()->kind, StmtKind::Assign); // layer_norm = LayerNorm.apply
}

TEST(TritonTutorials, AttentionForwardWithBlockPointers)
{
    ParseResult r = parseOk(readData("attention.py"));
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 2u);
    const ast::FunctionDef& inner = *fns[0];
    EXPECT_EQ(inner.name, "_attn_fwd_inner");
    const Stmt& stage = *inner.body[0];
    EXPECT_EQ(stage.kind, StmtKind::If);
    EXPECT_EQ(dump(*stage.test), "(STAGE == 1)");
    EXPECT_EQ(dump(*stage.body[0]->targets[0]), "(lo, hi)");
    EXPECT_EQ(dump(*stage.body[0]->value), "(0, (start_m * BLOCK_M))");
    const Stmt& ret = *inner.body.back();
    EXPECT_EQ(ret.kind, StmtKind::Return);
    EXPECT_EQ(dump(*ret.value), "(acc, l_i, m_i)");
    const ast::FunctionDef& fwd = *fns[1];
    EXPECT_EQ(fwd.name, "_attn_fwd");
    const ast::Decorator* tune = fwd.decorator("triton.autotune");
    ASSERT_NE(tune, nullptr);
    EXPECT_EQ(dump(*tune->expr), "triton.autotune(list(filter(keep, configs)), key=['N_CTX', 'HEAD_DIM'])");
    const Stmt* qptr = nullptr;
    for (const ast::StmtPtr& s : fwd.body) {
        if (s->kind == StmtKind::Assign && s->targets[0]->id == "Q_block_ptr") {
            qptr = s.get();
        }
    }
    ASSERT_NE(qptr, nullptr);
    EXPECT_EQ(qptr->range.begin.line, 90);
    EXPECT_EQ(qptr->range.end.line, 97);
    EXPECT_EQ(qptr->value->keywords.size(), 6u);
    EXPECT_EQ(dump(*qptr->value->keywords[5].value), "(1, 0)");
    EXPECT_EQ(dump(*fwd.body.back()->value), "tl.store(O_block_ptr, acc.to(Out.type.element_ty))");
}

// ---------------------------------------------------------------------------------------------------------------
// Syntax errors: CPython 3.11's messages, one per root cause, at CPython's positions

const char* const kHead = "@triton.jit\ndef k(x_ptr, n):\n"; // the kernel's body starts on line 3

struct ErrorCase
{
    const char* body; ///< lines after kHead
    const char* want; ///< "line:column: message"
    const char* code; ///< Diagnostic::code
};

TEST(TritonSyntaxErrors, CPythonMessagesAndPositions)
{
    const ErrorCase cases[] = {
        {"    x = tl.load(x_ptr +\n    y = 1\n    return y\n", "3:16: '(' was never closed", "syntax-unclosed"},
        {"    x = (1,\n", "3:9: '(' was never closed", "syntax-unclosed"},
        {"    x = tl.load(x_ptr + (1]\n", "3:27: closing parenthesis ']' does not match opening parenthesis '('",
         "syntax-mismatched"},
        {"    x = tl.load(x_ptr,\n       1]\n",
         "4:9: closing parenthesis ']' does not match opening parenthesis '(' on line 3", "syntax-mismatched"},
        {"    x = 1)\n", "3:10: unmatched ')'", "syntax-unmatched"},
        {"    for i in range(n)\n        x = 1\n", "3:22: expected ':'", "syntax-expected-colon"},
        {"    if n > 1\n        x = 1\n", "3:13: expected ':'", "syntax-expected-colon"},
        {"    while n\n        n -= 1\n", "3:12: expected ':'", "syntax-expected-colon"},
        {"    if n:\n        pass\n    else\n        pass\n", "5:9: expected ':'", "syntax-expected-colon"},
        {"    pass\n@triton.jit\ndef g(x)\n    pass\n", "5:9: expected ':'", "syntax-expected-colon"},
        {"    x = 1 2\n", "3:11: invalid syntax", "syntax-invalid"},
        {"    x = = 2\n", "3:9: invalid syntax", "syntax-invalid"},
        {"    x = tl.load(x_ptr mask=m)\n", "3:17: invalid syntax. Perhaps you forgot a comma?",
         "syntax-missing-comma"},
        {"    x = [1 2]\n", "3:10: invalid syntax. Perhaps you forgot a comma?", "syntax-missing-comma"},
        {"    pid = 1\n    for i in range(3):\n    x = 1\n",
         "5:5: expected an indented block after 'for' statement on line 4", "syntax-indent"},
        {"    if n:\n    x = 1\n", "4:5: expected an indented block after 'if' statement on line 3", "syntax-indent"},
        {"    while n:\n", "4:1: expected an indented block after 'while' statement on line 3", "syntax-indent"},
        {"    if n:\n        pass\n    else:\n    pass\n",
         "6:5: expected an indented block after 'else' statement on line 5", "syntax-indent"},
        {"    if n:\n        x = 1\n      y = 2\n", "5:7: unindent does not match any outer indentation level",
         "syntax-indent"},
        {"    x = 1\n        y = 2\n", "4:9: unexpected indent", "syntax-indent"},
        {"    x = 1\n    s = \"abc\n    y = 2\n", "4:9: unterminated string literal (detected at line 4)",
         "syntax-string"},
        {"    s = 'abc\\\n    def'\n    t = 'x\n", "5:9: unterminated string literal (detected at line 5)",
         "syntax-string"},
        {"    \"\"\"doc\n    x = 1\n    y = 2\n", "3:5: unterminated triple-quoted string literal (detected at line 5)",
         "syntax-string"},
        {"    x = 12ab\n", "3:9: invalid decimal literal", "syntax-number"},
        {"    tl.load(x_ptr) = 1\n", "3:5: cannot assign to function call here. Maybe you meant '==' instead of '='?",
         "syntax-assign-target"},
        {"    a + b = 1\n", "3:5: cannot assign to expression here. Maybe you meant '==' instead of '='?",
         "syntax-assign-target"},
        {"    f(x) += 1\n", "3:5: 'function call' is an illegal expression for augmented assignment",
         "syntax-assign-target"},
        {"    if n = 1:\n        pass\n", "3:8: invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
         "syntax-invalid"},
        {"    for i in range(3):\n        pass\n    else:\n        pass\n",
         "5:5: 'else' clauses on 'for' loops are not supported in a @triton.jit kernel", "syntax-unsupported"},
        {"    while n:\n        n -= 1\n    else:\n        pass\n",
         "5:5: 'else' clauses on 'while' loops are not supported in a @triton.jit kernel", "syntax-unsupported"},
        {"    x = f(a=1, 2)\n", "3:16: positional argument follows keyword argument",
         "syntax-positional-after-keyword"},
        {"    x = f(a + 1=2)\n", "3:11: expression cannot contain assignment, perhaps you meant \"==\"?",
         "syntax-keyword-arg"},
        {"    x = 1 if n\n", "3:15: expected 'else' after 'if' expression", "syntax-expected-else"},
        {"    x = 1 + \\ 2\n", "3:14: unexpected character after line continuation character", "syntax-continuation"},
        {"    x = 1 $ 2\n", "3:11: invalid syntax", "syntax-invalid"},
        {"    x = 1\n\tz = 2\n", "4:2: inconsistent use of tabs and spaces in indentation", "syntax-indent"},
        // The unclosed bracket wins over a later generic error, as CPython's second tokenizer pass does.
        {"    x = (1 +\n    y = 2 3\n", "3:9: '(' was never closed", "syntax-unclosed"},
        // A tokenizer error later in the file wins over a generic parser error (CPython reports it first).
        {"    for i in range(3)\n        pass\nx = \"abc\n", "5:5: unterminated string literal (detected at line 5)",
         "syntax-string"},
        // ... but not over an indentation error the parser found first.
        {"    x = 1\n        y = 2\nz = 'abc\n", "4:9: unexpected indent", "syntax-indent"},
    };
    for (const ErrorCase& c : cases) {
        std::string src = std::string(kHead) + c.body;
        ParseResult r = parse(src);
        ASSERT_EQ(r.diagnostics.size(), 1u) << src;
        EXPECT_EQ(firstError(src), c.want) << src;
        EXPECT_EQ(r.diagnostics[0].code, c.code) << src;
        EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
    }
}

TEST(TritonSyntaxErrors, StarParametersAndNesting)
{
    EXPECT_EQ(firstError("@triton.jit\ndef k(*args):\n    pass\n"),
              "2:7: '*args' parameters are not supported in a @triton.jit kernel");
    EXPECT_EQ(firstError("@triton.jit\ndef k(a=1, b):\n    pass\n"),
              "2:12: non-default argument follows default argument");
    EXPECT_EQ(firstError("x = " + std::string(250, '(') + "1" + std::string(250, ')') + "\n"),
              "1:205: too many nested parentheses");
    std::string deep = "@triton.jit\ndef k():\n    x = " + std::string(5000, '-') + "1\n";
    EXPECT_EQ(firstError(deep), "3:307: expression is too deeply nested");
    std::string nots = "@triton.jit\ndef k():\n    x = ";
    for (int i = 0; i < 2000; ++i) {
        nots += "not ";
    }
    EXPECT_NE(firstError(nots + "x\n"), "");
}

TEST(TritonSyntaxErrors, FormattedLikeAnyDiagnostic)
{
    ParseResult r = parse("@triton.jit\ndef k(x):\n    for i in range(4)\n        pass\n");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(formatDiagnostic(r.diagnostics[0], "kernel.py"), "kernel.py:3:22: error: expected ':'");
}

// ---------------------------------------------------------------------------------------------------------------
// Python outside the subset

TEST(TritonSubset, UnsupportedStatementsInKernelsBecomeOther)
{
    ParseResult r = parseOk("@triton.jit\n"
                            "def k(x):\n"
                            "    with x:\n"
                            "        pass\n"
                            "    try:\n"
                            "        pass\n"
                            "    except Exception:\n"
                            "        pass\n"
                            "    y = [i for i in range(3)]\n"
                            "    tl.device_print(f\"{x}\")\n"
                            "    f = lambda v: v\n"
                            "    global g\n"
                            "    del y\n"
                            "    raise ValueError('no')\n"
                            "    s = {1, 2}\n"
                            "    def inner():\n"
                            "        return 1\n"
                            "    return x\n");
    const ast::Body& b = kernelBody(r);
    const char* const want[] = {"with", "try",   "list comprehension", "f-string", "lambda", "global",
                                "del",  "raise", "set literal",        "def"};
    ASSERT_EQ(b.size(), 11u);
    for (size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(b[i]->kind, StmtKind::Other) << i;
        EXPECT_EQ(b[i]->keyword, want[i]) << i;
    }
    EXPECT_EQ(b[0]->range.begin.line, 3);
    EXPECT_EQ(b[2]->range.begin.line, 9);
    EXPECT_EQ(b[2]->range.begin.column, 10); // the comprehension's element
    EXPECT_EQ(b[10]->kind, StmtKind::Return);
    EXPECT_EQ(otherStatementMessage(*b[0]), "'with' statements are not supported in a @triton.jit kernel");
    EXPECT_EQ(otherStatementMessage(*b[2]), "list comprehensions are not supported in a @triton.jit kernel");
    EXPECT_EQ(otherStatementMessage(*b[3]), "f-strings are not supported in a @triton.jit kernel");
    EXPECT_EQ(otherStatementMessage(*b[4]), "lambda expressions are not supported in a @triton.jit kernel");
}

TEST(TritonSubset, HostCodeIsSkipped)
{
    ParseResult r = parseOk("import torch\n"
                            "@torch.compile\n"
                            "def host(*args, **kwargs):\n"
                            "    return [a for a in args]\n"
                            "\n"
                            "class Model(torch.nn.Module):\n"
                            "    def forward(self, x):\n"
                            "        return x\n"
                            "with torch.no_grad():\n"
                            "    y = 1\n"
                            "try:\n"
                            "    import apex\n"
                            "except ImportError:\n"
                            "    apex = None\n"
                            "finally:\n"
                            "    pass\n"
                            "data = {k: v for k, v in zip('ab', (1, 2))}\n"
                            "print(f'{data!r}')\n"
                            "torch.backends.cuda.matmul.allow_tf32 = True\n"
                            "for i in range(3): print(i)\n"
                            "else: pass\n"
                            "@triton.heuristics({'EVEN': lambda args: args['n'] % 1024 == 0})\n"
                            "@triton.jit\n"
                            "def k(x, n, EVEN: tl.constexpr):\n"
                            "    pass\n"
                            "if __name__ == \"__main__\":\n"
                            "    k[(1,)](x, 4)\n"
                            "else:\n"
                            "    pass\n");
    std::vector<std::string> what;
    for (const ast::SkippedHost& s : r.module.skipped) {
        what.push_back(s.what + "@" + std::to_string(s.range.begin.line) + "-" + std::to_string(s.range.end.line));
    }
    EXPECT_EQ(what, (std::vector<std::string>{"decorated def host@2-4", "class Model@6-8", "with statement@9-10",
                                              "try statement@11-16", "assignment@17-17", "expression statement@18-18",
                                              "assignment@19-19", "for loop@20-21", "if statement@26-29"}));
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 1u);
    const ast::Decorator* h = fns[0]->decorator("triton.heuristics");
    ASSERT_NE(h, nullptr);
    ASSERT_EQ(h->expr->args.size(), 1u);
    EXPECT_EQ(dump(*h->expr->args[0]), "{'EVEN': (lambda args: ((args['n'] % 1024) == 0))}");
    EXPECT_EQ(r.module.body.size(), 2u); // import torch, the kernel
}

TEST(TritonSubset, ModernPythonInHostCode)
{
    // PEP 701 f-strings reuse the outer quote inside replacement fields; walrus in calls and conditions.
    ParseResult r = parseOk("d = {'k': 1}\n"
                            "print(f\"{d[\"k\"]} {'{'} {{literal}} {d['k']:>{4}}\")\n"
                            "print(f'''{d[\"k\"]}\n{d['k']}''')\n"
                            "if (n := len(d)) > 0: print(n)\n"
                            "print(m := 3)\n"
                            "@triton.jit\n"
                            "def k(x):\n"
                            "    if y := x:\n"
                            "        pass\n"
                            "    return x\n");
    ASSERT_EQ(r.module.jitFunctions().size(), 1u);
    const ast::Body& b = kernelBody(r);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0]->kind, StmtKind::Other);
    EXPECT_EQ(b[0]->keyword, "assignment expression");
    EXPECT_EQ(r.module.skipped.size(), 4u);
    EXPECT_EQ(firstError("x = f'{a'\n"), "1:5: unterminated string literal (detected at line 1)");
}

TEST(TritonSubset, DecoratorOutsideTheSubsetKeepsItsName)
{
    ParseResult r = parseOk("@triton.autotune(configs=[triton.Config({'B': b}) for b in (64, 128)], key=['n'])\n"
                            "@triton.jit\n"
                            "def k(x, n, B: tl.constexpr):\n"
                            "    pass\n");
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 1u);
    ASSERT_NE(fns[0]->decorator("triton.autotune"), nullptr);
    EXPECT_EQ(dump(*fns[0]->decorators[0].expr), "triton.autotune");
}

// ---------------------------------------------------------------------------------------------------------------
// Edge cases of the file itself

TEST(TritonLexer, FileEdges)
{
    EXPECT_TRUE(parse("").diagnostics.empty());
    ParseResult bom = parseOk("\xEF\xBB\xBF@triton.jit\ndef k(x):\n    return x\n");
    ASSERT_EQ(bom.module.jitFunctions().size(), 1u);
    EXPECT_EQ(bom.module.jitFunctions()[0]->decorators[0].range.begin.column, 1);
    EXPECT_TRUE(parse("# only a comment").diagnostics.empty());
    EXPECT_TRUE(parse("\n\n   \n\t\n").diagnostics.empty());
    ParseResult noNewline = parseOk("@triton.jit\ndef k(x):\n    return x");
    ASSERT_EQ(noNewline.module.jitFunctions().size(), 1u);
    ParseResult crlf = parseOk("@triton.jit\r\ndef k(x):\r\n    if x:\r\n        return x\r\n    return 1\r\n");
    ASSERT_EQ(crlf.module.jitFunctions().size(), 1u);
    EXPECT_EQ(crlf.module.jitFunctions()[0]->body.size(), 2u);
    EXPECT_EQ(crlf.module.jitFunctions()[0]->body[1]->range.begin.line, 5);
    // A comment at column 0 inside a block, and a join back to column 0 inside brackets.
    ParseResult odd = parseOk("@triton.jit\n"
                              "def k(x):\n"
                              "    a = (1 +\n"
                              "2)\n"
                              "# comment at column 0\n"
                              "          # comment deeper\n"
                              "    b = [a,\n"
                              "  a]\n"
                              "    return b\n");
    ASSERT_EQ(odd.module.jitFunctions().size(), 1u);
    EXPECT_EQ(odd.module.jitFunctions()[0]->body.size(), 3u);
    EXPECT_EQ(firstError("x = 1\0y = 2\n"), "");
    EXPECT_EQ(firstError(std::string("@triton.jit\ndef k():\n    x = 1\0\n", 32)),
              "3:10: source code cannot contain null bytes");
}

// ---------------------------------------------------------------------------------------------------------------
// Never crash, never hang: random mutations of a real kernel

TEST(TritonFuzz, MutationsOfARealKernel)
{
    const std::string base = readData("matmul.py") + readData("attention.py");
    ASSERT_GT(base.size(), 1000u);
    const std::string alphabet = "()[]{}:,;.=+-*/%&|^~<>!@#'\"\\\n\t  0123456789abcxyz_eEjJ";
    std::mt19937 rng(12345);
    auto start = std::chrono::steady_clock::now();
    int runs = 0;
    for (; runs < 3000; ++runs) {
        std::string s = base;
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !s.empty(); ++e) {
            size_t at = rng() % s.size();
            switch (rng() % 5) {
            case 0:
                s.erase(at, 1 + rng() % 3);
                break;
            case 1:
                s.insert(at, 1, alphabet[rng() % alphabet.size()]);
                break;
            case 2:
                s[at] = static_cast<char>(rng() % 256);
                break;
            case 3:
                s.insert(at, s.substr(rng() % s.size(), rng() % 40));
                break;
            default:
                s = s.substr(0, at);
                break;
            }
        }
        ParseResult r = parse(s);
        ASSERT_LE(r.diagnostics.size(), 1u);
        for (const Diagnostic& d : r.diagnostics) {
            ASSERT_GE(d.range.begin.line, 1);
            ASSERT_GE(d.range.begin.column, 1);
            ASSERT_FALSE(d.message.empty());
            ASSERT_EQ(d.code.rfind("syntax-", 0), 0u) << d.code;
        }
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(2)) {
            break;
        }
    }
    EXPECT_GT(runs, 20);
    std::printf("fuzz: %d mutations\n", runs);
    // Random bytes, and pathological nesting.
    for (int i = 0; i < 300; ++i) {
        std::string s(rng() % 200, ' ');
        for (char& c : s) {
            c = static_cast<char>(rng() % 256);
        }
        EXPECT_LE(parse(s).diagnostics.size(), 1u);
    }
    EXPECT_EQ(parse(std::string(100000, '[')).diagnostics.size(), 1u);
    EXPECT_EQ(parse(std::string(100000, ' ') + "x").diagnostics.size(), 1u);
    std::string indents;
    for (int i = 0; i < 150; ++i) {
        indents += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
    }
    EXPECT_EQ(parse("def f():\n" + indents).diagnostics.size(), 1u);
}

TEST(TritonSyntaxErrors, MissingCommaUnderlinesBothExpressions)
{
    ParseResult r = parse("@triton.jit\ndef k(x):\n    y = tl.load(x + 1 mask=m)\n");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.code, "syntax-missing-comma");
    EXPECT_EQ(d.range.begin.column, 17); // `x + 1`
    EXPECT_EQ(d.range.end.column, 27);   // through `mask` (the second expression)
}

TEST(TritonParser, DecoratorNames)
{
    ParseResult r = parseOk("from triton import jit\n"
                            "@jit\n"
                            "def a(x):\n"
                            "    return x[(0, 1)]\n"
                            "@triton.jit(debug=True)\n"
                            "def b(x):\n"
                            "    return x\n"
                            "def host(x):\n"
                            "    return x\n");
    auto fns = r.module.jitFunctions();
    ASSERT_EQ(fns.size(), 2u);
    EXPECT_EQ(fns[0]->decorators[0].name, "jit");
    EXPECT_EQ(fns[1]->decorators[0].name, "triton.jit");
    EXPECT_EQ(dump(*fns[1]->decorators[0].expr), "triton.jit(debug=True)");
    EXPECT_EQ(fns[0]->body[0]->value->slices.size(), 1u);
    EXPECT_EQ(dump(*fns[0]->body[0]->value), "x[(0, 1)]");
    ASSERT_NE(r.module.function("host"), nullptr);
    EXPECT_FALSE(r.module.function("host")->isJit());
    EXPECT_EQ(r.module.function("missing"), nullptr);
}

} // namespace
} // namespace tkm::triton
