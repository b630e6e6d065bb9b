#include "engine/report/convert.h"

namespace tkm::report {

CompileInfo toCompileInfo(const compile::CompileResult& r)
{
    CompileInfo c;
    c.ok = r.ok;
    c.arch = r.arch;
    c.nvrtcVersion = r.nvrtcVersion;
    c.cached = r.cached;
    c.compileMs = r.compileMs;
    c.options = r.options;
    for (const auto& d : r.diagnostics) {
        c.diagnostics.push_back(DiagnosticInfo{d.file, d.line, d.column, d.severity, d.message});
    }
    c.log = r.log;
    if (r.resources.known) {
        ResourcesInfo res;
        res.registers = r.resources.registers;
        res.sharedBytes = r.resources.sharedBytes;
        res.localBytes = r.resources.localBytes;
        res.spillStoresBytes = r.resources.spillStoresBytes;
        res.spillLoadsBytes = r.resources.spillLoadsBytes;
        c.resources = res;
    }
    return c;
}

OutputInfo toOutputInfo(const check::OutputCheck& c, bool withCanary)
{
    OutputInfo o;
    o.buffer = c.buffer;
    o.checked = c.checked;
    o.mismatches = c.mismatches;
    o.unwritten = c.unwritten;
    o.nan = c.nan;
    o.inf = c.inf;
    o.maxAbsError = c.maxAbsError;
    o.maxRelError = c.maxRelError;
    o.atol = c.atol;
    o.rtol = c.rtol;
    for (const auto& m : c.firstMismatches) {
        o.firstMismatches.push_back(MismatchInfo{m.index, m.unwritten, m.got, m.expected});
    }
    if (withCanary) {
        o.canaryBeforeStart = c.canaryBeforeStart;
    }
    return o;
}

RunReport errorReport(RunReport r, const engine::Error& e)
{
    r.verdict = Verdict::Error;
    r.summary = e.message;
    r.error = ErrorInfo{std::string(engine::errorKindName(e.kind)), e.message};
    return r;
}

} // namespace tkm::report
