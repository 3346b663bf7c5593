package dialect

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/mobileuse"
	"github.com/phoneflow/phoneflow/internal/toolcall"
	"github.com/phoneflow/phoneflow/internal/uitars"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// BuildMessages builds one executor request in cfg's protocol.
func BuildMessages(cfg autoglm.Config, in autoglm.StepInput, now time.Time) ([]llm.Message, error) {
	switch cfg.Protocol {
	case autoglm.ProtocolUITARS, autoglm.ProtocolMobileUse:
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		if cfg.Protocol == autoglm.ProtocolUITARS {
			return uitars.BuildMessages(cfg, in)
		}
		return mobileuse.BuildMessages(cfg, in)
	case autoglm.ProtocolTools:
		// phoneflow's layout, the element list numbered, the actions
		// offered as functions (WithTools).
		cfg.Protocol = autoglm.ProtocolPhoneflow
		if cfg.SystemPrompt == "" {
			cfg.SystemPrompt, cfg.PromptAdvice = toolcall.SystemPrompt, true
		}
	}
	return autoglm.BuildMessages(cfg, in, now)
}

// WithProtocol returns ctx for the executor request of protocol: with the
// phone's functions offered for tools.
func WithProtocol(ctx context.Context, protocol string) context.Context {
	if protocol == autoglm.ProtocolTools {
		return llm.WithTools(ctx, toolcall.Tools())
	}
	return ctx
}

// ParseAnswer reads an executor answer to a request built from in: its
// tool calls under the tools protocol, its text under the others (Parse).
func ParseAnswer(cfg autoglm.Config, ans *llm.Answer, in autoglm.StepInput) (autoglm.Response, error) {
	if cfg.Protocol != autoglm.ProtocolTools {
		return Parse(cfg.Protocol, ans.Text, Frame(cfg, in.Width, in.Height))
	}
	if len(ans.ToolCalls) == 0 {
		return Parse(cfg.Protocol, ans.Text, Frame(cfg, in.Width, in.Height))
	}
	var listed []uitree.Listed
	if cfg.IncludeElements && in.Width > 0 && in.Height > 0 {
		listed = uitree.List(in.Elements, in.Width, in.Height)
	}
	resp, err := toolcall.Parse(ans.ToolCalls, listed)
	resp.Thinking = strings.TrimSpace(ans.Text)
	return resp, err
}

// Frame is the coordinate frame of the answers to cfg's requests for a
// w x h screenshot.
func Frame(cfg autoglm.Config, w, h int) autoglm.Frame {
	switch cfg.Protocol {
	case autoglm.ProtocolUITARS:
		return uitars.Frame(cfg, w, h)
	case autoglm.ProtocolMobileUse:
		return mobileuse.Frame(cfg, w, h)
	}
	return autoglm.Frame{Relative: true}
}

// Parse reads an answer in protocol's grammar. An answer it cannot read is
// an *autoglm.ParseError, or a *WrongFamilyError when the answer is
// written in another family's grammar.
func Parse(protocol, raw string, f autoglm.Frame) (autoglm.Response, error) {
	var resp autoglm.Response
	var err error
	switch protocol {
	case autoglm.ProtocolUITARS:
		resp, err = uitars.Parse(raw, f)
	case autoglm.ProtocolMobileUse:
		resp, err = mobileuse.Parse(raw, f)
	case autoglm.ProtocolTools:
		err = &autoglm.ParseError{Raw: raw, Reason: "no tool call: the answer is text only; call one of the phone's functions"}
	default:
		resp, err = autoglm.Parse(raw)
	}
	if protocol == "" {
		protocol = autoglm.ProtocolPhoneflow
	}
	var pe *autoglm.ParseError
	if errors.As(err, &pe) {
		if fam := Family(raw); fam != "" && !reads(protocol, fam) {
			return resp, &WrongFamilyError{Protocol: protocol, Family: fam, Parse: pe}
		}
	}
	return resp, err
}

// Concluded is resp with the result the todo's earlier answers (earlier,
// as the model wrote them, oldest first) give its finish: under
// mobile_use a terminate carries only a status, and the text of the
// answer before it is the result (mobileuse.Concluded). The other
// protocols' finishes carry their result themselves.
func Concluded(protocol string, resp autoglm.Response, earlier []string) autoglm.Response {
	if protocol == autoglm.ProtocolMobileUse {
		return mobileuse.Concluded(resp, earlier)
	}
	return resp
}
