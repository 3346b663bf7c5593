package activities

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Evidence is what a screen shows that bears on whether one action took
// effect: the journal keeps it for the screen just before the input was
// sent, and a retry whose try may have reached the phone compares it with
// a fresh one (docs/design.md §4).
type Evidence struct {
	App       string `json:"app,omitempty"`  // package in front
	Hash      string `json:"hash,omitempty"` // coarse screen hash; kept when there is no UI tree
	Sensitive bool   `json:"sensitive,omitempty"`
	// Tree is a digest of the UI tree; empty when there was none.
	Tree string `json:"tree,omitempty"`
	// Focused is the text of the focused field, when one is focused;
	// FocusedKey names that field and FocusedPassword says it hides its
	// text.
	Focused         *string `json:"focused,omitempty"`
	FocusedKey      string  `json:"focused_key,omitempty"`
	FocusedPassword bool    `json:"focused_password,omitempty"`
	// Target is the element under the point a Tap, Double Tap or Long
	// Press touches; nil when there was none or no tree.
	Target *Target `json:"target,omitempty"`
	// Drafts are the text fields holding text when a touch was sent: a
	// tap that sends one empties its field and shows its text once more.
	Drafts []Draft `json:"drafts,omitempty"`
	// elems is the screen's tree, kept in memory for the screen now.
	elems []uitree.Element
}

// Draft is a text field's text and how many other elements showed it.
type Draft struct {
	Key   string `json:"key"`
	Text  string `json:"text"`
	Shown int    `json:"shown"`
}

// shown counts the elements other than text fields whose text holds s.
func shown(elems []uitree.Element, s string) int {
	n := 0
	for _, e := range elems {
		if !isTextField(e) && strings.Contains(e.Text, s) {
			n++
		}
	}
	return n
}

// fieldText is the text of the field named key, and whether it is there.
func fieldText(elems []uitree.Element, key string) (string, bool) {
	for _, e := range elems {
		if isTextField(e) && elementKey(e) == key {
			return e.Text, true
		}
	}
	return "", false
}

// Target is what an element a touch lands on shows of the touch's effect.
type Target struct {
	Key       string `json:"key"`             // class, resource id (or bounds)
	Label     string `json:"label,omitempty"` // its text, description or id, for commit words and questions
	Field     bool   `json:"field,omitempty"` // takes typed text
	Focused   bool   `json:"focused,omitempty"`
	Checkable bool   `json:"checkable,omitempty"`
	Checked   bool   `json:"checked,omitempty"`
}

// evidenceOf gathers the evidence of an observation and its UI tree
// (hasTree false when there was none) for action act.
func evidenceOf(obs Observation, elems []uitree.Element, hasTree bool, act autoglm.Action) Evidence {
	ev := Evidence{App: obs.AppPackage, Hash: obs.Hash, Sensitive: obs.Sensitive}
	if !hasTree {
		return ev
	}
	data, _ := json.Marshal(elems)
	sum := sha256.Sum256(data)
	ev.Tree = hex.EncodeToString(sum[:12])
	ev.elems = elems
	// On a secure screen the fields' text is what was typed there, a
	// secret: the evidence, which both journals keep, holds none of it
	// (docs/design.md#secrets-typed-by-the-executor), and an action it
	// would have told about is judged without it.
	return hideFieldTexts(evidenceFields(ev, obs, elems, act), obs.Sensitive)
}

// hideFieldTexts drops the fields' text from evidence of a secure screen
// (a FLAG_SECURE window: what was typed there is a secret).
func hideFieldTexts(ev Evidence, secure bool) Evidence {
	if !secure {
		return ev
	}
	if ev.Focused != nil {
		s := ""
		ev.Focused = &s
	}
	if ev.Target != nil && ev.Target.Field {
		t := *ev.Target
		t.Label = "" // a field's label is its text
		ev.Target = &t
	}
	ev.Drafts = nil
	return ev
}

// evidenceFields adds what the tree's fields and the touched element show.
func evidenceFields(ev Evidence, obs Observation, elems []uitree.Element, act autoglm.Action) Evidence {
	for _, e := range elems {
		if e.Focused && isTextField(e) {
			s := e.Text
			ev.Focused, ev.FocusedKey, ev.FocusedPassword = &s, elementKey(e), e.Password
			break
		}
	}
	if p := touchPoint(act); p != nil && obs.Width > 0 && obs.Height > 0 {
		ev.Target = targetAt(elems, act, obs.Width, obs.Height)
		for _, e := range elems {
			if isTextField(e) && !e.Password && strings.TrimSpace(e.Text) != "" {
				ev.Drafts = append(ev.Drafts, Draft{Key: elementKey(e), Text: e.Text, Shown: shown(elems, e.Text)})
			}
		}
	}
	return ev
}

// targetAt is the element under the point touch act lands on, or nil.
func targetAt(elems []uitree.Element, act autoglm.Action, w, h int) *Target {
	p := touchPoint(act)
	if p == nil || w <= 0 || h <= 0 {
		return nil
	}
	x, y := autoglm.ToPixel(*p, w, h)
	e, ok := elementAt(elems, x, y)
	if !ok {
		return nil
	}
	return &Target{Key: elementKey(e), Label: label(e), Field: isTextField(e), Focused: e.Focused,
		Checkable: e.Checkable, Checked: e.Checked}
}

// covered reports whether the phone's own window (the keyguard, a system
// dialog) is in front now where an app was before the input: what the
// action did to the app, if anything, is under it and cannot be seen.
func covered(before, now Evidence) bool {
	return now.App != "" && systemPackage(now.App) && before.App != "" && !systemPackage(before.App)
}

// touchPoint is the point a touch action lands on.
func touchPoint(a autoglm.Action) *autoglm.Point {
	switch a.Name {
	case autoglm.ActionTap, autoglm.ActionDoubleTap, autoglm.ActionLongPress:
		return a.Element
	}
	return nil
}

// elementAt is the element a touch at (x, y) lands on: the smallest one
// there that reacts to touch (clickable, checkable or a text field), else
// the smallest one there.
func elementAt(elems []uitree.Element, x, y int) (uitree.Element, bool) {
	best, bestAny := -1, -1
	area := func(i int) int {
		b := elems[i].Bounds
		return (b.X2 - b.X1) * (b.Y2 - b.Y1)
	}
	for i, e := range elems {
		b := e.Bounds
		if x < b.X1 || x >= b.X2 || y < b.Y1 || y >= b.Y2 {
			continue
		}
		if bestAny < 0 || area(i) < area(bestAny) {
			bestAny = i
		}
		if (e.Clickable || e.Checkable || isTextField(e)) && (best < 0 || area(i) < area(best)) {
			best = i
		}
	}
	if best < 0 {
		best = bestAny
	}
	if best < 0 {
		return uitree.Element{}, false
	}
	return elems[best], true
}

// elementKey names an element across two dumps: its class and resource
// id, or its class and bounds when it has no id.
func elementKey(e uitree.Element) string {
	if e.ResourceID != "" {
		return e.ShortClass() + "#" + e.ResourceID
	}
	b := e.Bounds
	return fmt.Sprintf("%s@%d,%d,%d,%d", e.ShortClass(), b.X1, b.Y1, b.X2, b.Y2)
}

func label(e uitree.Element) string {
	for _, s := range []string{e.Text, e.Desc, e.ShortID()} {
		if s = strings.TrimSpace(s); s != "" {
			return clip(s, 60)
		}
	}
	return e.ShortClass()
}

// isTextField reports whether an element takes typed text.
func isTextField(e uitree.Element) bool {
	c := strings.ToLower(e.ShortClass())
	return strings.Contains(c, "edittext") || strings.Contains(c, "textfield") || strings.Contains(c, "autocomplete") || strings.Contains(c, "searchview")
}

func isType(a autoglm.Action) bool {
	return a.Name == autoglm.ActionType || a.Name == autoglm.ActionTypeName
}

// commitWords are labels of buttons whose tap cannot be taken back: a
// tap on one whose outcome is unknown is asked about, never guessed.
var commitWords = []string{
	"send", "pay", "delete", "confirm", "submit", "buy", "purchase", "transfer", "post", "order", "remove",
	"book", "checkout", "publish", "call", "accept", "ok", "yes", "erase", "reset", "unsubscribe", "cancel",
}

// commitRunes are commit labels in scripts without spaces between words.
var commitRunes = []string{"发送", "支付", "付款", "删除", "确认", "确定", "提交", "购买", "转账", "下单", "发布"}

// isCommit reports whether act, touching target, commits something: a
// tap the executor marked sensitive, or a touch on an element labelled
// with a commit word.
func isCommit(act autoglm.Action, target *Target) bool {
	if act.Sensitive() {
		return true
	}
	if target == nil || touchPoint(act) == nil {
		return false
	}
	return isCommitLabel(target.Label)
}

// isCommitLabel reports whether an element's label is a commit word.
func isCommitLabel(label string) bool {
	l := strings.ToLower(label)
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) }) {
		for _, c := range commitWords {
			if w == c {
				return true
			}
		}
	}
	for _, c := range commitRunes {
		if strings.Contains(l, c) {
			return true
		}
	}
	return false
}

// Verdict is the decision on an action whose try may have reached the
// phone: its input was sent, and the try failed before its result was
// recorded.
type Verdict int

const (
	// NotApplied: the evidence shows the action did not happen, or it is
	// one that changes nothing when sent twice; send it.
	NotApplied Verdict = iota
	// Applied: the action's own effect is on the screen; do not send it
	// again.
	Applied
	// Unknown: the screen changed, but nothing specific to the action
	// tells whether that was the action; neither send nor claim it: the
	// executor is told to look.
	Unknown
	// Ask: as Unknown, for a commit or on a screen nobody can read; a
	// person is asked.
	Ask
)

func (v Verdict) String() string {
	return [...]string{"not applied", "applied", "unknown", "ask"}[v]
}

// decide judges, from evidence specific to act, whether act took effect
// between the screen just before its input was sent (before) and the
// screen now. A change of the screen alone is never taken for the
// action's effect: the phone changes its screen by itself.
func decide(act autoglm.Action, before, now Evidence) (Verdict, string) {
	v, why := decideAction(act, before, now)
	if v == Unknown && (isCommit(act, before.Target) || (now.Tree == "" && now.Sensitive)) {
		return Ask, why
	}
	return v, why
}

func decideAction(act autoglm.Action, before, now Evidence) (Verdict, string) {
	switch {
	case act.Name == autoglm.ActionHome:
		return NotApplied, "Home twice is Home once: sent again"
	case act.Name == autoglm.ActionLaunch:
		return decideLaunch(before, now)
	case now.Tree == "" && now.Sensitive:
		return Unknown, "the screen is secure and shows no UI tree"
	case isType(act):
		return decideType(act, before, now)
	case unchanged(before, now) && systemPackage(before.App):
		// A system dialog or the keyguard the input met shows again by
		// itself (a warning repeated, the screen timed out): as it was is
		// no sign the input did nothing, and sent again it would act on
		// the window shown anew, or on the app under it.
		return Unknown, fmt.Sprintf("the phone's own window (%s) shows as it did just before the input, and the phone shows such windows again by itself: nothing tells whether the input took effect", before.App)
	case unchanged(before, now):
		return decideUnchanged(act, before, now)
	}
	if touchPoint(act) != nil {
		return decideTouch(act, before, now)
	}
	if before.Tree == "" && before.Hash == "" {
		return Unknown, "nothing was kept of the screen before the input"
	}
	return Unknown, "the screen changed, and " + act.Name + " leaves no trace of its own to tell it from a change the phone made by itself"
}

// decideUnchanged judges an action on a screen exactly as it was just
// before the input. That is no proof the input did nothing: an app that
// is slow to draw its effect shows the screen before it for a while, and
// an input that changes nothing visible (a swipe at a list's end, a tap on
// an empty spot) leaves it as it was. So it is sent again only where
// sending it twice cannot do more than once would: a tap on a text field
// (focus), or on a switch that did not flip, by their own evidence, and a
// Send whose text is still in its field and not on the screen. Any other
// action (a Swipe, Back, a tap on a button or a row, a Double Tap, a Long
// Press) is unknown, and a commit among them is asked about (decide).
// Home, Launch and Type are judged before (decideAction).
func decideUnchanged(act autoglm.Action, before, now Evidence) (Verdict, string) {
	if touchPoint(act) != nil {
		if v, why := decideTouch(act, before, now); v != Unknown {
			return v, why
		}
	}
	return Unknown, fmt.Sprintf("the screen is exactly as it was just before the input, which a slow app or %s without a visible effect also leaves, and sent twice it could do more than once", article(act.Name))
}

// article is an action's name with its indefinite article, in lower case.
func article(name string) string {
	n := strings.ToLower(name)
	if n != "" && strings.ContainsRune("aeiou", rune(n[0])) {
		return "an " + n
	}
	return "a " + n
}

// unchanged reports whether the screen now is the one just before the
// input: the same app and UI tree, or without trees the same screenshot
// hash.
func unchanged(before, now Evidence) bool {
	if before.App != now.App {
		return false
	}
	if before.Tree != "" || now.Tree != "" {
		return before.Tree == now.Tree
	}
	return before.Hash != "" && before.Hash == now.Hash
}

func decideTouch(act autoglm.Action, before, now Evidence) (Verdict, string) {
	bt, nt := before.Target, now.Target
	switch {
	case bt == nil:
		return Unknown, "the screen changed, and nothing was under the touched point to show the touch's own effect"
	case nt == nil || nt.Key != bt.Key:
		return Unknown, fmt.Sprintf("the screen changed and %q is no longer under the touched point", bt.Label)
	case act.Name != autoglm.ActionTap:
	case bt.Field && bt.Focused:
		return NotApplied, fmt.Sprintf("the field %q was focused already: tapping it again changes nothing", bt.Label)
	case bt.Field && nt.Focused:
		return Applied, fmt.Sprintf("the tapped field %q is focused now", bt.Label)
	case bt.Field && now.FocusedKey == "" && before.App == now.App:
		return NotApplied, fmt.Sprintf("the tapped field %q is still not focused", bt.Label)
	case bt.Checkable && nt.Checked != bt.Checked:
		return Applied, fmt.Sprintf("%q flipped", bt.Label)
	case bt.Checkable:
		return NotApplied, fmt.Sprintf("%q did not flip", bt.Label)
	case bt.Field:
	case len(before.Drafts) > 0 && now.elems != nil:
		return decideSend(bt, before, now)
	}
	return Unknown, fmt.Sprintf("the screen changed, but nothing specific to %q tells whether the %s took effect", bt.Label, strings.ToLower(act.Name))
}

// decideLaunch: a launch brings an app to the front. The system's own
// windows (the keyguard, a system dialog) are no app a launch starts, and
// one in front hides the app under it: one in front now, or just before
// the input, leaves the app in front unknown, so neither its change nor
// its staying the same tells whether the launch took effect.
func decideLaunch(before, now Evidence) (Verdict, string) {
	switch {
	case now.App == "" || systemPackage(now.App):
		return Unknown, "the phone's own windows are in front: nothing tells whether the app started"
	case before.App == "":
		return Unknown, "the app in front just before the launch is not known: nothing tells whether the launch brought " + now.App
	case systemPackage(before.App):
		return Unknown, fmt.Sprintf("the phone's own window (%s) was in front just before the launch and hid the app under it: nothing tells whether the launch brought %s", before.App, now.App)
	case now.App != before.App:
		return Applied, fmt.Sprintf("the app in front changed from %s to %s", before.App, now.App)
	}
	return NotApplied, "the app in front is the one before the launch: launched again"
}

// systemPackage reports whether a package is the system's own UI rather
// than an app a launch starts.
func systemPackage(pkg string) bool {
	return pkg == "android" || pkg == "com.android.systemui"
}

// decideSend judges a tap on a button while fields held text: a tap that
// sends a field's text empties the field and shows the text once more
// (the conversation's new message); a field that still holds its text,
// with the text shown no more often, was not sent.
func decideSend(bt *Target, before, now Evidence) (Verdict, string) {
	kept := 0
	for _, d := range before.Drafts {
		text, ok := fieldText(now.elems, d.Key)
		switch {
		case ok && !strings.Contains(text, d.Text) && shown(now.elems, d.Text) > d.Shown:
			return Applied, fmt.Sprintf("the text %q left its field and shows on the screen once more since %q was tapped", clip(d.Text, 60), bt.Label)
		case ok && text == d.Text && shown(now.elems, d.Text) == d.Shown:
			kept++
		}
	}
	if kept == len(before.Drafts) && isCommitLabel(bt.Label) {
		return NotApplied, fmt.Sprintf("the text %q %q would have sent is still in its field and not on the screen", clip(before.Drafts[0].Text, 60), bt.Label)
	}
	return Unknown, fmt.Sprintf("the screen changed, but nothing specific to %q tells whether the tap took effect", bt.Label)
}

// decideType: typing replaces the focused field's text (the ADB Keyboard
// clears it first), so typing into the same field again is harmless.
func decideType(act autoglm.Action, before, now Evidence) (Verdict, string) {
	switch {
	case now.Tree == "":
		return Unknown, "no UI tree could be read to look for the typed text"
	case before.FocusedKey == "":
		return Unknown, "no field was focused when the text was sent"
	case now.FocusedKey != before.FocusedKey:
		return Unknown, "another field has the focus now"
	case now.FocusedPassword:
		return NotApplied, "the focused field hides its text, and typing replaces it: typed again"
	case act.Sealed != "":
		// The text is sealed, not compared: typing replaces the
		// field's text, so typing it again is harmless.
		return NotApplied, "the typed text is a secret, not compared with the field, and typing replaces it: typed again"
	case *now.Focused == act.Text && (before.Focused == nil || *before.Focused != act.Text):
		return Applied, "the focused field holds the typed text"
	}
	return NotApplied, "typing replaces the focused field's text: typed again"
}
