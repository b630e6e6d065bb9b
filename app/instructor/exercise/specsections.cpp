// The exercise spec form's sections (general, hints, params, meta, launch, reference, cases, performance,
// tolerance, cost, bugs, baselines, the rest): one builder per docs/exercise-spec.md section. The form's frame,
// field widgets and commits are in specform.cpp.
#include "app/instructor/exercise/specform.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

namespace tkm::app {

namespace {

std::string at(const std::string& base, const std::string& key)
{
    return base + "/" + key;
}
std::string at(const std::string& base, std::size_t index)
{
    return base + "/" + std::to_string(index);
}
QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

const QStringList kDtypes{QStringLiteral("f16"), QStringLiteral("bf16"), QStringLiteral("f32"),
                          QStringLiteral("f64"), QStringLiteral("i32"),  QStringLiteral("i64")};
const QStringList kTopLevelKnown{
    QStringLiteral("format"),      QStringLiteral("id"),           QStringLiteral("title"),
    QStringLiteral("kernel"),      QStringLiteral("prompt"),       QStringLiteral("starter"),
    QStringLiteral("solution"),    QStringLiteral("reference"),    QStringLiteral("hints"),
    QStringLiteral("params"),      QStringLiteral("meta"),         QStringLiteral("launch"),
    QStringLiteral("cases"),       QStringLiteral("performance"),  QStringLiteral("tolerance"),
    QStringLiteral("ideal_bytes"), QStringLiteral("flops"),        QStringLiteral("bugs"),
    QStringLiteral("baselines"),   QStringLiteral("reset_to_zero"), QStringLiteral("triton")};

QFormLayout* formIn(QGroupBox* box)
{
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    static_cast<QVBoxLayout*>(box->layout())->addLayout(form);
    return form;
}

} // namespace

void SpecForm::buildGeneral()
{
    auto* box = section(tr("General"), "/format", {});
    m_sections.insert(QStringLiteral("/"), box);
    auto* form = formIn(box);
    field(form, tr("Format"), "/format", FieldKind::Integer, false);
    field(form, tr("Id"), "/id", FieldKind::Text, false);
    field(form, tr("Title"), "/title", FieldKind::Text, false);
    field(form, tr("Kernel entry point"), "/kernel", FieldKind::Text, false);
    field(form, tr("Prompt file"), "/prompt", FieldKind::Text, false);
    field(form, tr("Starter file"), "/starter", FieldKind::Text, false);
    field(form, tr("Solution file"), "/solution", FieldKind::Text, false);
}

void SpecForm::buildHints()
{
    auto* box = section(tr("Hints"), "/hints",
                        tr("One hint per line, shown one at a time in the CUDA track (the Triton track has its own)."));
    auto* form = formIn(box);
    field(form, tr("Hints"), "/hints", FieldKind::Lines, true);
}

void SpecForm::generatorFields(QFormLayout* form, const std::string& pointer)
{
    static const QStringList dists{QStringLiteral("normal"), QStringLiteral("uniform"), QStringLiteral("negative"),
                                   QStringLiteral("large"),  QStringLiteral("int"),     QStringLiteral("arange")};
    field(form, tr("Generator"), at(pointer, "dist"), FieldKind::Choice, false, dists);
    const QString dist = fieldText(FieldKind::Text, m_doc->value(at(pointer, "dist")));
    for (const QString& name : tkm::app::generatorFields(dist))
        field(form, QStringLiteral("    %1").arg(name), at(pointer, name.toStdString()), FieldKind::Number, true);
}

void SpecForm::buildParams()
{
    auto* box = section(tr("Parameters"), "/params",
                        tr("The kernel's parameters in order: buffers (dtype, shape, role, "
                           "input generator) and scalars (an expression)."));
    const SpecJson params = m_doc->value("/params");
    for (std::size_t i = 0; params.is_array() && i < params.size(); ++i) {
        const std::string p = at("/params", i);
        const bool scalar = params[i].value("kind", std::string()) == "scalar";
        auto* form = card(box, tr("%1: %2").arg(i + 1).arg(q(params[i].value("name", std::string("?")))), "/params", i);
        field(form, tr("Name"), at(p, "name"), FieldKind::Text, false);
        field(form, tr("Kind"), at(p, "kind"), FieldKind::Choice, false,
              {QStringLiteral("buffer"), QStringLiteral("scalar")});
        field(form, tr("Dtype"), at(p, "dtype"), FieldKind::Choice, false, kDtypes);
        if (scalar) {
            field(form, tr("Value"), at(p, "value"), FieldKind::Expr, false);
            continue;
        }
        field(form, tr("Shape"), at(p, "shape"), FieldKind::ExprList, false);
        field(form, tr("Role"), at(p, "role"), FieldKind::Choice, false,
              {QStringLiteral("in"), QStringLiteral("out"), QStringLiteral("inout")});
        if (params[i].contains("init"))
            generatorFields(form, at(p, "init"));
    }
    addButton(box, tr("Add parameter"), [this] {
        appendItem("/params", SpecJson{{"name", "p"},
                                       {"kind", "buffer"},
                                       {"dtype", "f32"},
                                       {"shape", SpecJson::array({"n"})},
                                       {"role", "in"},
                                       {"init", defaultGenerator({})}});
    });
}

void SpecForm::buildMeta()
{
    auto* box = section(tr("Meta-parameters"), "/meta",
                        tr("Compile-time constants (Triton's tl.constexpr), passed as -DNAME=value."));
    const SpecJson meta = m_doc->value("/meta");
    for (std::size_t i = 0; meta.is_array() && i < meta.size(); ++i) {
        const std::string p = at("/meta", i);
        auto* form = card(box, q(meta[i].value("name", std::string("?"))), "/meta", i);
        field(form, tr("Name"), at(p, "name"), FieldKind::Text, false);
        field(form, tr("Default"), at(p, "default"), FieldKind::Integer, false);
        field(form, tr("Allowed"), at(p, "allowed"), FieldKind::IntList, true);
    }
    addButton(box, tr("Add meta-parameter"), [this] {
        appendItem("/meta", SpecJson{{"name", "BLOCK_SIZE"}, {"default", 1024}});
    });
}

void SpecForm::buildLaunch()
{
    auto* box = section(tr("Launch"), "/launch",
                        tr("Expressions over the sizes and meta-parameters, e.g. "
                           "cdiv(n, BLOCK_SIZE) programs of 32 * NUM_WARPS threads."));
    auto* form = formIn(box);
    field(form, tr("Grid"), "/launch/grid", FieldKind::ExprList, false);
    field(form, tr("Block"), "/launch/block", FieldKind::ExprList, false);
    field(form, tr("Shared bytes"), "/launch/shared_bytes", FieldKind::Expr, true);
}

void SpecForm::buildReference()
{
    auto* box = section(tr("Reference (float64 judge)"), "/reference",
                        tr("Its own launch; sizes, strides and numel are in scope, meta-parameters are not."));
    auto* form = formIn(box);
    field(form, tr("File"), "/reference/file", FieldKind::Text, false);
    field(form, tr("Kernel"), "/reference/kernel", FieldKind::Text, false);
    field(form, tr("Grid"), "/reference/grid", FieldKind::ExprList, false);
    field(form, tr("Block"), "/reference/block", FieldKind::ExprList, false);
    field(form, tr("Shared bytes"), "/reference/shared_bytes", FieldKind::Expr, true);
}

void SpecForm::caseFields(QFormLayout* form, const std::string& p)
{
    field(form, tr("Name"), at(p, "name"), FieldKind::Text, false);
    field(form, tr("Sizes"), at(p, "sizes"), FieldKind::Sizes, false);
    field(form, tr("Seed"), at(p, "seed"), FieldKind::Integer, true);
    field(form, tr("Layouts"), at(p, "layouts"), FieldKind::Json, true);
    field(form, tr("Generators"), at(p, "init"), FieldKind::Json, true);
}

void SpecForm::buildCases()
{
    auto* box = section(tr("Cases"), "/cases",
                        tr("Correctness cases, run in order. Include ragged sizes (not a "
                           "multiple of the block), negative inputs and large magnitudes."));
    const SpecJson cases = m_doc->value("/cases");
    for (std::size_t i = 0; cases.is_array() && i < cases.size(); ++i)
        caseFields(card(box, tr("Case %1").arg(i + 1), "/cases", i), at("/cases", i));
    addButton(box, tr("Add case"), [this] {
        const SpecJson cases = m_doc->value("/cases");
        SpecJson item = cases.is_array() && !cases.empty() ? cases.back() : SpecJson{{"sizes", {{"n", 1000}}}};
        item["name"] = "case " + std::to_string(cases.is_array() ? cases.size() + 1 : 1);
        appendItem("/cases", item);
    });
}

void SpecForm::buildPerformance()
{
    auto* box = section(tr("Performance case"), "/performance",
                        tr("The one case that is timed and profiled: data "
                           "several times the L2 size."));
    auto* form = formIn(box);
    caseFields(form, "/performance");
}

void SpecForm::buildTolerance()
{
    auto* box =
        section(tr("Tolerance"), "/tolerance", tr("|got - ref| <= atol * scale + rtol * |ref|, per output dtype."));
    const SpecJson tol = m_doc->value("/tolerance");
    auto* top = formIn(box);
    field(top, tr("Scale (every dtype)"), "/tolerance/scale", FieldKind::Expr, true);
    for (auto it = tol.begin(); tol.is_object() && it != tol.end(); ++it) {
        if (it.key() == "scale")
            continue;
        auto* form = formIn(box);
        const std::string p = at("/tolerance", it.key());
        form->addRow(new QLabel(QStringLiteral("<b>%1</b>").arg(q(it.key()))));
        field(form, tr("atol"), at(p, "atol"), FieldKind::Number, false);
        field(form, tr("rtol"), at(p, "rtol"), FieldKind::Number, false);
        field(form, tr("scale"), at(p, "scale"), FieldKind::Expr, true);
    }
    auto* add = new QComboBox(box);
    add->addItem(tr("Add a dtype…"));
    for (const QString& d : kDtypes)
        if (!tol.is_object() || !tol.contains(d.toStdString()))
            add->addItem(d);
    connect(add, &QComboBox::activated, this, [this, add](int index) {
        if (index > 0)
            request(at("/tolerance", add->itemText(index).toStdString()), SpecJson{{"atol", 1e-6}, {"rtol", 1e-6}});
    });
    box->layout()->addWidget(add);
}

void SpecForm::buildCost()
{
    auto* box = section(tr("Ideal bytes and FLOPs"), "/ideal_bytes",
                        tr("Fewest DRAM bytes a kernel must move, and the problem's floating-point operations."));
    m_sections.insert(QStringLiteral("/flops"), box);
    auto* form = formIn(box);
    field(form, tr("Ideal bytes"), "/ideal_bytes", FieldKind::Expr, false);
    field(form, tr("FLOPs"), "/flops", FieldKind::Expr, false);
}

void SpecForm::buildBugs()
{
    auto* box = section(tr("Bug variants"), "/bugs", tr("Each must fail on the GPU with the diagnosis declared here."));
    bugCards(box, "/bugs", ".cu");
}

void SpecForm::bugCards(QGroupBox* box, const std::string& arrayPointer, const std::string& extension)
{
    const SpecJson bugs = m_doc->value(arrayPointer);
    const QStringList verdicts{QStringLiteral("fail"), QStringLiteral("fault"), QStringLiteral("timeout"),
                               QStringLiteral("compile_error")};
    const QStringList faults{QString(),
                             QStringLiteral("read-past-end"),
                             QStringLiteral("write-past-end"),
                             QStringLiteral("read-before-start"),
                             QStringLiteral("write-before-start"),
                             QStringLiteral("misaligned"),
                             QStringLiteral("trap"),
                             QStringLiteral("unknown")};
    const QStringList reasons{QString(), QStringLiteral("mismatch"), QStringLiteral("nan"), QStringLiteral("unwritten"),
                              QStringLiteral("nondeterministic")};
    for (std::size_t i = 0; bugs.is_array() && i < bugs.size(); ++i) {
        const std::string p = at(arrayPointer, i);
        auto* form =
            card(box, tr("Bug %1: %2").arg(i + 1).arg(q(bugs[i].value("file", std::string()))), arrayPointer, i);
        field(form, tr("File"), at(p, "file"), FieldKind::Text, false);
        field(form, tr("Title"), at(p, "title"), FieldKind::Text, false);
        field(form, tr("Expected verdict"), at(p, "expect/verdict"), FieldKind::Choice, false, verdicts);
        field(form, tr("Fault"), at(p, "expect/fault"), FieldKind::Choice, true, faults);
        field(form, tr("Buffer"), at(p, "expect/buffer"), FieldKind::Text, true);
        field(form, tr("First failing case"), at(p, "expect/case"), FieldKind::Text, true);
        field(form, tr("Reason"), at(p, "expect/reason"), FieldKind::Choice, true, reasons);
        field(form, tr("reset_to_zero"), at(p, "reset_to_zero"), FieldKind::Json, true);
    }
    addButton(box, tr("Add bug variant"), [this, arrayPointer, extension] {
        const SpecJson bugs = m_doc->value(arrayPointer);
        const std::size_t n = bugs.is_array() ? bugs.size() + 1 : 1;
        appendItem(arrayPointer, SpecJson{{"file", "bugs/bug-" + std::to_string(n) + extension},
                                          {"title", "What the bug does"},
                                          {"expect", {{"verdict", "fail"}, {"reason", "mismatch"}}}});
    });
}

void SpecForm::buildTriton()
{
    auto* box = section(tr("Triton track"), "/triton",
                        tr("The same params, cases and checks, with @triton.jit kernels in .py files; runs on the CPU "
                           "interpreter without a GPU (docs/exercise-spec.md, \"Triton track\")."));
    if (!m_doc->contains("/triton")) {
        addButton(box, tr("Add a Triton track"), [this] {
            const std::string kernel = m_doc->value("/kernel").is_string() ? m_doc->value("/kernel").get<std::string>()
                                                                           : std::string("kernel");
            const SpecJson track{{"kernel", kernel},
                                 {"starter", "starter.py"},
                                 {"solution", "solution.py"},
                                 {"reference", {{"file", "reference.py"}, {"kernel", kernel + "_ref"}, {"grid", {"1"}}}},
                                 {"bugs", SpecJson::array()}};
            if (m_edit)
                m_edit("/triton", track, tr("Add a Triton track"));
        });
        return;
    }
    auto* form = formIn(box);
    field(form, tr("Kernel"), "/triton/kernel", FieldKind::Text, true);
    field(form, tr("Params (by position)"), "/triton/params", FieldKind::Names, true);
    field(form, tr("Constexprs"), "/triton/meta", FieldKind::Json, true);
    field(form, tr("Starter"), "/triton/starter", FieldKind::Text, false);
    field(form, tr("Solution"), "/triton/solution", FieldKind::Text, false);
    // Without a prompt of its own the Triton track shows the CUDA prompt under a note; CUDA hints never appear.
    field(form, tr("Prompt file"), "/triton/prompt", FieldKind::Text, true);
    field(form, tr("Hints"), "/triton/hints", FieldKind::Lines, true);
    field(form, tr("Reference file"), "/triton/reference/file", FieldKind::Text, false);
    field(form, tr("Reference kernel"), "/triton/reference/kernel", FieldKind::Text, false);
    field(form, tr("Reference grid"), "/triton/reference/grid", FieldKind::ExprList, false);
    field(form, tr("Reference params"), "/triton/reference/params", FieldKind::Names, true);
    field(form, tr("Reference constexprs"), "/triton/reference/meta", FieldKind::Json, true);
    bugCards(box, "/triton/bugs", ".py");
}

void SpecForm::buildBaselines()
{
    const SpecJson baselines = m_doc->value("/baselines");
    auto* box = section(tr("Baselines"), "/baselines", tr("Kernels or cuBLAS measured side by side."));
    for (std::size_t i = 0; baselines.is_array() && i < baselines.size(); ++i) {
        const std::string p = at("/baselines", i);
        auto* form = card(box, q(baselines[i].value("name", std::string("baseline"))), "/baselines", i);
        field(form, tr("Name"), at(p, "name"), FieldKind::Text, false);
        field(form, tr("Kind"), at(p, "kind"), FieldKind::Choice, false,
              {QStringLiteral("kernels"), QStringLiteral("cublas_gemm")});
        for (auto it = baselines[i].begin(); it != baselines[i].end(); ++it)
            if (it.key() != "name" && it.key() != "kind")
                field(form, q(it.key()), at(p, it.key()), it->is_string() ? FieldKind::Text : FieldKind::Json, false);
    }
    addButton(box, tr("Add baseline"), [this] {
        appendItem("/baselines", SpecJson{{"name", "baseline"},
                                          {"kind", "kernels"},
                                          {"file", "baselines/baseline.cu"},
                                          {"temps", SpecJson::array()},
                                          {"launches", SpecJson::array()}});
    });
}

void SpecForm::buildRest()
{
    auto* box = section(tr("More"), "/reset_to_zero", {});
    auto* form = formIn(box);
    field(form, tr("reset_to_zero"), "/reset_to_zero", FieldKind::Names, true);
    field(form, tr("Autotune"), "/autotune", FieldKind::Json, true);
    m_sections.insert(QStringLiteral("/autotune"), box);
    // Fields this form has no widget for stay in the document; show them so they can be edited too.
    const SpecJson& spec = m_doc->spec();
    for (auto it = spec.begin(); it != spec.end(); ++it) {
        const QString key = q(it.key());
        if (!kTopLevelKnown.contains(key) && key != QLatin1String("autotune"))
            field(form, key, "/" + it.key(), FieldKind::Json, true);
    }
}

} // namespace tkm::app
