package activities

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Evidence is what a screen shows that bears on whether an action took
// effect: enough to compare the screen an action was decided on with a
// fresh one after a crash (docs/design.md §19).
type Evidence struct {
	App       string `json:"app,omitempty"`  // package in front
	Hash      string `json:"hash,omitempty"` // coarse screen hash
	Sensitive bool   `json:"sensitive,omitempty"`
	// Tree is a digest of the UI tree; empty when there was none.
	Tree string `json:"tree,omitempty"`
	// Focused is the text of the focused field, when one is focused;
	// FocusedPassword says the field hides its text.
	Focused         *string `json:"focused,omitempty"`
	FocusedPassword bool    `json:"focused_password,omitempty"`
	// TextCount is how many elements show the text a Type action types.
	TextCount int `json:"text_count,omitempty"`
}

// evidenceOf gathers the evidence of an observation and its UI tree (nil
// when there was none) for action act.
func evidenceOf(obs Observation, elems []uitree.Element, hasTree bool, act autoglm.Action) Evidence {
	ev := Evidence{App: obs.AppPackage, Hash: obs.Hash, Sensitive: obs.Sensitive}
	if !hasTree {
		return ev
	}
	data, _ := json.Marshal(elems)
	sum := sha256.Sum256(data)
	ev.Tree = hex.EncodeToString(sum[:12])
	for _, e := range elems {
		if e.Focused && isTextField(e) && ev.Focused == nil {
			s := e.Text
			ev.Focused, ev.FocusedPassword = &s, e.Password
		}
		if isType(act) && act.Text != "" && strings.Contains(e.Text, act.Text) {
			ev.TextCount++
		}
	}
	return ev
}

// isTextField reports whether an element takes typed text.
func isTextField(e uitree.Element) bool {
	c := strings.ToLower(e.ShortClass())
	return strings.Contains(c, "edittext") || strings.Contains(c, "textfield") || strings.Contains(c, "autocomplete") || strings.Contains(c, "searchview")
}

func isType(a autoglm.Action) bool {
	return a.Name == autoglm.ActionType || a.Name == autoglm.ActionTypeName
}

// Verdict is the decision on an action whose intent was recorded but whose
// result was not.
type Verdict int

const (
	// NotApplied: the screen shows the action did not happen; send it.
	NotApplied Verdict = iota
	// Applied: the screen shows the action's effect; do not send it again.
	Applied
	// Uncertain: the screen cannot tell (a secure screen, a password
	// field, no UI tree); a person is asked.
	Uncertain
)

func (v Verdict) String() string {
	return [...]string{"not applied", "applied", "uncertain"}[v]
}

// decide judges from action-specific evidence whether act, decided on
// the screen before, took effect on the screen now. It never decides from
// the coarse hash alone when a UI tree is there to read.
func decide(act autoglm.Action, before, now Evidence) (Verdict, string) {
	if now.Tree == "" && now.Sensitive {
		return Uncertain, "the screen is secure and shows no UI tree"
	}
	if isType(act) {
		return decideType(act, before, now)
	}
	if act.Name == autoglm.ActionHome && before.App != "" && before.App == now.App && before.Tree != "" && before.Tree == now.Tree {
		return NotApplied, "the screen is unchanged"
	}
	if before.App != now.App && before.App != "" && now.App != "" {
		return Applied, fmt.Sprintf("the app in front changed from %s to %s", before.App, now.App)
	}
	switch {
	case before.Tree != "" && now.Tree != "":
		if before.Tree != now.Tree {
			return Applied, "the UI tree changed"
		}
		return NotApplied, "the UI tree is unchanged"
	case before.Sensitive && before.Tree == "" && !now.Sensitive:
		return Applied, "the secure screen it was decided on is gone"
	case before.Sensitive && before.Tree == "":
		return Uncertain, "the action was decided on a secure screen without a UI tree"
	case now.Tree == "":
		return Uncertain, "no UI tree could be read"
	}
	// Only a screenshot was kept of the screen the action was decided on
	// (the UI tree is off): the coarse hash is all there is.
	if before.Hash != "" && before.Hash != now.Hash {
		return Applied, "the screen changed (screenshot only)"
	}
	if before.Hash == "" {
		return Uncertain, "nothing was kept of the screen the action was decided on"
	}
	return NotApplied, "the screen is unchanged (screenshot only)"
}

func decideType(act autoglm.Action, before, now Evidence) (Verdict, string) {
	if act.Text == "" {
		return NotApplied, "there is no text to type"
	}
	if now.Tree == "" {
		return Uncertain, "no UI tree could be read to look for the typed text"
	}
	if now.Focused != nil {
		if now.FocusedPassword {
			return Uncertain, "the focused field hides its text"
		}
		has := strings.Contains(*now.Focused, act.Text)
		switch {
		case !has:
			return NotApplied, "the focused field does not hold the text"
		case before.Focused == nil || !strings.Contains(*before.Focused, act.Text) || *before.Focused != *now.Focused:
			return Applied, "the focused field holds the typed text"
		default:
			return Uncertain, "the focused field held the text before the action too"
		}
	}
	switch {
	case now.TextCount > before.TextCount && before.Tree != "":
		return Applied, "the typed text appeared on the screen"
	case now.TextCount == 0:
		return NotApplied, "the typed text is nowhere on the screen"
	}
	return Uncertain, "the typed text is on the screen but no field is focused"
}

// Act results of the journal (docs/design.md §19).
const (
	// ActUncertain is the result when a crash left an action's effect
	// unknown and the screen cannot tell: the todo asks the user.
	ActUncertain = "uncertain"
)

// ActionFault is called after an action reached the phone and before its
// result is written to the journal; drills use it to crash the worker at
// exactly that point. Nil in production.
type ActionFault func(serial, actionID string)

// actOnce applies an action at most once per ID (docs/design.md §19). The
// phone's journal is locked from the intent to the result, so the phone
// runs one action at a time.
func (a *Activities) actOnce(ctx context.Context, d device.Device, in StepInput) (ActResult, error) {
	act := *in.Act
	p := a.Journal.phone(d.Serial())
	unlock, err := p.lock(ctx)
	if err != nil {
		return ActResult{}, journalError(err)
	}
	defer unlock()
	e, ok, err := p.get(in.ActionID)
	if err != nil {
		return ActResult{}, journalError(err)
	}
	if ok && e.Intent != nil && actionKeyOf(e.Intent.Action) != actionKeyOf(act) {
		// The same ID with another action is not a retry of it.
		a.logger(ctx).Warn("action journal: ID reused for another action; applying it", "id", in.ActionID)
		ok = false
	}
	switch {
	case ok && e.Applied != nil:
		return *e.Applied, nil
	case ok && e.Intent != nil:
		s, err := a.observe(ctx, d, true)
		if err != nil {
			return ActResult{}, err
		}
		now := evidenceOf(s.obs, s.elems, s.obs.TreeRef != "", act)
		v, why := decide(act, e.Intent.Before, now)
		a.logger(ctx).Warn("action journal: an action was sent but its result not recorded; decided from the screen",
			"id", in.ActionID, "action", act.Name, "verdict", v.String(), "why", why)
		switch v {
		case Applied:
			res := ActResult{Result: "ok", Touched: true, Recovered: why}
			return res, a.record(p, in.ActionID, res)
		case Uncertain:
			res := ActResult{Result: ActUncertain, Uncertain: fmt.Sprintf(
				"After a worker restart phoneflow cannot tell whether `%s` reached the phone %s (%s). Look at the phone and answer whether it happened.",
				autoglm.FormatAction(act), d.Serial(), why)}
			return res, a.record(p, in.ActionID, res)
		}
	default:
		before, err := a.beforeEvidence(ctx, in, act)
		if err != nil {
			return ActResult{}, err
		}
		if err := p.write(journalRecord{ID: in.ActionID, At: a.now().UTC(), Intent: &ActionIntent{Action: act, Before: before}}); err != nil {
			return ActResult{}, journalError(err)
		}
	}
	w, h := in.Width, in.Height
	if w <= 0 || h <= 0 {
		if w, h, err = d.ScreenSize(ctx); err != nil {
			return ActResult{}, deviceError("screen size", err)
		}
	}
	res, err := a.perform(ctx, d, act, w, h)
	if err != nil {
		// The intent stays: a retry decides from the screen whether the
		// action got through before the error.
		return ActResult{}, err
	}
	if a.Fault != nil {
		a.Fault(d.Serial(), in.ActionID)
	}
	return res, a.record(p, in.ActionID, res)
}

func (a *Activities) record(p *phoneJournal, id string, res ActResult) error {
	if err := p.write(journalRecord{ID: id, At: a.now().UTC(), Applied: &res}); err != nil {
		return journalError(err)
	}
	return nil
}

// beforeEvidence is the evidence of the screen the action was decided on,
// from the observation the workflow passed (its UI tree from the blob
// store).
func (a *Activities) beforeEvidence(ctx context.Context, in StepInput, act autoglm.Action) (Evidence, error) {
	obs := Observation{Hash: in.ScreenHash, AppPackage: in.ScreenApp, Sensitive: in.ScreenSensitive, TreeRef: in.ScreenTreeRef}
	var elems []uitree.Element
	if in.ScreenTreeRef != "" {
		data, err := a.get(ctx, in.ScreenTreeRef)
		if err != nil {
			return Evidence{}, err
		}
		if err := json.Unmarshal(data, &elems); err != nil {
			return Evidence{}, journalError(fmt.Errorf("UI tree blob %s is not valid JSON: %w", in.ScreenTreeRef, err))
		}
	}
	return evidenceOf(obs, elems, in.ScreenTreeRef != "", act), nil
}

func actionKeyOf(a autoglm.Action) string { return autoglm.FormatAction(a) }

// journalError: a journal that cannot be written is a problem of the
// worker's host (disk full, permissions); retried like a device error, so
// the workflow's device wait shows it.
func journalError(err error) error {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return err
	}
	return deviceError("action journal", err)
}
