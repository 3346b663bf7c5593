package config

import (
	"strings"
	"time"
)

// Model configures one OpenAI-compatible model endpoint.
type Model struct {
	BaseURL          string        `key:"base_url"`
	APIKey           string        `key:"api_key" secret:"true"`
	Model            string        `key:"model"`
	Temperature      float64       `key:"temperature"`
	TopP             float64       `key:"top_p"`
	FrequencyPenalty float64       `key:"frequency_penalty"`
	MaxTokens        int           `key:"max_tokens"`
	Timeout          time.Duration `key:"timeout"`
	Stream           bool          `key:"stream"`
	Price            Price         `key:"price"`
}

// Price is what a model costs per million tokens, in any one currency, for
// the cost estimates of `starter status` and `schedule describe`. All zero
// = no estimate.
type Price struct {
	Input  float64 `key:"input"`  // per million uncached input tokens
	Cached float64 `key:"cached"` // per million cached input tokens; 0 = the input price
	Output float64 `key:"output"` // per million output tokens
}

// Executor protocols: the conversation layout of executor requests
// (docs/design.md §3).
const (
	// ProtocolAutoGLM is the layout AutoGLM-Phone was trained on.
	ProtocolAutoGLM = "autoglm"
	// ProtocolPhoneflow is phoneflow's richer layout for general vision models.
	ProtocolPhoneflow = "phoneflow"
	// ProtocolUITARS is UI-TARS's prompt and Thought:/Action: grammar.
	ProtocolUITARS = "uitars"
	// ProtocolMobileUse is the Qwen-VL mobile_use <tool_call> protocol
	// (Qwen2.5/3-VL, GUI-Owl, MAI-UI, UI-Venus).
	ProtocolMobileUse = "mobile_use"
	// ProtocolTools offers the phone's actions as native function tools.
	ProtocolTools = "tools"
)

// Protocols lists the executor protocols.
func Protocols() []string {
	return []string{ProtocolAutoGLM, ProtocolPhoneflow, ProtocolUITARS, ProtocolMobileUse, ProtocolTools}
}

// Coordinate spaces of executor.coordinates (uitars and mobile_use).
const (
	CoordsPixels   = "pixels"   // absolute pixels of the image as the model's processor resized it
	CoordsRelative = "relative" // a grid over the screen (0-1000 for UI-TARS v1, 0-999 for Qwen3-VL)
)

// Endpoint is Model under the name it has inside Executor, so Executor's
// fields read cfg.Executor.Model as the model name.
type Endpoint = Model

// Planner configures the planner model endpoint and its instructions
// (docs/design.md §3).
type Planner struct {
	Endpoint
	// SystemPromptFile replaces phoneflow's planner instructions, the
	// system prompt of the plan and the replan requests alike, with the
	// text of this file, sent byte for byte; "{date}" in it becomes the
	// goal's date in the user's time zone. Empty = phoneflow's own.
	SystemPromptFile string `key:"system_prompt_file"`
}

// Executor configures the executor model endpoint and the layout of its
// requests (docs/design.md §3).
type Executor struct {
	Endpoint
	// Protocol is one of Protocols(); empty means the
	// default for the model name (see DefaultProtocol), filled in by Load.
	Protocol string `key:"protocol"`
	// Lang is the language of phoneflow's executor system prompt, zh or
	// en; empty means the profile's default (see DefaultLang), filled in
	// by Load.
	Lang string `key:"lang"`
	// SystemPromptFile replaces phoneflow's executor system prompt with
	// the text of this file (for example the model vendor's published
	// prompt); "{date}" in it becomes today's date. Empty = phoneflow's own.
	SystemPromptFile string `key:"system_prompt_file"`
	// UIElements sends the UI element list in executor requests ("true"
	// or "false", with limits.ui_tree on); empty means the profile's
	// default: false for autoglm, true for phoneflow. Filled in by Load.
	UIElements string `key:"ui_elements"`
	// HistoryTokens bounds the estimated tokens of the earlier turns sent
	// with an executor request: the newest turns, thoughts whole, that fit.
	HistoryTokens int `key:"history_tokens"`
	// Coordinates is the space of the points in uitars and mobile_use
	// answers, pixels or relative; empty means the default for the model
	// name (see DefaultCoordinates), filled in by Load.
	Coordinates string `key:"coordinates"`
	// PromptAdvice appends the task-type advice of prompt memory to a
	// system_prompt_file too ("true"); by default that file goes out as
	// written.
	PromptAdvice bool `key:"prompt_advice"`
}

// modelKey folds a model name for matching: lower case without "-", "_",
// ".", "/" or spaces, so "AutoGLM-Phone-9B", "auto-glm-9b" and
// "zai-org/autoglm_phone" all contain "autoglm".
func modelKey(model string) string {
	return strings.NewReplacer("-", "", "_", "", ".", "", " ", "", "/", "").Replace(strings.ToLower(model))
}

// DefaultProtocol is the executor protocol used when none is set: autoglm
// for a model whose name contains "autoglm" once case and the separators
// - _ . / and spaces are ignored (autoglm-phone-9b, AutoGLM-Phone-9B-Multilingual,
// parasail-auto-glm-9b-multilingual), else phoneflow.
//
// The other families by name: uitars for UI-TARS ("ui-tars", "uitars"),
// mobile_use for GUI-Owl, MAI-UI, UI-Venus and Qwen vision models
// ("gui-owl", "mai-ui", "ui-venus", "qwen…vl").
func DefaultProtocol(model string) string {
	k := modelKey(model)
	switch {
	case strings.Contains(k, "autoglm"):
		return ProtocolAutoGLM
	case strings.Contains(k, "uitars"):
		return ProtocolUITARS
	case strings.Contains(k, "guiowl") || strings.Contains(k, "maiui") || strings.Contains(k, "uivenus") || qwenVL(k):
		return ProtocolMobileUse
	}
	return ProtocolPhoneflow
}

// qwenVL reports a folded model name of a Qwen vision model: "qwen", then
// "vl" somewhere after it (qwen25vl7binstruct, qwen3vl235ba22b, qwenvlmax).
func qwenVL(k string) bool {
	i := strings.Index(k, "qwen")
	return i >= 0 && strings.Contains(k[i:], "vl")
}

// DefaultCoordinates is the coordinate space of a uitars or mobile_use
// model by its name: relative for UI-TARS v1 (its SFT and DPO releases,
// which answer in 0-1000 box tokens) and for Qwen3-VL-based models
// (Qwen3-VL, MAI-UI: a 0-999 grid); pixels of the resized image for the
// others (UI-TARS-1.5, Qwen2.5-VL, GUI-Owl, UI-Venus). Empty for the
// other protocols.
func DefaultCoordinates(protocol, model string) string {
	k := modelKey(model)
	switch protocol {
	case ProtocolUITARS:
		if !strings.Contains(k, "uitars15") && (strings.Contains(k, "sft") || strings.Contains(k, "dpo")) {
			return CoordsRelative
		}
		return CoordsPixels
	case ProtocolMobileUse:
		if strings.Contains(k, "qwen3") || strings.Contains(k, "maiui") {
			return CoordsRelative
		}
		return CoordsPixels
	}
	return ""
}

// EffectiveCoordinates is the coordinate space in force.
func (e Executor) EffectiveCoordinates() string {
	if e.Coordinates != "" {
		return e.Coordinates
	}
	return DefaultCoordinates(e.EffectiveProtocol(), e.Model)
}

// ownGrammar reports a protocol whose models answer only in their own
// grammar: they get the reference client's screenshot (full-size PNG), no
// element list, and cannot give the verifier's JSON verdict.
func ownGrammar(protocol string) bool {
	return protocol == ProtocolAutoGLM || protocol == ProtocolUITARS || protocol == ProtocolMobileUse
}

// DefaultLang is the executor prompt language used when none is set: for
// the autoglm protocol zh (the model is tuned in Chinese) unless the model
// name says multilingual, then en; en for the phoneflow protocol.
func DefaultLang(protocol, model string) string {
	if protocol == ProtocolAutoGLM && !strings.Contains(modelKey(model), "multilingual") {
		return "zh"
	}
	return "en"
}

// EffectiveProtocol is the protocol in force: the set one, or the
// default for the model name.
func (e Executor) EffectiveProtocol() string {
	if e.Protocol != "" {
		return e.Protocol
	}
	return DefaultProtocol(e.Model)
}

// EffectiveLang is the prompt language in force: the set one, or the
// profile's default.
func (e Executor) EffectiveLang() string {
	if e.Lang != "" {
		return e.Lang
	}
	return DefaultLang(e.EffectiveProtocol(), e.Model)
}

// SendsUIElements reports whether executor requests carry the element
// list by executor.ui_elements (limits.ui_tree must be on too).
func (e Executor) SendsUIElements() bool {
	if e.UIElements != "" {
		return e.UIElements == "true"
	}
	return !ownGrammar(e.EffectiveProtocol())
}

// ScreenshotFormat is screenshot.format, or the profile's default when it
// is empty: png for autoglm, jpeg for phoneflow.
func (c Config) ScreenshotFormat() string {
	switch {
	case c.Screenshot.Format != "":
		return c.Screenshot.Format
	case ownGrammar(c.Executor.EffectiveProtocol()):
		return "png"
	}
	return "jpeg"
}

// ScreenshotMaxPixels is screenshot.max_pixels, or the profile's default
// when it is 0: FullSize for autoglm, DefaultMaxPixels for phoneflow.
func (c Config) ScreenshotMaxPixels() int {
	switch {
	case c.Screenshot.MaxPixels != 0:
		return c.Screenshot.MaxPixels
	case ownGrammar(c.Executor.EffectiveProtocol()):
		return FullSize
	}
	return DefaultMaxPixels
}

// Verifier uses: which model judges a finished todo that no deterministic
// check covers (docs/design.md §9).
const (
	VerifyByExecutor = "executor" // the executor endpoint, with the screenshot (phoneflow protocol only)
	VerifyByPlanner  = "planner"  // the planner endpoint, text only: the element list, no screenshot
	VerifyByEndpoint = "endpoint" // verifier.base_url and verifier.model, with the screenshot
	VerifyByNone     = "none"     // no model: a finish no check covers is not shown done
)

// Verifier configures the model that answers the verifier's JSON contract.
// An AutoGLM executor is never it: that model answers only do()/finish().
type Verifier struct {
	// Use is executor, planner, endpoint or none; empty means endpoint
	// when verifier.model is set, else executor for the phoneflow
	// protocol and planner for autoglm. Filled in by Load.
	Use string `key:"use"`
	// BaseURL, APIKey and Model are the endpoint of Use endpoint; an empty
	// base URL (and key) means the planner's.
	BaseURL string `key:"base_url"`
	APIKey  string `key:"api_key" secret:"true"`
	Model   string `key:"model"`
}

// EffectiveVerifier is the verifier in force: the set one, or the default.
func (c Config) EffectiveVerifier() string {
	switch {
	case c.Verifier.Use != "":
		return c.Verifier.Use
	case c.Verifier.Model != "":
		return VerifyByEndpoint
	case ownGrammar(c.Executor.EffectiveProtocol()):
		return VerifyByPlanner
	}
	return VerifyByExecutor
}

// VerifierModel is the verifier's endpoint settings, or ok false when no
// model verifies. The executor's and the planner's come as configured; an
// endpoint's borrows the planner's base URL and key when it sets none.
func (c Config) VerifierModel() (m Model, ok bool) {
	switch c.EffectiveVerifier() {
	case VerifyByExecutor:
		return c.Executor.Endpoint, true
	case VerifyByPlanner:
		return c.Planner.Endpoint, true
	case VerifyByEndpoint:
		m = c.Planner.Endpoint
		m.Price = Price{}
		m.Model = c.Verifier.Model
		if c.Verifier.BaseURL != "" && c.Verifier.BaseURL != c.Planner.BaseURL {
			m.BaseURL, m.APIKey = c.Verifier.BaseURL, ""
		}
		if c.Verifier.APIKey != "" {
			m.APIKey = c.Verifier.APIKey
		}
		return m, true
	}
	return Model{}, false
}
