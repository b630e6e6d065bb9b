#include "engine/triton/check/values.h"

#include "engine/triton/check/checker_impl.h"

#include <cmath>
#include <sstream>

namespace tkm::triton::sema {

Value Value::error()
{
    Value v;
    v.kind = VKind::Error;
    return v;
}

Value Value::absent()
{
    Value v;
    v.kind = VKind::Absent;
    return v;
}

Value Value::none()
{
    return Value{};
}

Value Value::ofInt(int64_t x)
{
    Value v;
    v.kind = VKind::Int;
    v.i = x;
    return v;
}

Value Value::ofFloat(double x)
{
    Value v;
    v.kind = VKind::Float;
    v.f = x;
    return v;
}

Value Value::ofBool(bool x)
{
    Value v;
    v.kind = VKind::Bool;
    v.b = x;
    return v;
}

Value Value::ofStr(std::string x)
{
    Value v;
    v.kind = VKind::Str;
    v.s = std::move(x);
    return v;
}

Value Value::ofDType(ir::Type t)
{
    Value v;
    v.kind = VKind::DType;
    v.type = std::move(t);
    v.type.shape.clear();
    return v;
}

Value Value::ofElem(ir::Elem e)
{
    ir::Type t;
    t.elem = e;
    return ofDType(t);
}

Value Value::tuple(std::vector<Value> elems)
{
    Value v;
    v.kind = VKind::Tuple;
    v.elems = std::move(elems);
    return v;
}

Value Value::tensor(ir::ValueId id, ir::Type t, SourceRange origin)
{
    Value v;
    v.kind = VKind::Tensor;
    v.id = id;
    v.type = std::move(t);
    v.origin = origin;
    return v;
}

Value Value::func(std::string name)
{
    Value v;
    v.kind = VKind::Func;
    v.s = std::move(name);
    return v;
}

Value Value::module(std::string name)
{
    Value v;
    v.kind = VKind::Module;
    v.s = std::move(name);
    return v;
}

Value Value::method(std::string name, Value self)
{
    Value v;
    v.kind = VKind::Method;
    v.s = std::move(name);
    v.elems.push_back(std::move(self));
    return v;
}

bool Value::isNumber() const
{
    return kind == VKind::Int || kind == VKind::Float || kind == VKind::Bool;
}

bool Value::isConstexpr() const
{
    switch (kind) {
    case VKind::None:
    case VKind::Int:
    case VKind::Float:
    case VKind::Bool:
    case VKind::Str:
    case VKind::DType:
        return true;
    case VKind::Tuple:
        for (const Value& e : elems) {
            if (!e.isConstexpr()) {
                return false;
            }
        }
        return true;
    default:
        return false;
    }
}

bool Value::truthy() const
{
    switch (kind) {
    case VKind::Int:
        return i != 0;
    case VKind::Float:
        return f != 0;
    case VKind::Bool:
        return b;
    case VKind::Str:
        return !s.empty();
    case VKind::Tuple:
        return !elems.empty();
    case VKind::None:
        return false;
    default:
        return true;
    }
}

double Value::asDouble() const
{
    switch (kind) {
    case VKind::Int:
        return static_cast<double>(i);
    case VKind::Float:
        return f;
    case VKind::Bool:
        return b ? 1 : 0;
    default:
        return 0;
    }
}

namespace {
std::string floatText(double f)
{
    if (std::isinf(f)) {
        return f > 0 ? "float('inf')" : "-float('inf')";
    }
    if (std::isnan(f)) {
        return "float('nan')";
    }
    std::ostringstream out;
    out << f;
    std::string s = out.str();
    if (s.find_first_of(".e") == std::string::npos) {
        s += ".0";
    }
    return s;
}
} // namespace

std::string Value::describe() const
{
    switch (kind) {
    case VKind::Error:
        return "an erroneous value";
    case VKind::Absent:
        return "nothing";
    case VKind::None:
        return "None";
    case VKind::Int:
        return std::to_string(i);
    case VKind::Float:
        return floatText(f);
    case VKind::Bool:
        return b ? "True" : "False";
    case VKind::Str:
        return "'" + s + "'";
    case VKind::DType:
        return dtypeName(type);
    case VKind::Tuple: {
        std::string t = "(";
        for (size_t k = 0; k < elems.size(); ++k) {
            t += (k ? ", " : "") + elems[k].describe();
        }
        return t + (elems.size() == 1 ? ",)" : ")");
    }
    case VKind::Tensor:
        return type.isScalar() ? "a scalar " + type.str() : "a tile " + type.str();
    case VKind::BlockPtr:
        return "a block pointer";
    case VKind::JitFn:
        return "the jit function `" + (fn ? fn->name : std::string()) + "`";
    case VKind::PyFn:
        return "the Python function `" + (fn ? fn->name : std::string()) + "`";
    case VKind::Module:
        return "the module `" + s + "`";
    case VKind::Func:
        return "`" + s + "`";
    case VKind::Method:
        return "the method `" + s + "`";
    }
    return "?";
}

std::string kindName(const Value& v)
{
    switch (v.kind) {
    case VKind::Int:
        return "int";
    case VKind::Float:
        return "float";
    case VKind::Bool:
        return "bool";
    case VKind::Str:
        return "str";
    case VKind::None:
        return "None";
    case VKind::DType:
        return "dtype";
    case VKind::Tuple:
        return "tuple";
    case VKind::Tensor:
        return "tensor";
    case VKind::BlockPtr:
        return "block pointer";
    default:
        return "value";
    }
}

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::string s = "[";
    for (size_t k = 0; k < shape.size(); ++k) {
        s += (k ? ", " : "") + std::to_string(shape[k]);
    }
    return s + "]";
}

std::string dtypeName(const ir::Type& t)
{
    switch (t.elem) {
    case ir::Elem::I1:
        return "tl.int1";
    case ir::Elem::I8:
        return "tl.int8";
    case ir::Elem::I16:
        return "tl.int16";
    case ir::Elem::I32:
        return "tl.int32";
    case ir::Elem::I64:
        return "tl.int64";
    case ir::Elem::U8:
        return "tl.uint8";
    case ir::Elem::U16:
        return "tl.uint16";
    case ir::Elem::U32:
        return "tl.uint32";
    case ir::Elem::U64:
        return "tl.uint64";
    case ir::Elem::F16:
        return "tl.float16";
    case ir::Elem::BF16:
        return "tl.bfloat16";
    case ir::Elem::F32:
        return "tl.float32";
    case ir::Elem::F64:
        return "tl.float64";
    case ir::Elem::Ptr: {
        ir::Type p;
        p.elem = t.pointee;
        return "tl.pointer_type(" + dtypeName(p) + ")";
    }
    }
    return "?";
}

bool isPow2(int64_t v)
{
    return v >= 1 && (v & (v - 1)) == 0;
}

int64_t nextPow2(int64_t v)
{
    int64_t p = 1;
    while (p < v) {
        p <<= 1;
    }
    return p;
}

} // namespace tkm::triton::sema
