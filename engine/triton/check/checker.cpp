// Entry of the checker: binds the kernel's signature (runtime parameters → IR parameters in order, constexpr
// parameters → folded values from the spec's meta or their defaults), resolves names (locals, then the
// module's constexpr globals, jit functions and `tl`/`triton`) and reports diagnostics.
#include "engine/triton/check/checker_impl.h"

#include <sstream>

namespace tkm::triton {

ConstexprValue ConstexprValue::ofInt(int64_t v)
{
    ConstexprValue c;
    c.kind = Kind::Int;
    c.intValue = v;
    return c;
}

ConstexprValue ConstexprValue::ofFloat(double v)
{
    ConstexprValue c;
    c.kind = Kind::Float;
    c.floatValue = v;
    return c;
}

ConstexprValue ConstexprValue::ofBool(bool v)
{
    ConstexprValue c;
    c.kind = Kind::Bool;
    c.boolValue = v;
    return c;
}

ConstexprValue ConstexprValue::ofStr(std::string v)
{
    ConstexprValue c;
    c.kind = Kind::Str;
    c.strValue = std::move(v);
    return c;
}

ConstexprValue ConstexprValue::ofDType(ir::Elem v)
{
    ConstexprValue c;
    c.kind = Kind::DType;
    c.dtype = v;
    return c;
}

std::string ConstexprValue::str() const
{
    switch (kind) {
    case Kind::None:
        return "None";
    case Kind::Int:
        return std::to_string(intValue);
    case Kind::Float:
        return sema::Value::ofFloat(floatValue).describe();
    case Kind::Bool:
        return boolValue ? "True" : "False";
    case Kind::Str:
        return "'" + strValue + "'";
    case Kind::DType:
        return sema::Value::ofElem(dtype).describe();
    }
    return "?";
}

namespace {

bool isConstexprAnnotation(const ast::Expr* a)
{
    if (!a) {
        return false;
    }
    if (a->kind == ast::ExprKind::Attribute) {
        return a->id == "constexpr";
    }
    if (a->kind == ast::ExprKind::Name) {
        return a->id == "constexpr";
    }
    if (a->kind == ast::ExprKind::Constant && a->constant.kind == ast::Constant::Kind::Str) {
        return a->constant.strValue.find("constexpr") != std::string::npos;
    }
    return false;
}

std::set<std::string> heuristicsNames(const ast::FunctionDef& fn)
{
    std::set<std::string> out;
    for (const ast::Decorator& d : fn.decorators) {
        if (d.name != "triton.heuristics" || !d.expr || d.expr->kind != ast::ExprKind::Call) {
            continue;
        }
        for (const auto& a : d.expr->args) {
            if (a->kind == ast::ExprKind::Dict) {
                for (const auto& k : a->elts) {
                    if (k->kind == ast::ExprKind::Constant && k->constant.kind == ast::Constant::Kind::Str) {
                        out.insert(k->constant.strValue);
                    }
                }
            }
        }
    }
    return out;
}

sema::Value fromConstexpr(const ConstexprValue& c)
{
    using sema::Value;
    switch (c.kind) {
    case ConstexprValue::Kind::None:
        return Value::none();
    case ConstexprValue::Kind::Int:
        return Value::ofInt(c.intValue);
    case ConstexprValue::Kind::Float:
        return Value::ofFloat(c.floatValue);
    case ConstexprValue::Kind::Bool:
        return Value::ofBool(c.boolValue);
    case ConstexprValue::Kind::Str:
        return Value::ofStr(c.strValue);
    case ConstexprValue::Kind::DType:
        return Value::ofElem(c.dtype);
    }
    return Value::none();
}

} // namespace

std::vector<SignatureParam> signatureOf(const ast::FunctionDef& fn)
{
    std::set<std::string> heur = heuristicsNames(fn);
    std::vector<SignatureParam> out;
    for (const ast::Param& p : fn.params) {
        SignatureParam s;
        s.name = p.name;
        s.constexpr_ = isConstexprAnnotation(p.annotation.get()) || heur.count(p.name) > 0;
        s.hasDefault = p.defaultValue != nullptr;
        s.range = p.range;
        out.push_back(s);
    }
    return out;
}

CheckResult check(const CheckInput& input)
{
    sema::Checker c(input);
    return c.run();
}

} // namespace tkm::triton

namespace tkm::triton::sema {

Checker::Checker(const CheckInput& input) : m_in(input) {}

Value Checker::error(DiagId id, SourceRange r, const std::vector<std::string>& args, std::vector<DiagNote> notes,
                     std::vector<SourceRange> underline)
{
    if (m_suppress == 0) {
        Diagnostic d = makeDiagnostic(id, r, args);
        d.notes = std::move(notes);
        d.underline = std::move(underline);
        m_diags.push_back(std::move(d));
        ++m_errors;
    }
    return Value::error();
}

void Checker::warn(DiagId id, SourceRange r, const std::vector<std::string>& args, std::vector<DiagNote> notes)
{
    if (m_suppress == 0) {
        Diagnostic d = makeDiagnostic(id, r, args);
        d.notes = std::move(notes);
        m_diags.push_back(std::move(d));
    }
}

CheckResult Checker::run()
{
    CheckResult res;
    const ast::FunctionDef* fn = m_in.module ? m_in.module->function(m_in.entry) : nullptr;
    if (!fn) {
        std::string hint;
        if (m_in.module) {
            std::vector<std::string> names;
            for (const ast::FunctionDef* f : m_in.module->jitFunctions()) {
                names.push_back(f->name);
            }
            hint = didYouMean(closestName(m_in.entry, names));
        }
        error(DiagId::EntryNotFound, SourceRange{{1, 1}, {1, 1}}, {m_in.entry, hint});
        res.diagnostics = m_diags;
        return res;
    }
    if (!fn->isJit()) {
        error(DiagId::EntryNotJit, fn->nameRange, {fn->name});
        res.diagnostics = m_diags;
        return res;
    }
    m_fn.name = fn->name;
    m_fn.numWarps = m_in.numWarps;
    m_fn.numStages = m_in.numStages;
    pushRegion(&m_fn.body);
    Scope s;
    s.fn = fn;
    s.isEntry = true;
    std::vector<SignatureParam> sig = signatureOf(*fn);
    size_t runtimeCount = 0;
    std::string runtimeList;
    for (const SignatureParam& p : sig) {
        if (!p.constexpr_) {
            runtimeList += (runtimeCount++ ? ", " : "") + p.name;
        }
    }
    if (runtimeCount != m_in.runtimeParamTypes.size()) {
        error(DiagId::ParamCount, fn->nameRange,
              {fn->name, std::to_string(runtimeCount), std::to_string(m_in.runtimeParamTypes.size()),
               runtimeList.empty() ? "(none)" : runtimeList});
        res.diagnostics = m_diags;
        return res;
    }
    size_t ri = 0;
    for (size_t i = 0; i < sig.size(); ++i) {
        const SignatureParam& p = sig[i];
        if (p.constexpr_) {
            auto it = m_in.constexprs.find(p.name);
            if (it != m_in.constexprs.end()) {
                s.names[p.name] = fromConstexpr(it->second);
            } else if (p.name == "NUM_WARPS" || p.name == "NUM_STAGES") {
                // TRITON.md: NUM_WARPS / NUM_STAGES meta give num_warps / num_stages; read them back here.
                s.names[p.name] = Value::ofInt(p.name == "NUM_WARPS" ? m_in.numWarps : m_in.numStages);
            } else if (fn->params[i].defaultValue) {
                m_scopes.push_back(Scope{});
                s.names[p.name] = eval(*fn->params[i].defaultValue);
                m_scopes.pop_back();
            } else {
                error(DiagId::ConstexprMissing, p.range, {p.name});
                continue;
            }
            m_fn.constexprs.emplace_back(p.name, s.names[p.name].describe());
            continue;
        }
        ir::KernelParam kp;
        kp.name = p.name;
        kp.type = m_in.runtimeParamTypes[ri++];
        kp.type.shape.clear();
        kp.kind = kp.type.isPtr() ? ir::ParamKind::Pointer : ir::ParamKind::Scalar;
        kp.value = newValue(kp.type, p.range, p.name);
        auto spec = m_in.specialisation.find(p.name);
        if (spec != m_in.specialisation.end()) {
            kp.equalsOne = spec->second == "1";
            kp.divisibleBy16 = spec->second == "16";
        }
        if (kp.equalsOne) {
            s.names[p.name] = Value::ofInt(1);
        } else {
            s.names[p.name] = Value::tensor(kp.value, kp.type, p.range);
            s.runtimeParams.insert(p.name);
        }
        if (!kp.type.isPtr() && ir::isInt(kp.type.elem)) {
            m_sizeParams.push_back(p.name);
        }
        m_fn.params.push_back(kp);
    }
    if (hasError()) {
        res.diagnostics = m_diags;
        return res;
    }
    m_scopes.push_back(std::move(s));
    m_callStack.push_back(fn);
    execBody(fn->body);
    m_callStack.pop_back();
    m_scopes.pop_back();
    popRegion();
    if (!hasError()) {
        res.function = std::move(m_fn);
    }
    res.diagnostics = m_diags;
    return res;
}

std::vector<std::string> Checker::visibleNames() const
{
    std::vector<std::string> out;
    if (!m_scopes.empty()) {
        for (const auto& [k, v] : m_scopes.back().names) {
            out.push_back(k);
        }
    }
    if (m_in.module) {
        for (const ast::FunctionDef* f : m_in.module->jitFunctions()) {
            out.push_back(f->name);
        }
    }
    for (const char* b : {"tl", "triton", "min", "max", "range", "float", "int", "abs", "len", "print"}) {
        out.push_back(b);
    }
    return out;
}

Value Checker::lookup(const std::string& name, SourceRange r)
{
    auto it = scope().names.find(name);
    if (it != scope().names.end()) {
        return it->second;
    }
    bool found = false;
    Value g = lookupGlobal(name, r, found);
    if (found) {
        return g;
    }
    auto hidden = scope().hidden.find(name);
    if (hidden != scope().hidden.end()) {
        return error(DiagId::NameNotVisible, r, {name, hidden->second});
    }
    return error(DiagId::UndefinedName, r, {name, didYouMean(closestName(name, visibleNames()))});
}

Value Checker::lookupGlobal(const std::string& name, SourceRange r, bool& found)
{
    found = true;
    auto cached = m_globals.find(name);
    if (cached != m_globals.end()) {
        return cached->second;
    }
    if (name == "tl") {
        return Value::module("tl");
    }
    if (name == "triton") {
        return Value::module("triton");
    }
    if (name == "math") {
        return Value::module("math");
    }
    static const std::set<std::string> builtins = {"min", "max", "float", "int",  "bool",
                                                   "abs", "len", "range", "print"};
    if (m_in.module) {
        if (const ast::FunctionDef* f = m_in.module->function(name)) {
            Value v;
            v.kind = f->isJit() ? VKind::JitFn : VKind::PyFn;
            v.fn = f;
            return v;
        }
        for (const auto& st : m_in.module->body) {
            bool ann = st->kind == ast::StmtKind::AnnAssign;
            if ((st->kind != ast::StmtKind::Assign && !ann) || st->targets.empty() || !st->value) {
                continue;
            }
            const ast::Expr& t = *st->targets[0];
            if (t.kind != ast::ExprKind::Name || t.id != name) {
                continue;
            }
            bool isConst = ann && isConstexprAnnotation(st->annotation.get());
            const ast::Expr& v = *st->value;
            if (v.kind == ast::ExprKind::Call && v.value &&
                ((v.value->kind == ast::ExprKind::Attribute && v.value->id == "constexpr") ||
                 (v.value->kind == ast::ExprKind::Name && v.value->id == "constexpr"))) {
                isConst = true;
            }
            if (!isConst) {
                return error(DiagId::GlobalNotConstexpr, r, {name});
            }
            if (m_globalsInProgress.count(name)) {
                return error(DiagId::UndefinedName, r, {name, " (it refers to itself)"});
            }
            m_globalsInProgress.insert(name);
            m_scopes.push_back(Scope{});
            Value val = eval(v);
            m_scopes.pop_back();
            m_globalsInProgress.erase(name);
            m_globals[name] = val;
            return val;
        }
    }
    if (builtins.count(name)) {
        return Value::func(name);
    }
    found = false;
    return Value::error();
}

void Checker::assign(const std::string& name, const Value& v)
{
    scope().names[name] = v;
    scope().hidden.erase(name);
    if (v.isTensor() && v.id >= 0 && m_fn.values[static_cast<size_t>(v.id)].name.empty()) {
        m_fn.values[static_cast<size_t>(v.id)].name = name;
    }
}

} // namespace tkm::triton::sema
