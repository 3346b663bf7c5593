package postcond

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/clocktime"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// DefaultCommitLabels are the labels of controls that commit something the
// phone cannot take back (docs/design.md §9): a tap on one is checked
// against the todo before it is sent. They name the action, in the
// languages phones show it in: send, save, delete, pay, confirm, allow,
// accept, call, end a call, post, log in, buy, clear all, close an app.
var DefaultCommitLabels = []string{
	"Send", "Save", "Delete", "Pay", "Confirm", "OK", "Done", "Submit", "Transfer",
	"Allow", "Always allow", "Allow all", "While using the app", "Only this time", "Just once", "Always", "Grant",
	"Accept", "Agree", "Call", "End call", "Hang up", "Post", "Tweet", "Publish", "Log in", "Login", "Sign in",
	"Buy", "Buy now", "Sell", "Purchase", "Place order", "Order", "Book", "Clear all", "Close app", "Force stop", "Uninstall", "Erase", "Reset",
	"发送", "保存", "删除", "支付", "付款", "确认", "确定", "完成", "提交", "转账",
	"允许", "始终允许", "仅在使用中允许", "仅限这一次", "仅此一次", "始终", "同意", "接受", "拨打", "呼叫", "挂断", "发布", "发表",
	"登录", "登陆", "买入", "卖出", "购买", "立即购买", "下单", "清除全部", "全部清除", "关闭应用", "强行停止", "卸载",
	// Other languages real phones show.
	"Готово", "Отправить", "Сохранить", "Удалить", "Разрешить", "Подтвердить", "Принять", "Войти", "Позвонить", "Опубликовать",
	"Enviar", "Guardar", "Eliminar", "Permitir", "Confirmar", "Aceptar", "Listo", "Llamar", "Publicar", "Pagar", "Comprar",
	"Salvar", "Excluir", "Concluído", "Entrar", "Ligar",
	"Senden", "Speichern", "Löschen", "Zulassen", "Erlauben", "Bestätigen", "Fertig", "Anrufen", "Annehmen",
	"Envoyer", "Enregistrer", "Supprimer", "Autoriser", "Confirmer", "Valider", "Terminé", "Appeler", "Accepter", "Publier",
	"Wyślij", "Zapisz", "Usuń", "Zezwól", "Potwierdź", "Gotowe", "Zadzwoń", "Akceptuj",
	"Gönder", "Gönderi", "Kaydet", "Sil", "İzin ver", "Onayla", "Tamam", "Kabul et", "Ara", "Paylaş",
	"Gửi", "Lưu", "Xóa", "Cho phép", "Xác nhận", "Đồng ý", "Xong", "Gọi",
	"전송", "보내기", "저장", "삭제", "허용", "확인", "완료", "통화", "게시",
	"ส่ง", "บันทึก", "ลบ", "อนุญาต", "ยืนยัน", "ตกลง", "เสร็จสิ้น", "โทร",
	"送信", "削除", "許可", "確認", "完了", "投稿",
}

// IsCommit reports whether an element is a commit control: its text or
// description is one of labels (docs/design.md#verification-and-honest-status).
// A checkable control (a tab, a toggle, a box to tick) only changes what
// the screen shows or a setting it can change back: never a commit.
func IsCommit(e uitree.Element, labels []string) bool {
	if e.Checkable {
		return false
	}
	return IsCommitLabel(e.Text, labels) || IsCommitLabel(e.Desc, labels)
}

// SavesOnLeaving reports a tap that leaves an editor saving what it holds:
// the control is the editor's Navigate up (返回 on MIUI), a field on the
// screen is filled, and no commit control on the screen is the one way to
// keep it (Google Keep and Samsung Notes have no Save: a note is saved
// when its editor is left; 便签's 完成编辑 keeps it in place, and so does
// its 返回). Such a tap is judged as a Save is (docs/design.md §9).
func SavesOnLeaving(control uitree.Element, es []uitree.Element, labels []string) bool {
	if !leaves(control) || firstFilled(fieldsOf(es)) == nil {
		return false
	}
	for _, e := range es {
		if e.Clickable && !e.IsField() && IsCommit(e, labels) && !keepsInPlace(e) {
			return false
		}
	}
	return true
}

// leaves reports an editor's control that leaves it: Navigate up, or
// MIUI's 返回.
func leaves(e uitree.Element) bool {
	d := strings.TrimSpace(e.Desc)
	return strings.EqualFold(d, "Navigate up") || d == "返回"
}

// keepsInPlace reports a commit control that finishes editing and leaves
// the editor open, as 便签's 完成编辑 mark does: an editor showing one
// still saves what it holds as it is left.
func keepsInPlace(e uitree.Element) bool {
	return strings.TrimSpace(e.Desc) == "完成编辑" || strings.TrimSpace(e.Text) == "完成编辑"
}

// BackSaves is the control a system Back on the screen stands for when it
// leaves an editor saving what it holds: the editor's Navigate up, where a
// tap on it saves on leaving (SavesOnLeaving). The Back is judged as that
// tap is (docs/design.md §9); a Back that only closes the keyboard is
// judged too, as the screen does not tell it apart. An editor of a saved
// record (it says when the record was edited) whose title the todo does
// not name is left as it was opened as far as the screen tells: a Back
// there is the way out of a record opened by mistake, and is not judged.
func BackSaves(task string, es []uitree.Element, labels []string) (int, bool) {
	up := -1
	for i, e := range es {
		if e.Clickable && leaves(e) {
			up = i
			break
		}
	}
	if up < 0 || !SavesOnLeaving(es[up], es, labels) {
		return -1, false
	}
	if savedRecord(es) && !strings.Contains(norm(task), norm(fieldText(*firstFilled(fieldsOf(es))))) {
		return -1, false
	}
	return up, true
}

// savedRecord reports an editor that shows a saved record, not a new
// one: it says when the record was last edited (Google Keep's edit_date,
// "Edited 9:41 AM"), or it shows the record for reading (便签 opens a
// saved note with 分享 where its editing bar has 完成编辑).
func savedRecord(es []uitree.Element) bool {
	share, editing := false, false
	for _, e := range es {
		if !e.IsField() && (e.ShortID() == "edit_date" || strings.HasPrefix(strings.TrimSpace(e.Text), "Edited ")) {
			return true
		}
		share = share || e.Clickable && strings.TrimSpace(e.Desc) == "分享"
		editing = editing || keepsInPlace(e)
	}
	return share && !editing
}

// fieldsOf is the screen's input fields: not a wheel picker's value,
// which sets a time (PickerTime reads it) and names no record.
func fieldsOf(es []uitree.Element) []uitree.Element {
	var out []uitree.Element
	parent := uitree.Parents(es)
	for i, e := range es {
		if e.IsField() && (parent[i] < 0 || es[parent[i]].ShortClass() != "NumberPicker") {
			out = append(out, e)
		}
	}
	return out
}

// commitObjects are the words a commit control may name after its verb
// and still be that action: "Send message", "Send SMS", "Save changes",
// "发送短信".
var (
	commitObjects   = []string{"message", "sms", "mms", "text", "email", "mail", "reply", "note", "event", "alarm", "contact", "changes", "now", "payment", "comment", "post", "all", "order", "notifications"}
	commitObjectsZH = []string{"消息", "短信", "信息", "彩信", "邮件", "日程", "笔记", "便签", "闹钟", "联系人", "更改", "修改", "编辑"}
	// priceRe is a price a commit control names after its verb ("Pay
	// $5", "Aceptar por S/ 8", "Buy for 3,99 €"): an optional "for" word,
	// a currency, an amount.
	priceRe = regexp.MustCompile(`^(?:(?:for|por|pour|für|per|за|para)\s+)?(?:\p{Sc}|[\p{L}]{1,3}/?\.?)?\s*\d[\d.,' ]*\s*(?:\p{Sc}|[\p{L}]{1,3}\.?)?$`)
)

// commitForm is a label as commit labels are compared: its label form
// with the dot a capital İ leaves when lowered removed ("GÖNDERİ" is
// "gönderi"), and no spaces between Chinese, Japanese or Korean
// characters ("买 入" is "买入").
func commitForm(s string) string {
	l, _ := labelForm(s)
	l = strings.ReplaceAll(l, "\u0307", "")
	rs := []rune(l)
	var b strings.Builder
	for i, r := range rs {
		if r == ' ' && i > 0 && i+1 < len(rs) && isCJK(rs[i-1]) && isCJK(rs[i+1]) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// IsCommitLabel reports whether a control's label is a commit action: it
// is one of labels (case, spacing, dashes and a closing mark aside), or
// one of them followed by only what it acts on ("Send message") or a
// price ("Pay $5"). A label that merely holds the word ("Sent", "Send
// feedback", "Delete all Timeline data?", "Don't save") is not one.
func IsCommitLabel(label string, labels []string) bool {
	l := commitForm(label)
	if l == "" {
		return false
	}
	for _, c := range labels {
		v := commitForm(c)
		if v == "" {
			continue
		}
		if l == v {
			return true
		}
		if rest, ok := strings.CutPrefix(l, v+" "); ok && (slices.Contains(commitObjects, rest) || priceRe.MatchString(rest)) {
			return true
		}
		if rest, ok := strings.CutPrefix(l, v); ok && !isASCII(v) && slices.Contains(commitObjectsZH, rest) {
			return true
		}
	}
	return false
}

// ControlLabel is the label of the control es[i]: its own text or
// description, else the first inside it (an icon button whose description
// is on its child, as Compose draws Google Messages' "Send message").
func ControlLabel(es []uitree.Element, i int) string {
	if l := firstNonEmpty(strings.TrimSpace(es[i].Text), strings.TrimSpace(es[i].Desc)); l != "" {
		return l
	}
	for j := i + 1; j < uitree.SubtreeEnd(es, i); j++ {
		if l := firstNonEmpty(strings.TrimSpace(es[j].Text), strings.TrimSpace(es[j].Desc)); l != "" {
			return l
		}
	}
	return ""
}

// Target is what a commit action is about to act on.
type Target struct {
	Task     string           // the todo's text
	Expect   []Check          // its postconditions
	Control  uitree.Element   // the commit control tapped
	Elements []uitree.Element // the screen it is on
}

// WrongTarget returns why a commit action must not be sent, or "" when
// nothing on the screen contradicts the todo: a placeholder about to be
// sent as content, a conversation with someone the todo does not name, a
// message that is not the todo's, a record or field that is not the one
// the postconditions name.
func WrongTarget(t Target) string {
	if uitree.Disabled(t.Elements, t.Control) {
		return fmt.Sprintf("the %q control is disabled (enabled=false), so a tap on it does nothing: do what enables it first (a box to tick, a field to fill)", clip(label(t.Control), 40))
	}
	fields := fieldsOf(t.Elements)
	for _, f := range fields {
		if v := fieldText(f); v != "" && Unresolved(v) {
			return fmt.Sprintf("the field %q holds %q, a placeholder and not a value: put the value itself in", fieldName(f), clip(v, 80))
		}
	}
	title := Title(t.Elements)
	conversation := title != "" && len(fields) > 0 && (LastOutgoing(t.Elements) != "" || isSend(t.Control))
	for _, c := range t.Expect {
		switch c.Kind {
		case LastSent:
			if title != "" && !sameName(title, c.Conversation) {
				return fmt.Sprintf("this conversation is with %q, but the todo sends to %q", title, c.Conversation)
			}
			// The message sent is the field's text, so a text that does
			// not hold the check's whole (a part of it, "收到" for
			// "收到，谢谢") can never make it hold: sent, it would commit
			// the wrong words.
			for _, f := range fields {
				if v := fieldText(f); v != "" && !holds(v, c.Contains) {
					return fmt.Sprintf("the message field holds %q, but the todo sends %q", clip(v, 80), clip(c.Contains, 80))
				}
			}
		case FieldHolds:
			if e, v := FieldValue(t.Elements, c.Field); e != nil && e.IsField() && v != "" && !holds(v, c.Value) {
				return fmt.Sprintf("the field %q holds %q, but the todo wants %q", c.Field, clip(v, 80), c.Value)
			}
		case RowShows, ElementAbsent:
			name := c.Row
			if c.Kind == ElementAbsent {
				name = c.Text
			}
			if c.Kind == RowShows && onlyValue(fields, c.Shows) {
				// A dialog whose one field holds what the row must show
				// (DeskClock's label dialog, opened from the alarm's row)
				// sets that value on the row: it names no other record.
				continue
			}
			if picked, _ := PickerTime(t.Elements); picked != "" && sameTime(picked, name) {
				// An alarm's page is its record: the time its picker is
				// set to names it, whatever the label field holds.
				continue
			}
			if primary := firstFilled(fields); primary != nil && !anyHolds(fields, name) && !holds(title, name) && !renamedTo(t.Task, t.Expect, c, fields) {
				return fmt.Sprintf("the record on this screen is %q, but the todo is about %q", clip(fieldText(*primary), 80), clip(name, 80))
			}
		}
	}
	if !conversation {
		if why := valueConflict(t.Expect, fields, t.Elements); why != "" {
			return why
		}
		if why := bodyConflict(t.Task, fields, t.Elements); why != "" {
			return why
		}
	}
	if len(t.Expect) > 0 && onlyKind(t.Expect, Switch) && firstFilled(fields) != nil && !conversation {
		// The todo switches something that exists; a filled form about to
		// be saved makes a new record instead.
		return fmt.Sprintf("the todo switches an existing item (%s), but this screen saves a new record %q", t.Expect[0], clip(fieldText(*firstFilled(fields)), 80))
	}
	if conversation && !hasKind(t.Expect, LastSent) && !mentions(t.Task, title) {
		return fmt.Sprintf("this conversation is with %q, whom the todo does not name", title)
	}
	return ""
}

// renamedTo reports whether a record the todo makes absent is on the
// screen under the name the same todo shows in its place: a rename
// ("Shopping list" is not shown, "Trip" is shown) saves the record with
// its new name already typed. The new name is one the todo says, not a
// word the check also looks for to know the screen ("Notes").
func renamedTo(task string, cs []Check, absent Check, fields []uitree.Element) bool {
	if absent.Kind != ElementAbsent {
		return false
	}
	for _, c := range cs {
		if c.Kind != ElementExists || same(c.Text, absent.Text) || !strings.Contains(norm(task), norm(c.Text)) {
			continue
		}
		for _, f := range fields {
			if same(fieldText(f), c.Text) {
				return true
			}
		}
	}
	return false
}

func isSend(e uitree.Element) bool { return IsCommit(e, []string{"Send", "发送"}) }

func hasKind(cs []Check, kind string) bool {
	for _, c := range cs {
		if c.Kind == kind {
			return true
		}
	}
	return false
}

// mentions reports whether a todo names a person a screen titles: the
// whole name or one of its words ("Alice" for "Alice Chen").
func mentions(task, name string) bool {
	t := norm(task)
	if strings.Contains(t, norm(name)) {
		return true
	}
	for _, w := range strings.Fields(norm(name)) {
		if len([]rune(w)) >= 2 && containsWord(t, w) {
			return true
		}
	}
	return false
}

// fieldText is what an input holds: its text unless that is its hint
// (the dump's hint attribute, or the description the simulator and many
// apps give a field, which an empty field shows).
func fieldText(e uitree.Element) string {
	if same(e.Text, e.Hint) || same(e.Text, e.Desc) || strings.HasPrefix(norm(e.Desc), norm(e.Text)+" ") {
		return ""
	}
	return strings.TrimSpace(e.Text)
}

func fieldName(e uitree.Element) string {
	return firstNonEmpty(firstNonEmpty(e.Desc, e.Hint), strings.ReplaceAll(e.ShortID(), "_", " "))
}

func firstFilled(fields []uitree.Element) *uitree.Element {
	for i, f := range fields {
		if fieldText(f) != "" {
			return &fields[i]
		}
	}
	return nil
}

// onlyValue reports whether the one filled field holds want, whole.
func onlyValue(fields []uitree.Element, want string) bool {
	n := 0
	for _, f := range fields {
		if v := fieldText(f); v != "" {
			if !same(v, want) {
				return false
			}
			n++
		}
	}
	return n == 1
}

func anyHolds(fields []uitree.Element, want string) bool {
	for _, f := range fields {
		if v := fieldText(f); v != "" && (holds(v, want) || holds(want, v)) {
			return true
		}
	}
	return false
}

// DescribeCommit says what a commit action commits, for the replanner:
// `Send on "Alice Chen": "see you at 6"`.
func DescribeCommit(t Target) string {
	d := firstNonEmpty(t.Control.Text, t.Control.Desc)
	if title := Title(t.Elements); title != "" {
		d += fmt.Sprintf(" on %q", title)
	}
	var vals []string
	for _, e := range t.Elements {
		if e.IsField() {
			if v := fieldText(e); v != "" {
				vals = append(vals, fmt.Sprintf("%q", clip(v, 80)))
			}
		}
	}
	if len(vals) > 0 {
		d += ": " + strings.Join(vals, ", ")
	}
	return d
}

func onlyKind(cs []Check, kind string) bool {
	for _, c := range cs {
		if c.Kind != kind {
			return false
		}
	}
	return true
}

// valueConflict returns why a form must not be saved when one of its fields
// holds a whole value of a kind the postconditions name (a clock time, a
// phone number) and that value is none of theirs: "11:15" about to be saved
// for a todo that expects "10:15" shown (docs/design.md §9). Values are
// compared normalised ("7:05 PM" is "19:05"); a field that holds more than
// the value (a note's body mentioning a time) is not judged here.
func valueConflict(cs []Check, fields, es []uitree.Element) string {
	for _, typ := range []string{TypeTime, TypePhone} {
		var want []string
		for _, c := range cs {
			switch c.Kind {
			case ElementExists, RowShows, FieldHolds, Switch:
				for _, s := range []string{c.Text, c.Row, c.Shows, c.Value, c.Label} {
					want = append(want, values(typ, s)...)
				}
			}
		}
		if len(want) == 0 {
			continue
		}
		for _, f := range fields {
			v := fieldText(f)
			got := wholeValue(typ, v)
			if got == "" || slices.Contains(want, got) {
				continue
			}
			return fmt.Sprintf("the field %q holds %q, but the todo wants %s", fieldName(f), clip(v, 40), quoteAll(want))
		}
		if typ == TypeTime {
			if got, shown := PickerTime(es); got != "" && !slices.Contains(want, got) {
				return fmt.Sprintf("the time picker shows %s (%s), but the todo wants %s", shown, got, quoteAll(want))
			}
		}
	}
	return ""
}

// PickerTime is the time a time picker on the screen is set to, as
// "HH:MM" (24 h), and the words it shows ("11 : 15 AM"); "" when no
// picker shows a whole time. The framework's picker shows the hour and
// the minute apart: as the fields input_hour and input_minute with the
// am/pm spinner in its text-input mode, as the hours and minutes texts
// with am_label/pm_label checked on the dial (frameworks/base
// time_picker_text_input_material.xml, time_picker_header_material.xml);
// Google Clock's Material picker as its real dumps show it
// (internal/realscreens/testdata/naviagent-google-clock-timepicker-*.xml).
func PickerTime(es []uitree.Element) (hhmm, shown string) {
	var hour, minute, ampm string
	for _, e := range es {
		switch e.ShortID() {
		case "input_hour", "hours":
			hour = strings.TrimSpace(fieldText(e))
		case "input_minute", "minutes":
			minute = strings.TrimSpace(fieldText(e))
		case "am_label", "pm_label":
			if e.Checked {
				ampm = strings.TrimSpace(e.Text)
			}
		}
	}
	// Google Clock's Material time picker: the hour and minute chips
	// material_hour_tv and material_minute_tv on the dial; typing, the
	// EditText or chip inside material_hour_text_input and
	// material_minute_text_input; the AM/PM CompoundButton checked.
	parents := uitree.Parents(es)
	for i, e := range es {
		switch e.ShortID() {
		case "material_hour_tv":
			hour = strings.TrimSpace(e.Text)
		case "material_minute_tv":
			minute = strings.TrimSpace(e.Text)
		case "material_clock_period_am_button", "material_clock_period_pm_button":
			if e.Checked {
				ampm = strings.ToUpper(strings.TrimSpace(e.Text))
			}
		}
		t := strings.TrimSpace(e.Text)
		if _, err := strconv.Atoi(t); err != nil || e.ShortID() != "" {
			continue
		}
		for a := parents[i]; a >= 0; a = parents[a] {
			if id := es[a].ShortID(); id == "material_hour_text_input" {
				hour = t
				break
			} else if id == "material_minute_text_input" {
				minute = t
				break
			}
		}
	}
	for i, e := range es {
		// The spinner shows its choice in the text inside it.
		if e.ShortID() == "am_pm_spinner" && i+1 < len(es) && es[i+1].Depth > e.Depth {
			if t := strings.ToUpper(strings.TrimSpace(es[i+1].Text)); t == "AM" || t == "PM" {
				ampm = t
			}
		}
	}
	if hour == "" && minute == "" {
		hour, minute, ampm = wheelTime(es)
	}
	h, errH := strconv.Atoi(hour)
	m, errM := strconv.Atoi(minute)
	if errH != nil || errM != nil || len(minute) != 2 || h < 0 || h > 23 || m < 0 || m > 59 {
		return "", ""
	}
	shown = strings.TrimSpace(hour + ":" + minute + " " + ampm)
	if ampm != "" {
		if h < 1 || h > 12 {
			return "", ""
		}
		h = clocktime.Hour24(h, ampm)
	}
	return fmt.Sprintf("%02d:%02d", h, m), shown
}

// wheelTime is the hour, minute and morning or afternoon mark a picker of
// wheels shows (MIUI's and One UI's alarm pages: a NumberPicker each, its
// value in numberpicker_input, between the values before and after it as
// the framework NumberPicker lays them out): the mark's wheel by its words,
// then the hour's and the minute's in screen order, or by the word One UI
// writes after the value ("7, Hour"). "" for each when no such wheels show.
func wheelTime(es []uitree.Element) (hour, minute, mark string) {
	var nums []string
	for i, e := range es {
		if e.ShortClass() != "NumberPicker" {
			continue
		}
		end := uitree.SubtreeEnd(es, i)
		val := ""
		for j := i + 1; j < end; j++ {
			if es[j].ShortID() == "numberpicker_input" {
				val = strings.TrimSpace(es[j].Text)
				break
			}
		}
		v, what, _ := strings.Cut(val, ",")
		v, what = strings.TrimSpace(v), strings.ToLower(strings.TrimSpace(what))
		switch {
		case v == "":
		case MarkWord(v):
			mark = map[bool]string{true: "AM", false: "PM"}[strings.EqualFold(v, "am") || v == "上午" || v == "早上" || v == "凌晨"]
		case what == "hour":
			hour = v
		case what == "minute":
			minute = v
		default:
			nums = append(nums, v)
		}
	}
	for _, n := range nums {
		if hour == "" {
			hour = n
		} else if minute == "" {
			minute = n
		}
	}
	if hour == "" || minute == "" {
		return "", "", ""
	}
	return hour, minute, mark
}

// wholeValue is the one value of a type a field holds when the field holds
// nothing else (spaces and separators aside), or "".
func wholeValue(typ, v string) string {
	// "8:30\u200aAM": Google Clock writes a hair space before AM.
	v = strings.Map(foldRune, v)
	vals := values(typ, v)
	if len(vals) != 1 {
		return ""
	}
	re := timeValRe
	if typ == TypePhone {
		re = phoneValRe
	}
	if strings.Trim(re.ReplaceAllString(v, ""), " ()+-.") != "" {
		return ""
	}
	return vals[0]
}

func quoteAll(vals []string) string {
	var q []string
	for _, v := range slices.Compact(slices.Sorted(slices.Values(vals))) {
		q = append(q, fmt.Sprintf("%q", v))
	}
	return strings.Join(q, " or ")
}

// sayingRe is the words a todo saves, quoted after "saying" (`Create a
// note titled "Trip" saying "pack passport"`).
var sayingRe = regexp.MustCompile(`\bsaying "([^"]+)"`)

// bodyConflict returns why a form must not be saved when the todo quotes
// the words it saves and the form's body field holds other words: the
// notes list shows titles only, so a body typed wrong would be saved
// unseen (docs/design.md §9). The body is a field named so, or the one
// a check of the field "Body" reads (FieldValue: 便签's rich_editor by its
// hint 开始书写, Samsung Notes' field below the title, which has no id).
func bodyConflict(task string, fields, es []uitree.Element) string {
	m := sayingRe.FindStringSubmatch(task)
	if m == nil {
		return ""
	}
	conflict := func(f uitree.Element) string {
		if v := fieldText(f); v != "" && !holds(v, m[1]) {
			name := fieldName(f)
			if name == "" {
				name = "Body"
			}
			return fmt.Sprintf("the field %q holds %q, but the todo saves %q", name, clip(v, 80), clip(m[1], 80))
		}
		return ""
	}
	for _, f := range fields {
		name := strings.ToLower(fieldName(f))
		if !strings.Contains(name, "body") && !strings.Contains(name, "text") && !strings.Contains(name, "content") && name != "note" {
			continue
		}
		if why := conflict(f); why != "" {
			return why
		}
	}
	if e, _ := FieldValue(es, "Body"); e != nil && e.IsField() {
		return conflict(*e)
	}
	return ""
}
