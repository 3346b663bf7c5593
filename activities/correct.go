package activities

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// NameCorrect is the activity in which the planner writes a stuck
// executor's correction.
const NameCorrect = "Correct"

// CorrectInput describes a stuck todo (docs/design.md §2).
type CorrectInput struct {
	Task string `json:"task"`
	// Why is what the stuck guard saw.
	Why string `json:"why"`
	// Recent are the latest actions with their results, oldest first.
	Recent      []string    `json:"recent,omitempty"`
	Screen      Observation `json:"screen"` // the screen now
	Corrections int         `json:"corrections,omitempty"`
	// HandBackOutages: see StepInput.HandBackOutages.
	HandBackOutages bool `json:"hand_back_outages,omitempty"`
}

// CorrectResult is the planner's correction. An empty Correction means the
// planner gave none that keeps the contract (Invalid says why); the
// workflow then sends the fixed correction.
type CorrectResult struct {
	Correction string    `json:"correction,omitempty"`
	Invalid    string    `json:"invalid,omitempty"`
	Rejected   int       `json:"rejected,omitempty"` // answers that broke the contract and were fed back
	Usage      llm.Usage `json:"usage,omitzero"`
}

// Correct asks the planner what a stuck executor should try differently,
// from the todo, its recent actions and the current screen (app and UI
// element list; no screenshot: the planner need not be a vision model). An
// answer that breaks the contract is fed back once; a second bad answer is
// a result with Invalid set, not an error.
func (a *Activities) Correct(ctx context.Context, in CorrectInput) (CorrectResult, error) {
	defer keepAlive(ctx, StepHeartbeat)()
	if a.Planner == nil {
		return CorrectResult{}, temporal.NewNonRetryableApplicationError("no planner model configured", ErrTypeConfig, nil)
	}
	cc := planner.CorrectionContext{Todo: in.Task, Why: in.Why, Recent: in.Recent, Corrections: in.Corrections,
		App: in.Screen.App, AppPackage: in.Screen.AppPackage, Sensitive: in.Screen.Sensitive,
		Width: in.Screen.Width, Height: in.Screen.Height}
	if in.Screen.TreeRef != "" {
		var err error
		if cc.Elements, err = a.tree(ctx, in.Screen.TreeRef); err != nil {
			return CorrectResult{}, err
		}
	}
	msgs := planner.BuildCorrectionMessages(cc)
	var res CorrectResult
	for range 2 {
		ans, err := a.Planner.Chat(llm.WithJSON(ctx, planner.CorrectionSchema), msgs)
		if err != nil {
			if err = modelError("planner", err); in.HandBackOutages {
				err = handBackOutage(attempt(ctx), err, nil)
			}
			return CorrectResult{}, err
		}
		res.Usage = res.Usage.Add(ans.Usage())
		c, err := planner.ParseCorrection(ans.Text)
		if err == nil {
			res.Correction, res.Invalid = c, ""
			return res, nil
		}
		res.Invalid = err.Error()
		res.Rejected++
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: clip(ans.Text, maxRejectedKept)},
			llm.Message{Role: llm.RoleUser, Text: "Your answer broke the contract: " + res.Invalid})
	}
	return res, nil
}
