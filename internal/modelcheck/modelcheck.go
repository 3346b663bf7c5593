// Package modelcheck checks a configured model endpoint the way phoneflow
// will use it: it reaches the endpoint, lists its models when the API
// offers that, sends one tiny real request (for the executor, with a
// rendered simulator screenshot) and checks that the answer parses in the
// configured protocol. Each failure comes with the exact fix.
package modelcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/dialect"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// Roles.
const (
	RolePlanner  = "planner"
	RoleExecutor = "executor"
)

// Target is one configured endpoint to check.
type Target struct {
	Role string     // RolePlanner or RoleExecutor
	LLM  llm.Config // the endpoint as the worker would use it
	// Settings names where the user sets each value, for the fixes, e.g.
	// "executor.model (MODEL_NAME)".
	KeySetting, ModelSetting, URLSetting string
	// Exec shapes executor requests (protocol, image encoding).
	Exec autoglm.Config
	// Profile says what the executor profile chose and why, one line each
	// (protocol, language, screenshot, verifier); printed as is.
	Profile []string
}

// Problem kinds.
const (
	Unreachable  = "unreachable"
	NotAnAPI     = "not_an_openai_api"
	BadKey       = "bad_key"
	UnknownModel = "unknown_model"
	NoImageInput = "no_image_input"
	BadRequest   = "request_refused"
	RateLimited  = "rate_limited"
	ServerError  = "server_error"
	TooSlow      = "too_slow"
	BadAnswer    = "answer_not_understood"
	// WrongFamily is an answer in another model family's grammar than
	// the configured protocol reads, or native tool calls under a text
	// protocol.
	WrongFamily = "wrong_protocol"
	Failed      = "request_failed"
)

// Result is what a check found.
type Result struct {
	Role, Endpoint, Model string
	Protocol              string   // executor layout used
	Profile               []string // the target's Profile lines
	Listed                []string // model ids the endpoint lists; nil when it offers no list
	ListOffered           bool
	OK                    bool
	Kind                  string // a problem kind when !OK
	Problem, Fix          string
	Cause                 string // the likely cause of the problem
	Raw                   string // the raw answer, when it did not parse
	Family                string // the grammar family the answer is written in, when the protocol does not read it
	Answer                string // what the parsed answer says
	TTFT, Total           time.Duration
	PromptTokens          int
	CompletionTokens      int
	Format                string // the planner's response format
}

// Now is the date the executor's system prompt carries.
var now = time.Now

// Check runs the check of one target.
func Check(ctx context.Context, t Target) Result {
	r := Result{Role: t.Role, Endpoint: t.LLM.Endpoint(), Model: t.LLM.Model}
	if t.Role == RoleExecutor {
		r.Protocol, r.Profile = t.Exec.Protocol, t.Profile
		if r.Protocol == "" {
			r.Protocol = autoglm.ProtocolPhoneflow
		}
	}
	c := llm.New(t.LLM)
	ids, err := c.Models(ctx)
	switch {
	case err == nil:
		r.ListOffered, r.Listed = true, ids
		if !slices.Contains(ids, t.LLM.Model) {
			return r.fail(UnknownModel, fmt.Sprintf("the endpoint does not serve model %q", t.LLM.Model),
				fmt.Sprintf("set %s to one the endpoint lists: %s", t.ModelSetting, list(ids)))
		}
	case status(err) == http.StatusUnauthorized || status(err) == http.StatusForbidden:
		return r.keyFail(t, err)
	case notAnAPI(err) || isUnreachable(err) || status(err) == 0 && !llm.IsRetryable(err):
		return r.chatFailure(t, err)
	default:
		// Many endpoints do not offer the list (404, 405): go on.
	}
	if t.Role == RolePlanner {
		return r.planner(ctx, c, t)
	}
	return r.executor(ctx, c, t)
}

func (r Result) fail(kind, problem, fix string) Result {
	r.OK, r.Kind, r.Problem, r.Fix = false, kind, problem, fix
	if r.Cause == "" {
		r.Cause = causes[kind]
	}
	return r
}

// causes is the likely cause of each kind of problem: what a person checks
// first.
var causes = map[string]string{
	Unreachable:  "nothing answers at the base URL: the model server is not running, or the URL's host or port is wrong",
	NotAnAPI:     "something answers at the base URL but it is not an OpenAI-compatible API: the base URL is likely wrong (a web page, another service, or the server's root without /v1)",
	BadKey:       "the API key is missing, wrong, or not allowed to use this model",
	UnknownModel: "the model name is not one the endpoint serves, or the base URL points at the wrong API root",
	NoImageInput: "the model is a text-only model: the executor needs a vision model",
	BadRequest:   "the endpoint refused the request's settings (max tokens, temperature, top_p, response format) for this model",
	RateLimited:  "the key's rate limit or quota is used up",
	ServerError:  "the model server failed on a well-formed request: its logs say why (out of memory, the model still loading, a crash)",
	TooSlow:      "the model is slow or overloaded, or the timeout is too short for it",
	WrongFamily:  "the model answers in another family's action grammar than executor.protocol reads: the protocol was chosen by model name, or set for another model",
	BadAnswer:    "the model does not follow the prompt's answer format: it is not the kind of model this role needs",
	Failed:       "see the error: it fits none of the known kinds",
}

func (r Result) keyFail(t Target, err error) Result {
	return r.fail(BadKey, "the endpoint refused the API key: "+errText(err),
		fmt.Sprintf("set %s to a key that this endpoint accepts for model %q", t.KeySetting, t.LLM.Model))
}

func (r *Result) took(a *llm.Answer) {
	r.TTFT, r.Total = a.TTFT, a.Total
	r.PromptTokens, r.CompletionTokens = a.PromptTokens, a.CompletionTokens
}

// chatFailure turns a failed request into the matching problem.
func (r Result) chatFailure(t Target, err error) Result {
	switch s := status(err); {
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return r.keyFail(t, err)
	case s == http.StatusNotFound:
		fix := fmt.Sprintf("check %s (and that %s is the API root, usually ending in /v1)", t.ModelSetting, t.URLSetting)
		if len(r.Listed) > 0 {
			fix = fmt.Sprintf("set %s to one the endpoint lists: %s", t.ModelSetting, list(r.Listed))
		}
		return r.fail(UnknownModel, fmt.Sprintf("model %q was not found: %s", t.LLM.Model, errText(err)), fix)
	case s == http.StatusNotImplemented || s == http.StatusMethodNotAllowed:
		// A server that does not do chat completions at this path: the
		// URL names another API, or its root without /v1.
		return r.fail(NotAnAPI, "the endpoint does not serve chat completions: "+errText(err),
			fmt.Sprintf("set %s to the OpenAI-compatible API root of the model server (it usually ends in /v1)", t.URLSetting))
	case s == http.StatusBadRequest || s == http.StatusUnprocessableEntity:
		return r.fail(BadRequest, "the endpoint refused the request: "+errText(err),
			"check the executor.* or planner.* request settings (max_tokens, temperature, top_p) against what the model accepts")
	case s == http.StatusTooManyRequests:
		return r.fail(RateLimited, "the endpoint is rate limiting: "+errText(err),
			fmt.Sprintf("wait and check again, or use a key (%s) with a higher limit", t.KeySetting))
	case s == http.StatusBadGateway || s == http.StatusGatewayTimeout:
		r.Cause = "a proxy or gateway in front of the model answered: it cannot reach the model server behind it, or that server is down"
		return r.fail(ServerError, "the gateway failed: "+errText(err), "check the model server behind the gateway, then `starter models check` again")
	case s == http.StatusServiceUnavailable:
		r.Cause = "the model server is overloaded or still loading the model"
		return r.fail(ServerError, "the model server is unavailable: "+errText(err), "wait until it has loaded the model, then `starter models check` again")
	case s >= 500:
		return r.fail(ServerError, "the model server failed: "+errText(err), "read the model server's logs, then `starter models check` again")
	case notAnAPI(err):
		return r.fail(NotAnAPI, "the answer is not an OpenAI-compatible API response: "+errText(err),
			fmt.Sprintf("set %s to the OpenAI-compatible API root of the model server (it usually ends in /v1)", t.URLSetting))
	case isUnreachable(err):
		return r.fail(Unreachable, "cannot reach the endpoint: "+errText(err),
			fmt.Sprintf("start the model server, or set %s to the API root that serves it (it usually ends in /v1)", t.URLSetting))
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return r.fail(TooSlow, "no answer in time: "+errText(err), "check the model server's load, or raise the timeout (planner.timeout, executor.timeout)")
	}
	return r.fail(Failed, "the request failed: "+errText(err), "see the error above; `starter models check` again once it is fixed")
}

func (r Result) planner(ctx context.Context, c *llm.Client, t Target) Result {
	msgs := planner.BuildPlanMessages(planner.PlanContext{Goal: "Turn on Wi-Fi"}, nil)
	a, err := c.Chat(llm.WithJSON(ctx, planner.PlanSchema), msgs)
	if err != nil {
		return r.chatFailure(t, err)
	}
	r.took(a)
	r.Format = a.ResponseFormat
	d, err := planner.ParsePlan(a.Text)
	if err != nil {
		r.Raw = a.Text
		return r.fail(BadAnswer, "the answer is not a valid plan: "+err.Error(),
			fmt.Sprintf("use a chat model that follows instructions and answers JSON (set %s); the raw answer is below", t.ModelSetting))
	}
	r.OK = true
	if d.Status == planner.StatusPlanned {
		r.Answer = fmt.Sprintf("planned %q (task type %s)", d.Plan, d.TaskType)
	} else {
		r.Answer = fmt.Sprintf("%s: %s", d.Status, d.Question)
	}
	return r
}

// probeTask is the executor's tiny task, on the simulator's home screen.
const probeTask = "Open Settings"

func (r Result) executor(ctx context.Context, c *llm.Client, t Target) Result {
	png, _, err := phonesim.New(phonesim.Config{}).Screenshot()
	if err != nil {
		return r.fail(Failed, "rendering the probe screenshot: "+err.Error(), "report this as a bug")
	}
	app := "Launcher"
	if t.Exec.Protocol == autoglm.ProtocolAutoGLM {
		app = device.ModelHome // as the worker reports the launcher to it
	}
	in := autoglm.StepInput{Task: probeTask, AppName: app, Screenshot: png,
		Width: phonesim.DefaultWidth, Height: phonesim.DefaultHeight}
	msgs, err := dialect.BuildMessages(t.Exec, in, now())
	if err != nil {
		return r.fail(Failed, "building the request: "+err.Error(), "check the screenshot settings (screenshot.*)")
	}
	a, err := c.Chat(dialect.WithProtocol(ctx, t.Exec.Protocol), msgs)
	if err != nil {
		if s := status(err); s == http.StatusBadRequest || s == http.StatusUnprocessableEntity {
			// The same request without the image: if that goes through,
			// the endpoint does not take images.
			text := append([]llm.Message(nil), msgs...)
			last := text[len(text)-1]
			last.Images = nil
			text[len(text)-1] = last
			if _, terr := c.Chat(ctx, text); terr == nil {
				return r.fail(NoImageInput, fmt.Sprintf("model %q does not accept image input: %s", t.LLM.Model, errText(err)),
					fmt.Sprintf("set %s to a vision model (e.g. autoglm-phone-9b, or a VL model of your provider)", t.ModelSetting))
			}
		}
		var le *llm.Error
		if errors.As(err, &le) && strings.Contains(le.Msg, "executor.protocol: tools") {
			r.Family = dialect.FamilyToolCall
			return r.fail(WrongFamily, "the model answered with native tool calls and no text, which executor.protocol "+r.Protocol+" does not read",
				"set executor.protocol: tools for a model that acts through function calls, or use a model that answers in text")
		}
		return r.chatFailure(t, err)
	}
	r.took(a)
	resp, err := dialect.ParseAnswer(t.Exec, a, in)
	var wf *dialect.WrongFamilyError
	if errors.As(err, &wf) {
		r.Raw, r.Family = a.Text, wf.Family
		return r.fail(WrongFamily, wf.Error(), "set "+dialect.Setting(wf.Family)+" (or executor.model to a model of the configured family); the raw answer is below")
	}
	if err != nil {
		r.Raw = a.Text
		fix := fmt.Sprintf("the model must answer <think>…</think><answer>do(action=…)</answer> (docs/design.md §3): use an AutoGLM-Phone model or a vision model that follows the prompt (set %s)", t.ModelSetting)
		switch r.Protocol {
		case autoglm.ProtocolUITARS, autoglm.ProtocolMobileUse:
			fix = fmt.Sprintf("the model must answer in the %s grammar (docs/models.md): use a model of that family (set %s) or set executor.protocol for this model's family", r.Protocol, t.ModelSetting)
		}
		if r.Protocol == autoglm.ProtocolAutoGLM && !strings.Contains(strings.ToLower(t.LLM.Model), "autoglm") {
			fix += "; for a general vision model set executor.protocol to phoneflow"
		}
		return r.fail(BadAnswer, "the answer is not understood: "+err.Error(), fix)
	}
	r.OK = true
	r.Answer = autoglm.FormatAction(resp.Action)
	return r
}

func status(err error) int {
	var e *llm.Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

func isUnreachable(err error) bool {
	m := strings.ToLower(errText(err))
	return status(err) == 0 && (strings.Contains(m, "connection refused") || strings.Contains(m, "host not found"))
}

// notAnAPI reports an answer that came back but is not an API response:
// a web page, plain text or JSON of another shape.
func notAnAPI(err error) bool {
	m := strings.ToLower(errText(err))
	return status(err) == 0 && (strings.Contains(m, "did not answer with json") || strings.Contains(m, "malformed json"))
}

func isTimeout(err error) bool {
	m := strings.ToLower(errText(err))
	return status(err) == 0 && (strings.Contains(m, "network timeout") || strings.Contains(m, "no complete answer within"))
}

func errText(err error) string {
	var e *llm.Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}

func list(ids []string) string {
	if len(ids) == 0 {
		return "(none listed)"
	}
	const show = 20
	if len(ids) > show {
		return strings.Join(ids[:show], ", ") + fmt.Sprintf(" and %d more", len(ids)-show)
	}
	return strings.Join(ids, ", ")
}

// Write prints a result as a few indented lines.
func Write(w io.Writer, r Result) {
	fmt.Fprintf(w, "%s: %s, model %q", r.Role, r.Endpoint, r.Model)
	if r.Protocol != "" {
		fmt.Fprintf(w, ", protocol %s", r.Protocol)
	}
	fmt.Fprintln(w)
	for _, l := range r.Profile {
		fmt.Fprintf(w, "  %s\n", l)
	}
	switch {
	case !r.ListOffered:
		fmt.Fprintln(w, "  models: the endpoint does not list its models")
	case slices.Contains(r.Listed, r.Model):
		fmt.Fprintf(w, "  models: %d listed, %q among them\n", len(r.Listed), r.Model)
	default:
		fmt.Fprintf(w, "  models: %d listed: %s\n", len(r.Listed), list(r.Listed))
	}
	if r.Total > 0 {
		fmt.Fprintf(w, "  request: answered in %v (first token %v), %d prompt + %d completion tokens",
			r.Total.Round(100*time.Microsecond), r.TTFT.Round(100*time.Microsecond), r.PromptTokens, r.CompletionTokens)
		if r.Format != "" {
			fmt.Fprintf(w, ", response format %s", r.Format)
		}
		fmt.Fprintln(w)
	}
	if r.OK {
		fmt.Fprintf(w, "  answer: %s\n  ok\n", r.Answer)
		return
	}
	fmt.Fprintf(w, "  FAIL (%s): %s\n", r.Kind, r.Problem)
	if r.Cause != "" {
		fmt.Fprintf(w, "  likely cause: %s\n", r.Cause)
	}
	fmt.Fprintf(w, "  fix: %s\n", r.Fix)
	if r.Raw != "" {
		fmt.Fprintf(w, "  raw answer: %q\n", r.Raw)
	}
}
