#include "app/instructor/exercise/specform.h"

#include "app/common/theme.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
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

// Commits a QPlainTextEdit when it loses focus (it has no editingFinished).
class FocusOutFilter : public QObject
{
public:
    FocusOutFilter(QObject* parent, std::function<void()> onFocusOut) : QObject(parent), m_f(std::move(onFocusOut)) {}
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::FocusOut)
            m_f();
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_f;
};

} // namespace

SpecForm::SpecForm(QWidget* parent) : QWidget(parent)
{
    m_layout = new QVBoxLayout(this);
    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_layout->addWidget(m_banner);
}

void SpecForm::setDocument(const ExerciseDocument* document)
{
    m_doc = document;
    rebuild();
}

void SpecForm::rebuild()
{
    // Keep the scroll position over the rebuild.
    QScrollArea* scroll = nullptr;
    for (QWidget* p = parentWidget(); p && !scroll; p = p->parentWidget())
        scroll = qobject_cast<QScrollArea*>(p);
    const int y = scroll ? scroll->verticalScrollBar()->value() : 0;
    // The old body may hold the widget whose signal led here (an editingFinished): delete it later, not now.
    if (m_body) {
        m_body->hide();
        m_layout->removeWidget(m_body);
        m_body->deleteLater();
    }
    m_fields.clear();
    m_sections.clear();
    m_order.clear();
    m_shown.clear();
    m_body = new QWidget(this);
    auto* bodyLayout = new QVBoxLayout(m_body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    m_layout->addWidget(m_body);
    if (m_doc) {
        buildGeneral();
        buildHints();
        buildParams();
        buildMeta();
        buildLaunch();
        buildReference();
        buildCases();
        buildPerformance();
        buildTolerance();
        buildCost();
        buildBugs();
        buildTriton();
        buildBaselines();
        buildRest();
    }
    bodyLayout->addStretch(1);
    for (const QString& severity : {QStringLiteral("warning"), QStringLiteral("error")})
        setMessages(severity, m_messages.value(severity));
    if (scroll)
        scroll->verticalScrollBar()->setValue(y);
}

QGroupBox* SpecForm::section(const QString& title, const std::string& pointer, const QString& help)
{
    auto* box = new QGroupBox(title, m_body);
    auto* layout = new QVBoxLayout(box);
    if (!help.isEmpty()) {
        auto* label = new QLabel(help, box);
        label->setWordWrap(true);
        label->setForegroundRole(QPalette::PlaceholderText);
        layout->addWidget(label);
    }
    m_body->layout()->addWidget(box);
    box->setObjectName(QStringLiteral("tkmSection%1").arg(m_sections.size()));
    m_sections.insert(q(pointer), box);
    return box;
}

QFormLayout* SpecForm::card(QGroupBox* box, const QString& title, const std::string& arrayPointer, std::size_t index)
{
    auto* frame = new QFrame(box);
    frame->setFrameShape(QFrame::StyledPanel);
    auto* outer = new QVBoxLayout(frame);
    auto* header = new QHBoxLayout;
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), frame);
    auto* remove = new QToolButton(frame);
    remove->setText(tr("Remove"));
    remove->setToolTip(tr("Remove this item (undoable)"));
    connect(remove, &QToolButton::clicked, this, [this, arrayPointer, index] { removeItem(arrayPointer, index); });
    header->addWidget(label, 1);
    header->addWidget(remove);
    outer->addLayout(header);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    outer->addLayout(form);
    box->layout()->addWidget(frame);
    frame->setObjectName(QStringLiteral("tkmCard%1").arg(m_sections.size()));
    m_sections.insert(q(at(arrayPointer, index)), frame);
    return form;
}

void SpecForm::addButton(QGroupBox* box, const QString& text, const std::function<void()>& onClick)
{
    auto* button = new QPushButton(text, box);
    connect(button, &QPushButton::clicked, this, onClick);
    auto* row = new QHBoxLayout;
    row->addWidget(button);
    row->addStretch(1);
    static_cast<QVBoxLayout*>(box->layout())->addLayout(row);
}

void SpecForm::field(QFormLayout* form, const QString& label, const std::string& pointer, FieldKind kind, bool optional,
                     const QStringList& choices)
{
    auto* holder = new QWidget;
    auto* v = new QVBoxLayout(holder);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    QWidget* editor = nullptr;
    const SpecJson value = m_doc->value(pointer);
    if (kind == FieldKind::Choice) {
        auto* combo = new QComboBox(holder);
        combo->addItems(choices);
        const QString current = fieldText(kind, value);
        if (!choices.contains(current))
            combo->addItem(current);
        combo->setCurrentText(current);
        connect(combo, &QComboBox::activated, this,
                [this, pointer, combo] { commitChoice(pointer, combo->currentText()); });
        editor = combo;
    } else if (kind == FieldKind::Lines) {
        auto* text = new QPlainTextEdit(holder);
        text->setPlainText(fieldText(kind, value));
        text->setTabChangesFocus(true);
        text->setMinimumHeight(90);
        text->setMaximumHeight(130);
        text->installEventFilter(new FocusOutFilter(text, [this, pointer] { commit(pointer); }));
        editor = text;
    } else {
        auto* line = new QLineEdit(holder);
        line->setText(fieldText(kind, value));
        line->setCursorPosition(0);
        if (optional)
            line->setPlaceholderText(tr("(not set)"));
        connect(line, &QLineEdit::editingFinished, this, [this, pointer] { commit(pointer); });
        editor = line;
    }
    editor->setObjectName(q(pointer));
    editor->setAccessibleName(label);
    auto* message = new QLabel(holder);
    message->setWordWrap(true);
    message->setVisible(false);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(editor);
    v->addWidget(message);
    form->addRow(label, holder);
    m_fields.insert(q(pointer), Field{kind, optional, editor, message});
    m_order << q(pointer);
}

void SpecForm::refreshValues()
{
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const QString text = fieldText(it->kind, m_doc->value(it.key().toStdString()));
        if (auto* line = qobject_cast<QLineEdit*>(it->editor.data())) {
            if (line->text() != text) {
                line->setText(text);
                line->setCursorPosition(0);
            }
        } else if (auto* combo = qobject_cast<QComboBox*>(it->editor.data())) {
            if (combo->findText(text) < 0)
                combo->addItem(text);
            combo->setCurrentText(text);
        } else if (auto* plain = qobject_cast<QPlainTextEdit*>(it->editor.data())) {
            if (plain->toPlainText() != text)
                plain->setPlainText(text);
        }
    }
}

void SpecForm::commit(const std::string& pointer)
{
    const auto it = m_fields.constFind(q(pointer));
    if (!m_doc || it == m_fields.cend() || !it->editor)
        return;
    QString text;
    if (auto* line = qobject_cast<QLineEdit*>(it->editor.data()))
        text = line->text();
    else if (auto* plain = qobject_cast<QPlainTextEdit*>(it->editor.data()))
        text = plain->toPlainText();
    SpecJson value;
    QString error;
    if (!fieldValue(it->kind, text, it->optional, &value, &error)) {
        showMessage(q(pointer), error, QStringLiteral("error"));
        return;
    }
    request(pointer, value);
}

void SpecForm::commitChoice(const std::string& pointer, const QString& value)
{
    if (!m_doc)
        return;
    const auto slash = pointer.rfind('/');
    const std::string parent = pointer.substr(0, slash);
    const std::string key = pointer.substr(slash + 1);
    SpecJson object = m_doc->value(parent);
    // Choices that change which other fields exist rewrite their whole object, as one undoable step.
    if (key == "dist") {
        request(parent, defaultGenerator(value));
    } else if (key == "kind" && parent.rfind("/params/", 0) == 0 && object.is_object()) {
        const std::string name = object.value("name", std::string("p"));
        request(parent, value == QLatin1String("scalar")
                            ? SpecJson{{"name", name}, {"kind", "scalar"}, {"dtype", "i32"}, {"value", "n"}}
                            : SpecJson{{"name", name},
                                       {"kind", "buffer"},
                                       {"dtype", "f32"},
                                       {"shape", SpecJson::array({"n"})},
                                       {"role", "in"},
                                       {"init", defaultGenerator({})}});
    } else if (key == "role" && object.is_object()) {
        object["role"] = value.toStdString();
        if (value == QLatin1String("out"))
            object.erase("init");
        else if (!object.contains("init"))
            object["init"] = defaultGenerator({});
        request(parent, object);
    } else {
        const auto f = m_fields.constFind(q(pointer));
        request(pointer, value.isEmpty() && f != m_fields.cend() && f->optional ? SpecJson(SpecJson::value_t::discarded)
                                                                                : SpecJson(value.toStdString()));
    }
}

void SpecForm::request(const std::string& pointer, const SpecJson& value)
{
    if (!m_doc)
        return;
    const SpecJson before = m_doc->value(pointer);
    const bool absent = !m_doc->contains(pointer);
    if ((value.is_discarded() && absent) || (!value.is_discarded() && !absent && before == value))
        return; // nothing changed (editingFinished also fires on a plain focus change)
    if (m_edit)
        m_edit(pointer, value, tr("Change %1").arg(q(pointer)));
}

void SpecForm::appendItem(const std::string& arrayPointer, const SpecJson& item)
{
    SpecJson array = m_doc->value(arrayPointer);
    if (!array.is_array())
        array = SpecJson::array();
    array.push_back(item);
    if (m_edit)
        m_edit(arrayPointer, array, tr("Add to %1").arg(q(arrayPointer)));
}

void SpecForm::removeItem(const std::string& arrayPointer, std::size_t index)
{
    SpecJson array = m_doc->value(arrayPointer);
    if (!array.is_array() || index >= array.size())
        return;
    array.erase(index);
    if (m_edit)
        m_edit(arrayPointer, array, tr("Remove %1/%2").arg(q(arrayPointer)).arg(index));
}

QString SpecForm::ownerOf(const QString& pointer) const
{
    if (m_fields.contains(pointer) || m_sections.contains(pointer))
        return pointer;
    // A generator (/params/0/init) is shown by its fields: the first field below the pointer owns it.
    for (const QString& p : m_order)
        if (p.startsWith(pointer + QLatin1Char('/')))
            return p;
    // Else the nearest field or section above `pointer` (JSON pointer prefixes end at a '/').
    for (QString p = pointer; !p.isEmpty(); p = p.left(std::max<qsizetype>(p.lastIndexOf(QLatin1Char('/')), 0))) {
        if (m_fields.contains(p) || m_sections.contains(p))
            return p;
    }
    return m_sections.contains(QStringLiteral("/")) ? QStringLiteral("/") : QString();
}

QWidget* SpecForm::fieldWidget(const QString& pointer) const
{
    const QString owner = ownerOf(pointer);
    const auto it = m_fields.constFind(owner);
    return it != m_fields.cend() ? it->editor.data() : nullptr;
}

void SpecForm::setMessages(const QString& severity, const QHash<QString, QString>& messages)
{
    m_messages[severity] = messages;
    // Clear every mark, then show errors over warnings.
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        if (it->message)
            it->message->setVisible(false);
        if (it->editor) {
            it->editor->setStyleSheet(QString());
            it->editor->setToolTip(QString());
        }
    }
    for (const auto& box : std::as_const(m_sections))
        if (box)
            box->setStyleSheet(QString());
    m_banner->setVisible(false);
    m_shown.clear();
    for (const QString& s : {QStringLiteral("warning"), QStringLiteral("error")})
        for (auto it = m_messages[s].cbegin(); it != m_messages[s].cend(); ++it)
            showMessage(ownerOf(it.key()), it.key() + QStringLiteral(": ") + it.value(), s);
}

void SpecForm::showMessage(const QString& owner, const QString& text, const QString& severity)
{
    const QColor colour =
        toneColor(severity == QLatin1String("error") ? Tone::Wrong : Tone::Caution, palette());
    const QString css = QStringLiteral("color: %1;").arg(colour.name());
    m_shown[owner] = m_shown.contains(owner) ? m_shown[owner] + QLatin1Char('\n') + text : text;
    const auto f = m_fields.constFind(owner);
    if (f != m_fields.cend() && f->editor && f->message) {
        f->message->setText(m_shown[owner]);
        f->message->setStyleSheet(css);
        f->message->setVisible(true);
        f->editor->setToolTip(m_shown[owner]);
        f->editor->setStyleSheet(QStringLiteral("border: 1px solid %1;").arg(colour.name()));
        return;
    }
    const auto s = m_sections.constFind(owner);
    if (s != m_sections.cend() && *s && owner != QLatin1String("/")) {
        const QString selector = QLatin1Char('#') + (*s)->objectName();
        (*s)->setStyleSheet(qobject_cast<QGroupBox*>(s->data())
                                ? QStringLiteral("%1 { border: 1px solid %2; margin-top: 1.2em; padding-top: 0.4em; } "
                                                 "%1::title { color: %2; subcontrol-origin: margin; left: 8px; }")
                                      .arg(selector, colour.name())
                                : QStringLiteral("%1 { border: 1px solid %2; }").arg(selector, colour.name()));
        (*s)->setToolTip(m_shown[owner]);
    }
    // Sections and the document itself also show the text in the banner, where it cannot be missed.
    m_banner->setText(m_banner->isVisible() ? m_banner->text() + QLatin1Char('\n') + text : text);
    m_banner->setStyleSheet(css);
    m_banner->setVisible(true);
}

QString SpecForm::messageAt(const QString& pointer) const
{
    return m_shown.value(ownerOf(pointer));
}

bool SpecForm::focusField(const QString& pointer)
{
    const QString owner = ownerOf(pointer);
    QWidget* target = nullptr;
    if (const auto f = m_fields.constFind(owner); f != m_fields.cend())
        target = f->editor.data();
    else if (const auto s = m_sections.constFind(owner); s != m_sections.cend())
        target = s->data();
    if (!target)
        return false;
    for (QWidget* p = parentWidget(); p; p = p->parentWidget()) {
        if (auto* scroll = qobject_cast<QScrollArea*>(p)) {
            scroll->ensureWidgetVisible(target, 20, 60);
            break;
        }
    }
    // A section takes no focus itself: its first field does.
    QWidget* focus = target;
    if (!m_fields.contains(owner))
        for (const QString& p : m_order)
            if (p.startsWith(owner + QLatin1Char('/')) && m_fields.value(p).editor) {
                focus = m_fields.value(p).editor;
                break;
            }
    focus->setFocus(Qt::OtherFocusReason);
    // A form built a moment ago has no geometry yet: scroll again once its layout has run.
    QTimer::singleShot(0, target, [target] {
        for (QWidget* p = target->parentWidget(); p; p = p->parentWidget())
            if (auto* scroll = qobject_cast<QScrollArea*>(p)) {
                scroll->ensureWidgetVisible(target, 20, 60);
                break;
            }
    });
    return true;
}

} // namespace tkm::app
