package activities

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/dialect"
	"github.com/phoneflow/phoneflow/internal/llm"
)

// Keep executor results small: they travel through workflow history. The
// turns themselves live whole in the blob store, and requests carry as many
// of them as autoglm.KeepHistory's token budget allows (docs/design.md §3).
const (
	maxThinkingKept = 240
	maxTurnUser     = 600
)

// Think asks the executor for the next action on the observed screen,
// loading the screenshot and UI tree from the blob store. An answer that
// does not parse is a result (ParseError), not an error.
func (a *Activities) Think(ctx context.Context, in ThinkInput) (ThinkResult, error) {
	s := screen{obs: in.Screen}
	var err error
	if in.Screen.ScreenRef != "" {
		if s.png, err = a.get(ctx, in.Screen.ScreenRef); err != nil {
			return ThinkResult{}, err
		}
	}
	if in.Screen.TreeRef != "" {
		if s.elems, err = a.tree(ctx, in.Screen.TreeRef); err != nil {
			return ThinkResult{}, err
		}
	}
	return a.think(ctx, in, s)
}

func (a *Activities) think(ctx context.Context, in ThinkInput, s screen) (ThinkResult, error) {
	if a.Executor == nil {
		return ThinkResult{}, temporal.NewNonRetryableApplicationError("no executor model configured", ErrTypeConfig, nil)
	}
	si, hist, err := a.request(ctx, in, s)
	if err != nil {
		return ThinkResult{}, err
	}
	var version int
	si.TaskPrompt, version = a.executorGuidance(ctx, in)
	msgs, err := dialect.BuildMessages(a.Exec, si, a.now())
	if err != nil {
		return ThinkResult{}, temporal.NewNonRetryableApplicationError("executor request: "+err.Error(), ErrTypeConfig, nil)
	}
	if n := len(hist); n > 0 && hist[n-1].CutOff {
		ctx = llm.WithLowerMaxTokens(ctx)
	}
	ans, err := a.Executor.Chat(dialect.WithProtocol(ctx, a.Exec.Protocol), msgs)
	if err != nil {
		return ThinkResult{}, modelError("executor", err)
	}
	res := a.turn(si)
	res.Guidance = version
	res.Model, res.TotalMS, res.Usage = ans.Model, ans.Total.Milliseconds(), ans.Usage()
	resp, err := dialect.ParseAnswer(a.Exec, ans, si)
	var wf *dialect.WrongFamilyError
	if errors.As(err, &wf) {
		// The model answers in another family's grammar: asking again
		// cannot help, the setting must change.
		return ThinkResult{}, temporal.NewNonRetryableApplicationError("executor model: "+wf.Error(), ErrTypeModelPermanent, nil)
	}
	cut := ans.FinishReason == "length"
	if err == nil && cut && len(ans.ToolCalls) == 0 && !endsWhole(ans.Text) {
		err = &autoglm.ParseError{Raw: ans.Text, Reason: "the answer's action is incomplete"}
	}
	if err != nil {
		var pe *autoglm.ParseError
		if !errors.As(err, &pe) {
			return ThinkResult{}, err
		}
		res.ParseError = pe.Reason
		if cut {
			res.ParseError = "the answer was cut off by the max_tokens limit before its action was complete (" + pe.Reason + "): think in fewer words and give the action"
			res.Turn.CutOff = true
		}
		res.Turn.Assistant = ans.Text
		if res.Turn.Assistant == "" {
			res.Turn.Assistant = pe.Raw
		}
	} else {
		resp = dialect.Concluded(a.Exec.Protocol, resp, answers(hist))
		res.Action = autoglm.FormatAction(resp.Action)
		res.Turn.Assistant = resp.Said
		if res.Turn.Assistant == "" {
			res.Turn.Assistant = "<think>" + resp.Thinking + "</think><answer>" + res.Action + "</answer>"
		}
		resp.Thinking = clip(resp.Thinking, maxThinkingKept)
		res.Response = &resp
		if err := a.sealTyped(&res, s.obs, s.elems); err != nil {
			return ThinkResult{}, err
		}
	}
	return a.keepTurn(ctx, hist, res)
}

// answers are the assistant answers of turns, oldest first.
func answers(turns []Turn) []string {
	out := make([]string, 0, len(turns))
	for _, t := range turns {
		out = append(out, t.Assistant)
	}
	return out
}

// endsWhole reports whether an answer the max-tokens limit stopped still
// ends where an action ends: a closing parenthesis or brace, after any
// closing tags.
func endsWhole(text string) bool {
	t := strings.TrimSpace(text)
	for _, tag := range []string{"</answer>", "</tool_call>", "<|end_of_box|>", "```"} {
		t = strings.TrimSpace(strings.TrimSuffix(t, tag))
	}
	return strings.HasSuffix(t, ")") || strings.HasSuffix(t, "}")
}

// turn starts the result of a think with the turn kept for later requests:
// the request text without the element list (and, in the autoglm layout,
// its screen info without it).
func (a *Activities) turn(si autoglm.StepInput) ThinkResult {
	cfg := a.Exec
	cfg.IncludeElements = false
	res := ThinkResult{Turn: Turn{User: clip(autoglm.StepText(cfg, si), maxTurnUser)}}
	if cfg.Protocol == autoglm.ProtocolAutoGLM {
		res.Turn.Info = autoglm.ScreenInfo(cfg, si)
	}
	return res
}

// keepTurn stores the todo's turns with this one in the blob store;
// history keeps the ref.
func (a *Activities) keepTurn(ctx context.Context, hist []Turn, res ThinkResult) (ThinkResult, error) {
	data, err := json.Marshal(append(hist, res.Turn))
	if err != nil {
		return ThinkResult{}, err
	}
	if res.HistoryRef, err = a.put(ctx, data, "application/json"); err != nil {
		return ThinkResult{}, err
	}
	// The result keeps only a glimpse of the answer; the blob keeps it whole.
	res.Turn.User, res.Turn.Info = "", ""
	res.Turn.Assistant = clip(res.Turn.Assistant, maxThinkingKept)
	return res, nil
}

// request is the executor request's content for a think on screen s, with
// the todo's earlier turns.
func (a *Activities) request(ctx context.Context, in ThinkInput, s screen) (autoglm.StepInput, []Turn, error) {
	si := autoglm.StepInput{
		Task: in.Task, AppName: s.obs.App, AppPackage: s.obs.AppPackage,
		Screenshot: s.png, Decoded: s.img, Sensitive: s.obs.Sensitive || len(s.png) == 0, SensitiveReason: s.obs.SensitiveReason,
		Width: s.obs.Width, Height: s.obs.Height, Elements: s.elems,
		PreviousAction: in.PreviousAction, PreviousResult: in.PreviousResult, Notes: in.Notes,
	}
	if si.Sensitive && si.SensitiveReason == "" {
		si.SensitiveReason = "secure screen"
	}
	if a.Exec.Protocol == autoglm.ProtocolAutoGLM {
		// The app as the model knows it: its own label, and System Home
		// for any launcher and any app it does not know, as its reference
		// client reports them (docs/design.md §3).
		si.AppName = device.ModelLabel(si.AppPackage)
		if si.AppName == "" {
			si.AppName = device.ModelHome
		}
	}
	hist := in.History
	if in.HistoryRef != "" {
		data, err := a.get(ctx, in.HistoryRef)
		if err != nil {
			return si, nil, err
		}
		hist = nil
		if err := json.Unmarshal(data, &hist); err != nil {
			return si, nil, temporal.NewNonRetryableApplicationError("history blob "+in.HistoryRef+" is not valid JSON", ErrTypeBlob, err)
		}
	}
	var turns []autoglm.Turn
	for _, t := range hist {
		turns = append(turns, autoglm.Turn{User: t.User, Assistant: t.Assistant, Info: t.Info})
	}
	si.History = autoglm.KeepHistory(turns, a.Exec.HistoryTokens)
	return si, hist, nil
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}
