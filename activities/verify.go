package activities

import (
	"context"
	"encoding/json"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
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
}

// VerifyResult is the verdict on a finished todo (docs/design.md §13).
type VerifyResult struct {
	Status   string `json:"status"`   // done | failed
	Evidence string `json:"evidence"` // what shows it
	By       string `json:"by"`       // message | ui_tree | model
	// Invalid is set when the verifier model broke the JSON contract twice;
	// the verdict is then failed.
	Invalid string `json:"invalid,omitempty"`
	// Rejected counts the verifier answers that broke the contract and
	// were fed back, so a bad answer the second call made up for still
	// shows in the history.
	Rejected int `json:"rejected,omitempty"`
	// Usage is the verifier model's calls (none for deterministic checks),
	// counted with the executor's (docs/design.md §10).
	Usage llm.Usage `json:"usage,omitzero"`
}

// Verify decides whether a finished todo is done: the deterministic checks
// of internal/verify first, then one verifier model call on the final
// screenshot and UI tree (a second one when the first answer breaks the
// contract, with the problem fed back). A verifier that cannot give a
// valid verdict makes the todo failed: nothing is done that was not shown.
func (a *Activities) Verify(ctx context.Context, in VerifyInput) (VerifyResult, error) {
	s := verify.Screen{App: in.Screen.App, AppPackage: in.Screen.AppPackage, Width: in.Screen.Width, Height: in.Screen.Height,
		Sensitive: in.Screen.Sensitive}
	if in.Screen.TreeRef != "" {
		data, err := a.get(ctx, in.Screen.TreeRef)
		if err != nil {
			return VerifyResult{}, err
		}
		if err := json.Unmarshal(data, &s.Elements); err != nil {
			return VerifyResult{}, temporal.NewNonRetryableApplicationError("UI tree blob "+in.Screen.TreeRef+" is not valid JSON", ErrTypeBlob, err)
		}
	} else if in.Serial != "" && a.Devices != nil {
		// The todo ran without the element list; the verdict still wants it.
		if d, err := a.device(ctx, in.Serial); err == nil {
			if elems, err := d.UITree(ctx); err == nil {
				s.Elements = elems
			}
		}
	}
	if v, ok := verify.Check(in.Task, in.Message, s); ok {
		return VerifyResult{Status: v.Status, Evidence: v.Evidence, By: v.By}, nil
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
	req := verify.Request{Task: in.Task, Message: in.Message, Screen: s}
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
			return VerifyResult{}, modelError("verifier", err)
		}
		usage = usage.Add(ans.Usage())
		v, err := verify.Parse(ans.Text)
		if err == nil {
			return VerifyResult{Status: v.Status, Evidence: v.Evidence, By: v.By, Rejected: rejected, Usage: usage}, nil
		}
		rejected++
		problem = err.Error()
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: clip(ans.Text, maxRejectedKept)},
			llm.Message{Role: llm.RoleUser, Text: "Your answer broke the contract: " + problem})
	}
	return VerifyResult{Status: verify.Failed, By: verify.ByModel, Invalid: problem, Rejected: rejected, Usage: usage,
		Evidence: "the verifier gave no valid verdict (" + problem + "), so the todo is not shown to be done"}, nil
}
