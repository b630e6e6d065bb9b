#include "engine/triton/meta/decorators.h"

namespace tkm::triton {
namespace {

Diagnostic error(const SourceRange& range, std::string message)
{
    Diagnostic d;
    d.code = "autotune-not-data";
    d.range = range;
    d.message = std::move(message);
    return d;
}

// A literal int/float/bool/str (a leading minus allowed) as a constexpr value.
std::optional<ConstexprValue> literal(const ast::Expr& e)
{
    if (e.kind == ast::ExprKind::UnaryOp && e.unaryOp == ast::UnaryOpKind::Neg && e.left) {
        auto v = literal(*e.left);
        if (v && v->kind == ConstexprValue::Kind::Int) {
            v->intValue = -v->intValue;
            return v;
        }
        if (v && v->kind == ConstexprValue::Kind::Float) {
            v->floatValue = -v->floatValue;
            return v;
        }
        return std::nullopt;
    }
    if (e.kind != ast::ExprKind::Constant) {
        return std::nullopt;
    }
    switch (e.constant.kind) {
    case ast::Constant::Kind::Int: return ConstexprValue::ofInt(e.constant.intValue);
    case ast::Constant::Kind::Float: return ConstexprValue::ofFloat(e.constant.floatValue);
    case ast::Constant::Kind::Bool: return ConstexprValue::ofBool(e.constant.boolValue);
    case ast::Constant::Kind::Str: return ConstexprValue::ofStr(e.constant.strValue);
    default: return std::nullopt;
    }
}

// A list or tuple of string literals.
bool stringList(const ast::Expr& e, std::vector<std::string>& out)
{
    if (e.kind != ast::ExprKind::List && e.kind != ast::ExprKind::Tuple) {
        return false;
    }
    for (const auto& item : e.elts) {
        if (item->kind != ast::ExprKind::Constant || item->constant.kind != ast::Constant::Kind::Str) {
            return false;
        }
        out.push_back(item->constant.strValue);
    }
    return true;
}

bool isConfigCall(const ast::Expr& e)
{
    if (e.kind != ast::ExprKind::Call || !e.value) {
        return false;
    }
    const ast::Expr& f = *e.value;
    return (f.kind == ast::ExprKind::Attribute && f.id == "Config") || (f.kind == ast::ExprKind::Name && f.id == "Config");
}

std::optional<AutotuneConfig> readConfig(const ast::Expr& call, std::vector<Diagnostic>& diags)
{
    AutotuneConfig c;
    c.range = call.range;
    const ast::Expr* dict = call.args.empty() ? nullptr : call.args[0].get();
    for (const ast::Keyword& kw : call.keywords) {
        if (kw.name == "kwargs" && dict == nullptr) {
            dict = kw.value.get();
        }
    }
    if (dict == nullptr || dict->kind != ast::ExprKind::Dict) {
        diags.push_back(error(call.range, "triton.Config needs a dict literal of meta-parameters as its first "
                                          "argument, e.g. triton.Config({'BLOCK_SIZE': 1024}, num_warps=4)"));
        return std::nullopt;
    }
    for (size_t i = 0; i < dict->elts.size() && i < dict->values.size(); ++i) {
        const ast::Expr& k = *dict->elts[i];
        auto v = dict->values[i] ? literal(*dict->values[i]) : std::nullopt;
        if (k.kind != ast::ExprKind::Constant || k.constant.kind != ast::Constant::Kind::Str || !v) {
            diags.push_back(error(dict->values[i] ? dict->values[i]->range : k.range,
                                  "the autotune configs are read as data, not run: write each key as a string "
                                  "and each value as a literal number, bool or string"));
            return std::nullopt;
        }
        c.kwargs[k.constant.strValue] = *v;
    }
    for (const ast::Keyword& kw : call.keywords) {
        if (kw.name != "num_warps" && kw.name != "num_stages") {
            continue; // num_ctas, maxnreg, pre_hook: accepted, no effect here
        }
        auto v = kw.value ? literal(*kw.value) : std::nullopt;
        if (!v || v->kind != ConstexprValue::Kind::Int || v->intValue < 1) {
            diags.push_back(error(kw.range, kw.name + " must be a literal positive int"));
            return std::nullopt;
        }
        (kw.name == "num_warps" ? c.numWarps : c.numStages) = static_cast<int>(v->intValue);
    }
    return c;
}

} // namespace

std::optional<AutotuneDecl> readAutotune(const ast::FunctionDef& fn, std::vector<Diagnostic>& diagnostics)
{
    const ast::Decorator* d = fn.decorator("triton.autotune");
    if (d == nullptr) {
        d = fn.decorator("autotune");
    }
    if (d == nullptr || !d->expr || d->expr->kind != ast::ExprKind::Call) {
        return std::nullopt;
    }
    AutotuneDecl decl;
    decl.range = d->range;
    const ast::Expr& call = *d->expr;
    const ast::Expr* configs = call.args.empty() ? nullptr : call.args[0].get();
    const ast::Expr* key = call.args.size() > 1 ? call.args[1].get() : nullptr;
    for (const ast::Keyword& kw : call.keywords) {
        if (kw.name == "configs") {
            configs = kw.value.get();
        } else if (kw.name == "key") {
            key = kw.value.get();
        } else if (kw.name == "reset_to_zero" || kw.name == "restore_value") {
            auto& list = kw.name == "reset_to_zero" ? decl.resetToZero : decl.restoreValue;
            if (!kw.value || !stringList(*kw.value, list)) {
                diagnostics.push_back(error(kw.range, kw.name + " must be a list of argument names as strings, e.g. " +
                                                          kw.name + "=['out']"));
                return std::nullopt;
            }
        }
    }
    if (configs == nullptr || (configs->kind != ast::ExprKind::List && configs->kind != ast::ExprKind::Tuple)) {
        diagnostics.push_back(error(call.range, "@triton.autotune needs configs=[triton.Config(...), …] written as a "
                                                "list: the engine reads the configurations, it does not run Python"));
        return std::nullopt;
    }
    for (const auto& item : configs->elts) {
        if (!isConfigCall(*item)) {
            diagnostics.push_back(error(item->range, "each entry of configs must be a triton.Config(...) call"));
            return std::nullopt;
        }
        auto c = readConfig(*item, diagnostics);
        if (!c) {
            return std::nullopt;
        }
        decl.configs.push_back(std::move(*c));
    }
    if (key != nullptr && !stringList(*key, decl.key)) {
        diagnostics.push_back(error(key->range, "key must be a list of argument names as strings, e.g. key=['n']"));
        return std::nullopt;
    }
    return decl;
}

} // namespace tkm::triton
