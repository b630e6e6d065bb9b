// Simple statements: assignments as code_generator.py's visit_Assign does them (a plain `x = 128` makes a
// tensor; `x: tl.constexpr = 128` keeps a constexpr), augmented assignment, return, assert, and the refusal
// of statements outside the subset.
#include "engine/triton/check/checker_impl.h"

namespace tkm::triton::sema {

using ast::StmtKind;

void Checker::execBody(const ast::Body& body)
{
    execBodyFrom(body, 0);
}

void Checker::execBodyFrom(const ast::Body& body, size_t first)
{
    for (size_t i = first; i < body.size(); ++i) {
        if (scope().returned) {
            return;
        }
        exec(*body[i], body, i);
    }
}

void Checker::exec(const ast::Stmt& s, const ast::Body& body, size_t index)
{
    switch (s.kind) {
    case StmtKind::ExprStmt:
        if (s.value && s.value->kind != ast::ExprKind::Constant) {
            if (droppedAdvance(*s.value)) {
                return;
            }
            eval(*s.value);
        }
        return;
    case StmtKind::Assign:
        execAssign(s);
        return;
    case StmtKind::AugAssign:
        execAugAssign(s);
        return;
    case StmtKind::AnnAssign:
        execAnnAssign(s);
        return;
    case StmtKind::Return:
        execReturn(s);
        return;
    case StmtKind::If:
        execIf(s, body, index);
        return;
    case StmtKind::For:
        execFor(s);
        return;
    case StmtKind::While:
        execWhile(s);
        return;
    case StmtKind::Break:
    case StmtKind::Continue:
        error(DiagId::Unsupported, s.range,
              {std::string("`") + (s.kind == StmtKind::Break ? "break" : "continue") + "`",
               " (Triton 3.6 refuses break/continue in loops): use a `while` whose condition ends the loop, or "
               "mask the rest of the iteration"});
        return;
    case StmtKind::Pass:
        return;
    case StmtKind::Assert: {
        Value t = s.test ? eval(*s.test) : Value::error();
        if (t.isError()) {
            return;
        }
        std::string msg = s.value && s.value->kind == ast::ExprKind::Constant ? s.value->constant.strValue : "";
        if (t.isConstexpr()) {
            if (!t.truthy()) {
                error(DiagId::StaticAssert, s.range, {msg.empty() ? "" : ": " + msg});
            }
            return;
        }
        Value c = toTensor(t, s.test->range);
        if (!c.isError()) {
            ir::Op& op = emit(ir::OpKind::Assert, {c.id}, s.range);
            op.text = msg.empty() ? "assert " + exprText(*s.test) : msg;
        }
        return;
    }
    case StmtKind::FunctionDef:
        error(DiagId::Unsupported, s.range, {"a nested `def`", ": define helpers at top level with @triton.jit"});
        return;
    case StmtKind::Import:
        return;
    case StmtKind::Other:
        error(DiagId::Unsupported, s.range, {"the `" + s.keyword + "` statement", ""});
        return;
    }
}

Value Checker::sanitize(const Value& v, SourceRange r)
{
    if (v.isNumber()) {
        return toTensor(v, r);
    }
    return v;
}

void Checker::assignTarget(const ast::Expr& target, const Value& v, bool doSanitize)
{
    if (v.isError()) {
        if (target.kind == ast::ExprKind::Name) {
            scope().names[target.id] = v;
        } else if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List) {
            for (const auto& t : target.elts) {
                assignTarget(*t, v, false);
            }
        }
        return;
    }
    switch (target.kind) {
    case ast::ExprKind::Name: {
        Value val = doSanitize ? sanitize(v, target.range) : v;
        if (doSanitize && v.isNumber()) {
            scope().fromPlainConst.insert(target.id);
        } else {
            scope().fromPlainConst.erase(target.id);
        }
        scope().runtimeParams.erase(target.id);
        assign(target.id, val);
        return;
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
        if (v.kind != VKind::Tuple) {
            error(DiagId::UnpackCount, target.range, {v.describe(), std::to_string(target.elts.size())});
            return;
        }
        if (v.elems.size() != target.elts.size()) {
            error(DiagId::UnpackCount, target.range,
                  {std::to_string(v.elems.size()), std::to_string(target.elts.size())});
            return;
        }
        for (size_t i = 0; i < v.elems.size(); ++i) {
            assignTarget(*target.elts[i], v.elems[i], doSanitize);
        }
        return;
    }
    case ast::ExprKind::Subscript:
        error(DiagId::AssignTarget, target.range,
              {"`" + exprText(target) + "`",
               "tensors are immutable in Triton; build the new tile with tl.where(offs == i, value, x)"});
        return;
    case ast::ExprKind::Attribute:
        error(DiagId::AssignTarget, target.range,
              {"`" + exprText(target) + "`", "attribute assignment is not supported in Triton"});
        return;
    default:
        error(DiagId::AssignTarget, target.range, {"`" + exprText(target) + "`", "not a name"});
        return;
    }
}

void Checker::execAssign(const ast::Stmt& s)
{
    Value v = eval(*s.value);
    for (const auto& t : s.targets) {
        assignTarget(*t, v, true);
    }
}

void Checker::execAnnAssign(const ast::Stmt& s)
{
    if (!s.value) {
        return;
    }
    Value v = eval(*s.value);
    const ast::Expr* a = s.annotation.get();
    bool isConst =
        a && ((a->kind == ast::ExprKind::Attribute || a->kind == ast::ExprKind::Name) && a->id == "constexpr");
    if (!isConst) {
        assignTarget(*s.targets[0], v, true);
        return;
    }
    if (!v.isError() && !v.isConstexpr()) {
        error(DiagId::ConstexprAnnot, s.value->range,
              {exprText(*s.targets[0]), "`" + exprText(*s.value) + "` is " + v.describe() + ", a runtime value"});
        v = Value::error();
    }
    assignTarget(*s.targets[0], v, false);
}

void Checker::execAugAssign(const ast::Stmt& s)
{
    const ast::Expr& t = *s.targets[0];
    if (t.kind != ast::ExprKind::Name) {
        assignTarget(t, Value::error(), false);
        error(DiagId::AssignTarget, t.range,
              {"`" + exprText(t) + "`", "only names can be updated with an augmented assignment"});
        return;
    }
    Value cur = lookup(t.id, t.range);
    Value rhs = eval(*s.value);
    Value v = binary(s.binOp, cur, rhs, &t, s.value.get(), s.range);
    assignTarget(t, v, true);
}

void Checker::execReturn(const ast::Stmt& s)
{
    Scope& sc = scope();
    if (sc.loopDepth > 0) {
        error(DiagId::ReturnInLoop, s.range, {});
        sc.returned = true;
        return;
    }
    Value v = s.value ? eval(*s.value) : Value::none();
    if (sc.isEntry && s.value && !v.isError() && v.kind != VKind::None) {
        error(DiagId::ReturnValueInKernel, s.range, {});
    }
    sc.returnValue = v;
    sc.returned = true;
}

bool Checker::droppedAdvance(const ast::Expr& e)
{
    // Triton 3.6 marks tl.advance must-use (an AST-level check on a call that is a statement on its own).
    if (e.kind != ast::ExprKind::Call || !e.value || e.value->id != "advance") {
        return false;
    }
    const Value callee = eval(*e.value);
    if (callee.kind != VKind::Func || callee.s != "tl.advance") {
        return false;
    }
    error(DiagId::AdvanceUnused, e.range, {e.args.empty() ? std::string("the block pointer") : exprText(*e.args[0])});
    return true;
}

} // namespace tkm::triton::sema
