package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// NameVerify is the activity that checks a finished todo.
const NameVerify = "Verify"

// VerifyInput asks whether a todo the executor finished is really done.
type VerifyInput struct {
	Serial  string      `json:"serial"`
	Task    string      `json:"task"`
	Message string      `json:"message"` // the executor's finish message
	Screen  Observation `json:"screen"`  // the screen the executor finished on
	// HandBackOutages: see StepInput.HandBackOutages.
	HandBackOutages bool `json:"hand_back_outages,omitempty"`
	// Expect are the todo's postconditions, written by the planner before
	// the todo ran; Seen the screens the todo observed, for a read's
	// answer (docs/design.md §9).
	Expect []postcond.Check `json:"expect,omitempty"`
	Seen   []Observation    `json:"seen,omitempty"`
	// Reobserve asks Verify to observe the phone again and judge what it
	// shows now: Screen is from before a wait in which a person could use
	// the phone (docs/design.md §9).
	Reobserve bool `json:"reobserve,omitempty"`
	// GoalID and LeaseToken fence the probe swipes past the screen's edge
	// as a Step's action is fenced (docs/design.md §5): a goal whose phone
	// was granted to another goal after it does not scroll the list the
	// other goal drives. Inputs without a token are not fenced, as their
	// Steps are not.
	GoalID     string `json:"goal_id,omitempty"`
	LeaseToken int64  `json:"lease_token,omitempty"`
	// Established are the states earlier todos of the goal established
	// (their switch and element_absent postconditions): each one the final
	// screen shows is judged again (VerifyResult.Rechecked), so a goal
	// whose later todo undid an earlier one's state does not end done
	// (docs/design.md §9).
	Established []postcond.Check `json:"established,omitempty"`
	// Commits are the commits this todo's runs made (StepInput.Commits:
	// its own and its earlier runs'), and SentChecked says the workflow
	// sends them: a last_sent check then holds only for a message one of
	// them sent, not for an older bubble with the same words
	// (docs/design.md §9).
	Commits     []string `json:"commits,omitempty"`
	SentChecked bool     `json:"sent_checked,omitempty"`
	// Answered are the executor's questions about the todo and the
	// answers it was given (by the planner or the person): what the todo
	// left out and the phone now shows, such as a message's words. The
	// verifier model judges the task with them (AnsweredTask), so a todo
	// done with the answer's words is confirmed on the screen and one
	// done with other words is not (docs/design.md#executor-questions).
	Answered []QA `json:"answered,omitempty"`
}

// AnsweredTask is a todo's text as the verifier and the replanner read it:
// the text, then each question the executor asked about it with the
// answer it was given, "Send Alice Chen a message (asked: What should the
// message to Alice Chen say? answered: on my way)".
func AnsweredTask(task string, answered []QA) string {
	var b strings.Builder
	b.WriteString(task)
	for _, qa := range answered {
		fmt.Fprintf(&b, " (asked: %s answered: %s)", oneLine(qa.Question), oneLine(qa.Answer))
	}
	return b.String()
}

// oneLine joins a text's lines with spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// VerifyResult is the verdict on a finished todo (docs/design.md §9).
type VerifyResult struct {
	Status   string `json:"status"`   // done | failed
	Evidence string `json:"evidence"` // what shows it
	By       string `json:"by"`       // message | postcondition | ui_tree | model
	// Checks are the postconditions and whether each held.
	Checks []postcond.Result `json:"checks,omitempty"`
	// Invalid is set when the verifier model broke the JSON contract twice;
	// the verdict is then failed.
	Invalid string `json:"invalid,omitempty"`
	// Rejected counts the verifier answers that broke the contract and
	// were fed back, so a bad answer the second call made up for still
	// shows in the history.
	Rejected int `json:"rejected,omitempty"`
	// Probes counts the swipes a read-only probe sent to find the todo's
	// effect past the final screen (docs/design.md §9).
	Probes int `json:"probes,omitempty"`
	// Usage is the verifier model's calls (none for deterministic checks),
	// counted with the executor's (docs/design.md §9).
	Usage llm.Usage `json:"usage,omitzero"`
	// Screen is the screen observed again when the input asked for it.
	Screen *Observation `json:"screen,omitempty"`
	// Rechecked are the input's Established states the final screen shows:
	// held when still so, not held when it shows the opposite.
	Rechecked []postcond.Result `json:"rechecked,omitempty"`
}

// Verify decides whether a finished todo is done: the deterministic checks
// of internal/verify first, then one verifier model call on the final
// screenshot and UI tree (a second one when the first answer breaks the
// contract, with the problem fed back). A verifier that cannot give a
// valid verdict makes the todo failed: nothing is done that was not shown.
func (a *Activities) Verify(ctx context.Context, in VerifyInput) (VerifyResult, error) {
	// A Verify heartbeats as a Step does, so a task its worker never ran
	// (a poll the starved server answered too late) or a worker that died
	// is retried after the heartbeat timeout, not after the whole
	// start-to-close timeout (docs/design.md §5).
	defer keepAlive(ctx, StepHeartbeat)()
	if in.Reobserve && in.Serial != "" && a.Devices != nil {
		now, err := a.Observe(ctx, ObserveInput{Serial: in.Serial, UITree: true})
		if err != nil {
			return VerifyResult{}, err
		}
		in.Screen = now
		v, err := a.verifyScreen(ctx, in)
		v.Screen = &now
		v.Evidence = "on the phone observed again after a wait: " + v.Evidence
		return a.recheck(ctx, in, v, err)
	}
	v, err := a.verifyScreen(ctx, in)
	return a.recheck(ctx, in, v, err)
}

// recheck adds to a verdict what the final screen shows of the states
// earlier todos established (postcond.Recheck).
func (a *Activities) recheck(ctx context.Context, in VerifyInput, v VerifyResult, err error) (VerifyResult, error) {
	if err != nil || len(in.Established) == 0 || in.Screen.TreeRef == "" {
		return v, err
	}
	elems, err := a.tree(ctx, in.Screen.TreeRef)
	if err != nil {
		return VerifyResult{}, err
	}
	v.Rechecked = postcond.Recheck(in.Established, postcond.Screen{App: in.Screen.App, AppPackage: in.Screen.AppPackage, Elements: elems})
	return v, nil
}

// verifyScreen is Verify on in.Screen.
func (a *Activities) verifyScreen(ctx context.Context, in VerifyInput) (VerifyResult, error) {
	s := verify.Screen{App: in.Screen.App, AppPackage: in.Screen.AppPackage, Width: in.Screen.Width, Height: in.Screen.Height,
		Sensitive: in.Screen.Sensitive}
	if in.Screen.TreeRef != "" {
		var err error
		if s.Elements, err = a.tree(ctx, in.Screen.TreeRef); err != nil {
			return VerifyResult{}, err
		}
	} else if in.Serial != "" && a.Devices != nil {
		// The todo ran without the element list (or its last look could
		// not read it); the verdict still wants it.
		if d, err := a.device(ctx, in.Serial); err == nil {
			if elems, err := d.UITree(ctx); err == nil {
				s.Elements = elems
			} else if errors.Is(err, device.ErrNotIdle) {
				s.Unread = "uiautomator found no idle state: the screen kept animating"
			} else {
				s.Unread = clip(err.Error(), 200)
			}
		}
	}
	if p, ok := verify.Admits(in.Message); ok {
		return VerifyResult{Status: verify.Failed, By: verify.ByMessage,
			Evidence: "the executor's finish message admits it was not done (" + p + "): " + clip(in.Message, 300)}, nil
	}
	if len(in.Expect) > 0 {
		// Written before the work by the planner, checked here without a
		// model: nothing a model says can overrule a failed check.
		return a.checkPostconditions(ctx, in, s)
	}
	if v, ok := verify.Check(in.Task, in.Message, s); ok {
		return VerifyResult{Status: v.Status, Evidence: v.Evidence, By: v.By}, nil
	}
	if v, ok := a.verifyByProbe(ctx, in, s); ok {
		return v, nil
	}
	model := a.Verifier
	if model == nil && !a.VerifierOff {
		model = a.Executor
	}
	if a.VerifierOff {
		return VerifyResult{Status: verify.Failed, By: verify.ByModel,
			Evidence: "no deterministic check covers this todo and no verifier model is configured (verifier.use none), so it is not shown to be done"}, nil
	}
	if model == nil {
		return VerifyResult{}, temporal.NewNonRetryableApplicationError("no verifier or executor model configured", ErrTypeConfig, nil)
	}
	// The deterministic checks above read the todo's own text; the model
	// also reads what the executor was told the todo left out.
	req := verify.Request{Task: AnsweredTask(in.Task, in.Answered), Message: in.Message, Screen: s}
	if in.Screen.ScreenRef != "" && !in.Screen.Sensitive && !a.VerifierText {
		png, err := a.get(ctx, in.Screen.ScreenRef)
		if err != nil {
			return VerifyResult{}, err
		}
		img, _, _, err := autoglm.Encode(png, a.Exec)
		if err != nil {
			return VerifyResult{}, temporal.NewNonRetryableApplicationError("verifier request: "+err.Error(), ErrTypeConfig, nil)
		}
		req.Image = &img
	}
	msgs := req.Messages()
	var problem string
	var usage llm.Usage
	rejected := 0
	for range 2 {
		ans, err := model.Chat(ctx, msgs)
		if err != nil {
			if err = modelError("verifier", err); in.HandBackOutages {
				err = handBackOutage(attempt(ctx), err, nil)
			}
			return VerifyResult{}, err
		}
		usage = usage.Add(ans.Usage())
		v, err := verify.Parse(ans.Text)
		if err == nil {
			res := VerifyResult{Status: v.Status, Evidence: v.Evidence, By: v.By, Rejected: rejected, Usage: usage}
			if v.Status == verify.Done {
				// A model's done must point at the screen: its evidence
				// quotes an element the final screen shows.
				if _, ok := postcond.Quotes(v.Evidence, s.Elements); !ok {
					res.Status = verify.Failed
					res.Evidence = "the verifier's evidence quotes nothing the final screen shows, so the todo is not shown to be done (it said: " + clip(v.Evidence, 200) + ")"
				}
			}
			return res, nil
		}
		rejected++
		problem = err.Error()
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: clip(ans.Text, maxRejectedKept)},
			llm.Message{Role: llm.RoleUser, Text: "Your answer broke the contract: " + problem})
	}
	return VerifyResult{Status: verify.Failed, By: verify.ByModel, Invalid: problem, Rejected: rejected, Usage: usage,
		Evidence: "the verifier gave no valid verdict (" + problem + "), so the todo is not shown to be done"}, nil
}

// checkPostconditions evaluates the planner's postconditions on the final
// UI tree, and a read's answer on every screen the todo observed.
func (a *Activities) checkPostconditions(ctx context.Context, in VerifyInput, s verify.Screen) (VerifyResult, error) {
	o := postcond.Observed{Final: postcond.Screen{App: s.App, AppPackage: s.AppPackage, Elements: s.Elements, Unread: s.Unread}, Answer: in.Message, Question: in.Task}
	for _, c := range in.Expect {
		if c.Kind != postcond.AnswerSeen {
			continue
		}
		for _, obs := range in.Seen {
			if obs.TreeRef == "" {
				continue
			}
			seen := postcond.Screen{App: obs.App, AppPackage: obs.AppPackage}
			var err error
			if seen.Elements, err = a.tree(ctx, obs.TreeRef); err != nil {
				return VerifyResult{}, err
			}
			o.Seen = append(o.Seen, seen)
		}
		break
	}
	rs := postcond.Eval(in.Expect, o)
	if in.SentChecked {
		newlySent(rs, in.Commits, s.Elements)
	}
	probes, err := a.probeMissing(ctx, in, s, rs)
	if err != nil {
		return VerifyResult{}, err
	}
	res := VerifyResult{Status: verify.Failed, By: verify.ByPostcondition, Checks: rs, Evidence: postcond.Summary(rs), Probes: probes}
	if postcond.AllHeld(rs) {
		res.Status = verify.Done
	}
	return res, nil
}
