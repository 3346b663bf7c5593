package config

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is phoneflow's effective configuration. Field tags name the key of
// each value (`key`) and mark values that must never be printed (`secret`).
type Config struct {
	Temporal         Temporal   `key:"temporal"`
	Planner          Model      `key:"planner"`
	Executor         Executor   `key:"executor"`
	Verifier         Verifier   `key:"verifier"`
	ADB              ADB        `key:"adb"`
	Settle           Settle     `key:"settle"`
	Screenshot       Screenshot `key:"screenshot"`
	Limits           Limits     `key:"limits"`
	DataDir          string     `key:"data_dir"`
	PromptMemoryPath string     `key:"prompt_memory_path"`
	// PromptMemory records every todo's outcome and lessons in prompt
	// memory for its task type, so later runs of that type start from them.
	PromptMemory bool `key:"prompt_memory"`
	// PromptRewrite says when the planner rewrites a todo type's executor
	// guidance and how long a rewrite is tried (docs/design.md §2 Guards).
	PromptRewrite PromptRewrite `key:"prompt_rewrite"`
	// Routines learns a routine from every todo verified done and replays
	// it for later todos of the same task on the same kind of phone
	// (docs/design.md §8); they live in <data_dir>/routines unless
	// RoutinesStore names a shared store.
	Routines bool `key:"routines"`
	// RoutinesStore is a bucket every host of a fleet reaches, holding
	// the routines they all learn and replay: file:///shared/routines,
	// s3://bucket?region=eu-west-1 or gs://bucket. Empty = the host's
	// <data_dir>/routines.
	RoutinesStore string     `key:"routines_store"`
	Blobs         Blobs      `key:"blobs"`
	Encryption    Encryption `key:"encryption"`
	Metrics       Metrics    `key:"metrics"`
	Telemetry     Telemetry  `key:"telemetry"`
	Notify        Notify     `key:"notify"`
	Hooks         Hooks      `key:"hooks"`
	Memory        Memory     `key:"memory"`
	Log           Log        `key:"log"`
	Sim           Sim        `key:"sim"`
}

// Sim shapes the simulated phones a stack starts (`starter demo`, the
// drills): what they do by themselves, without input
// (docs/design.md §15). All off by default: the demo's phone
// changes only when driven.
type Sim struct {
	// Seed picks who writes, what, which dialog and when.
	Seed int `key:"seed"`
	// Messages is the mean time between incoming messages from contacts
	// (a notification and a heads-up banner each); 0 = none.
	Messages time.Duration `key:"messages"`
	// Dialogs is the mean time between system dialogs that take the
	// focus; 0 = none.
	Dialogs time.Duration `key:"dialogs"`
	// ScreenTimeout turns the screen off and locks it after this long
	// without input; 0 = never.
	ScreenTimeout time.Duration `key:"screen_timeout"`
	// PIN gives the simulated phones a PIN lock screen with this PIN;
	// empty = a keyguard a swipe up dismisses.
	PIN string `key:"pin" secret:"true"`
	// Width and Height are the screen's size in pixels and Density its
	// dots per inch (`wm size`, `wm density`); 0 = 1080, 2400 and 420.
	// Apps lay out in density-independent units, so 720, 1600 and 320 is
	// a smaller phone that shows the same screens.
	Width   int `key:"width"`
	Height  int `key:"height"`
	Density int `key:"density"`
}

// Temporal says which Temporal cluster to use and how to reach it.
type Temporal struct {
	// Address is host:port of the frontend. Empty means the embedded server
	// (started by `worker --dev` and `starter demo`).
	Address   string   `key:"address"`
	Namespace string   `key:"namespace"`
	TLS       TLS      `key:"tls"`
	APIKey    string   `key:"api_key" secret:"true"`
	Embedded  Embedded `key:"embedded"`
}

// TLS configures TLS or mutual TLS to the Temporal frontend.
type TLS struct {
	Enabled    bool   `key:"enabled"`
	CertFile   string `key:"cert_file"` // client certificate for mTLS
	KeyFile    string `key:"key_file"`  // its private key
	CAFile     string `key:"ca_file"`   // CA bundle to verify the server; empty = system roots
	ServerName string `key:"server_name"`
}

// Embedded configures the embedded Temporal server.
type Embedded struct {
	Port   int    `key:"port"`
	UIPort int    `key:"ui_port"` // 0 = Port+1000
	DBFile string `key:"db_file"` // empty = <data_dir>/temporal.db
	// CodecEndpoint is given to the Web UI so it can decode encrypted
	// payloads for authorized viewers; empty = none.
	CodecEndpoint string `key:"codec_endpoint"`
}

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
)

// Endpoint is Model under the name it has inside Executor, so Executor's
// fields read cfg.Executor.Model as the model name.
type Endpoint = Model

// Executor configures the executor model endpoint and the layout of its
// requests (docs/design.md §3).
type Executor struct {
	Endpoint
	// Protocol is ProtocolAutoGLM or ProtocolPhoneflow; empty means the
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
func DefaultProtocol(model string) string {
	if strings.Contains(modelKey(model), "autoglm") {
		return ProtocolAutoGLM
	}
	return ProtocolPhoneflow
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
	return e.EffectiveProtocol() != ProtocolAutoGLM
}

// ScreenshotFormat is screenshot.format, or the profile's default when it
// is empty: png for autoglm, jpeg for phoneflow.
func (c Config) ScreenshotFormat() string {
	switch {
	case c.Screenshot.Format != "":
		return c.Screenshot.Format
	case c.Executor.EffectiveProtocol() == ProtocolAutoGLM:
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
	case c.Executor.EffectiveProtocol() == ProtocolAutoGLM:
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
	case c.Executor.EffectiveProtocol() == ProtocolAutoGLM:
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
		return c.Planner, true
	case VerifyByEndpoint:
		m = c.Planner
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

// ADB says where the ADB server is and which phones this host may drive.
type ADB struct {
	Address string   `key:"address"`
	Allow   []string `key:"allow"`   // serials this worker may drive; empty = all on the server
	Connect []string `key:"connect"` // host:port of network phones to `adb connect` at start
	// UnlockPIN is the PIN (or letters-and-digits password) of the phones'
	// lock screens, typed by the worker to unlock a phone before a todo
	// acts (docs/design.md §15); empty = a PIN lock is left to a person.
	UnlockPIN string `key:"unlock_pin" secret:"true"`
}

// Settle modes.
const (
	SettleWait  = "settle" // poll the screen until it stops changing
	SettleFixed = "fixed"  // sleep a fixed time after each action
	SettleNone  = "none"   // do not wait
)

// Settle is how long to wait after a device action before the next
// observation.
type Settle struct {
	Mode     string        `key:"mode"`
	Interval time.Duration `key:"interval"` // poll interval in settle mode
	Stable   int           `key:"stable"`   // identical consecutive frames that count as settled
	Max      time.Duration `key:"max"`      // give up waiting after this long
	Fixed    time.Duration `key:"fixed"`    // the delay in fixed mode
}

// Screenshot says how captures are encoded before they go to the executor.
// Empty values take the executor profile's default, filled in by Load:
// the full-size PNG for autoglm (what the model was trained on), a JPEG of
// at most DefaultMaxPixels for phoneflow.
type Screenshot struct {
	MaxPixels int    `key:"max_pixels"` // downscale above this many pixels; -1 = never; 0 = the profile's default
	Format    string `key:"format"`     // jpeg or png; empty = the profile's default
	Quality   int    `key:"quality"`    // JPEG quality 1–100
}

// Screenshot defaults of the phoneflow profile, and the history budget.
const (
	// DefaultMaxPixels is a 1080×2400 screen halved each way (540×1200):
	// text stays legible and the scale and JPEG encode cost about a third
	// less CPU than at 1 MP (BENCHMARKS §4).
	DefaultMaxPixels     = 648_000
	FullSize             = -1 // screenshot.max_pixels: never downscale
	DefaultHistoryTokens = 8000
)

// Goal modes of limits.mode (the workflows' ModeLayered and ModeSingle).
const (
	ModeLayered = "layered"
	ModeSingle  = "single"
)

// Limits are the step budget and the guards of the agent loop.
// PromptRewrite: a todo type's guidance is rewritten after Failures
// failed runs in a row or Every runs of one version; a rewrite is kept
// only when its success rate over its first TrialRuns runs is not worse
// than the version before it.
type PromptRewrite struct {
	Failures  int `key:"failures"`
	Every     int `key:"every"`
	TrialRuns int `key:"trial_runs"`
}

type Limits struct {
	// Mode is how goals run unless started otherwise: "layered" (the
	// planner plans todos, the executor runs each) or "single" (the
	// executor runs the whole goal). DUAL_LOOP_MODE=1/true or 0/false
	// read as layered or single.
	Mode         string `key:"mode"`
	MaxSteps     int    `key:"max_steps"`
	TodoMaxSteps int    `key:"todo_max_steps"`
	// MaxGoalText bounds a goal's text in bytes: a longer one is refused
	// when it is started, before a planner is asked to read it.
	MaxGoalText                int  `key:"max_goal_text"`
	FailureThreshold           int  `key:"failure_threshold"`
	StuckThreshold             int  `key:"stuck_threshold"`
	MaxStuckRetries            int  `key:"max_stuck_retries"`
	MaxExecutorFeedbackHistory int  `key:"max_executor_feedback_history"`
	AutoApprove                bool `key:"auto_approve"` // run sensitive actions without asking
	UITree                     bool `key:"ui_tree"`      // send the UI element list to the executor
	// DeviceWaitDeadline is how long a todo retries a phone that does not
	// answer before it asks the user to reconnect it, and how long a goal
	// waits for a worker to serve its phone before it fails.
	DeviceWaitDeadline time.Duration `key:"device_wait_deadline"`
	// ModelOutageWait is how long a goal waits out a planner or executor
	// model that does not answer (unreachable, 5xx, 429) before it fails.
	ModelOutageWait time.Duration `key:"model_outage_wait"`
	// AnswerDeadline is how long a question or an approval waits for a
	// person before the goal fails (docs/design.md §7).
	AnswerDeadline time.Duration `key:"answer_deadline"`
	// DefaultAnswer answers a question nobody answered by the deadline;
	// empty = the goal fails instead. Approvals never take it.
	DefaultAnswer string `key:"default_answer"`
	// DurableWaitAfter: an executor Wait longer than this is a workflow
	// timer, not a sleep in an activity (docs/design.md §7).
	DurableWaitAfter time.Duration `key:"durable_wait_after"`
	// ReleasePhoneDuringWaits gives the phone back while a goal waits for
	// a time, or for a person longer than ReleasePhoneAfter.
	ReleasePhoneDuringWaits bool          `key:"release_phone_during_waits"`
	ReleasePhoneAfter       time.Duration `key:"release_phone_after"`
	// TimeZone reads times of day in waits ("at 21:00 …"): an IANA name or
	// an offset such as +08:00; empty = the zone of the machine starting
	// the goal.
	TimeZone string `key:"time_zone"`
	// BlockedHolderAfter: a goal whose workflow task has kept failing this
	// long (non-determinism after a bad deploy, a panic), with nothing of
	// it on the phone, loses its phone to the next goal (docs/design.md
	// §5). LeaseCheckInterval is how often a phone's lease checks its
	// holder. Both are the worker's, given to the leases it starts.
	BlockedHolderAfter time.Duration `key:"blocked_holder_after"`
	LeaseCheckInterval time.Duration `key:"lease_check_interval"`
}

// Notify configures the webhook that tells people a goal waits for them
// or failed.
type Notify struct {
	// URL receives a JSON POST per notification; empty = none. It may
	// carry a token, so it is treated as a secret.
	URL string `key:"url" secret:"true"`
	// UIURL is the Temporal Web UI's base URL for the notification's link;
	// empty = the embedded Web UI's when temporal.address is empty.
	UIURL string `key:"ui_url"`
}

// Hooks configures the webhook that hears every event of a goal and may
// veto device actions (docs/design.md §10).
type Hooks struct {
	// URL receives a JSON POST per event; empty = none. It may carry a
	// token, so it is treated as a secret.
	URL string `key:"url" secret:"true"`
	// Token is sent as "Authorization: Bearer <token>".
	Token string `key:"token" secret:"true"`
	// Events limits the events sent; empty = all (goal_start, goal_end,
	// plan, replan, todo_start, todo_end, step_start, step_end,
	// before_action).
	Events []string `key:"events"`
	// Block makes the webhook's answer to before_action a verdict that
	// can veto the action ({"allow": false, "reason": "…"}).
	Block bool `key:"block"`
	// Timeout bounds each call of a hook.
	Timeout time.Duration `key:"timeout"`
	// Default is what a blocking hook that fails or does not answer in
	// time decides: allow or deny.
	Default string `key:"default"`
}

// HookEvents are the event names hooks.events accepts (hooks.Kinds).
var HookEvents = []string{"goal_start", "goal_end", "plan", "replan", "todo_start", "todo_end", "step_start", "step_end", "before_action"}

// Hook defaults of a blocking hook that does not answer.
const (
	HookAllow = "allow"
	HookDeny  = "deny"
)

// Memory configures what goals remember across goals (docs/design.md §8).
type Memory struct {
	// Enabled learns facts from verified todos and the person's answers
	// and shows them to the planner.
	Enabled bool `key:"enabled"`
	// Path is the store's directory; empty = <data_dir>/memory.
	Path string `key:"path"`
	// User scopes what is learned and shown to this person, whatever the
	// phone; empty = per phone.
	User string `key:"user"`
}

// Blobs configures how long screenshots and UI dumps are kept.
type Blobs struct {
	// Retention keeps the blobs of goals running or closed less than this
	// long ago; 0 = the Temporal namespace's retention.
	Retention time.Duration `key:"retention"`
	// GCInterval is how often the worker removes older blobs; 0 = never.
	GCInterval time.Duration `key:"gc_interval"`
}

// Encryption configures payload encryption.
type Encryption struct {
	// Keys is "id:base64key,id2:base64key2"; the first key encrypts, all
	// decrypt (key rotation). Empty = payloads are not encrypted.
	Keys string `key:"keys" secret:"true"`
	// CodecToken is the bearer token the codec endpoint requires.
	CodecToken string `key:"codec_token" secret:"true"`
	// CodecAddress is host:port where the worker serves the codec endpoint
	// the Web UI uses to decode payloads; empty = not served.
	CodecAddress string `key:"codec_address"`
}

// Metrics configures the Prometheus endpoint.
type Metrics struct {
	Address string `key:"address"` // host:port; empty = no metrics endpoint
}

// Telemetry configures trace export.
type Telemetry struct {
	// OTLPEndpoint is the OpenTelemetry collector spans are exported to
	// over OTLP/gRPC: host:port or http://host:port (plaintext), or
	// https://host:port (TLS); empty = no tracing.
	OTLPEndpoint string `key:"otlp_endpoint"`
}

// Log configures structured logging.
type Log struct {
	Level  string `key:"level"`  // debug, info, warn, error
	Format string `key:"format"` // text or json
}

// Default model endpoints: the offline model server that ships with
// phoneflow, so a fresh checkout works without any account.
const (
	DefaultModelBaseURL  = "http://127.0.0.1:8090/v1"
	DefaultPlannerModel  = "offline-planner"
	DefaultExecutorModel = "offline-executor"
)

// Default returns the built-in defaults. Paths that depend on the data
// directory are left empty here and filled in by Load.
func Default() Config {
	return Config{
		Temporal: Temporal{
			Namespace: "default",
			Embedded:  Embedded{Port: 7233},
		},
		Planner: Model{
			BaseURL:     DefaultModelBaseURL,
			Model:       DefaultPlannerModel,
			Temperature: 0,
			TopP:        1,
			MaxTokens:   2000,
			Timeout:     2 * time.Minute,
		},
		// The executor defaults are the AutoGLM-Phone reference settings.
		Executor: Executor{Endpoint: Model{
			BaseURL:          DefaultModelBaseURL,
			Model:            DefaultExecutorModel,
			Temperature:      0,
			TopP:             0.85,
			FrequencyPenalty: 0.2,
			MaxTokens:        3000,
			Timeout:          2 * time.Minute,
			Stream:           true,
		}, HistoryTokens: DefaultHistoryTokens},
		ADB: ADB{Address: "127.0.0.1:5037"},
		Settle: Settle{
			Mode:     SettleWait,
			Interval: 150 * time.Millisecond,
			Stable:   2,
			Max:      3 * time.Second,
			Fixed:    time.Second,
		},
		Screenshot: Screenshot{Quality: 80},
		Limits: Limits{
			Mode:                       ModeLayered,
			MaxSteps:                   100,
			TodoMaxSteps:               30,
			MaxGoalText:                4000,
			DeviceWaitDeadline:         2 * time.Minute,
			ModelOutageWait:            6 * time.Hour,
			AnswerDeadline:             24 * time.Hour,
			DurableWaitAfter:           30 * time.Second,
			ReleasePhoneDuringWaits:    true,
			ReleasePhoneAfter:          5 * time.Minute,
			BlockedHolderAfter:         5 * time.Minute,
			LeaseCheckInterval:         time.Minute,
			FailureThreshold:           3,
			StuckThreshold:             3,
			MaxStuckRetries:            2,
			MaxExecutorFeedbackHistory: 2,
			UITree:                     true,
		},
		DataDir:       "./.phoneflow",
		PromptMemory:  true,
		PromptRewrite: PromptRewrite{Failures: 3, Every: 10, TrialRuns: 5},
		Routines:      true,
		Blobs:         Blobs{Retention: 7 * 24 * time.Hour, GCInterval: time.Hour},
		Metrics:       Metrics{Address: "127.0.0.1:9464"},
		Hooks:         Hooks{Timeout: 5 * time.Second, Default: HookAllow},
		Memory:        Memory{Enabled: true},
		Log:           Log{Level: "info", Format: "text"},
	}
}

// fillDerived sets the values that default to something computed from other
// keys, and reports the profile-dependent ones it set with why.
func (c *Config) fillDerived() map[string]string {
	set := map[string]string{}
	// The data directory holds the action journal (docs/design.md §4): a
	// worker started again from another directory must find the same one.
	if abs, err := filepath.Abs(c.DataDir); err == nil && abs != c.DataDir {
		c.DataDir = abs
	}
	// DUAL_LOOP_MODE, the alias of limits.mode, is a switch: on is the
	// planner and executor loops, off the executor alone.
	switch strings.ToLower(strings.TrimSpace(c.Limits.Mode)) {
	case "1", "true", "yes", "on", "dual":
		c.Limits.Mode = ModeLayered
	case "0", "false", "no", "off":
		c.Limits.Mode = ModeSingle
	}
	if c.Temporal.Embedded.DBFile == "" {
		c.Temporal.Embedded.DBFile = filepath.Join(c.DataDir, "temporal.db")
	}
	if c.Temporal.Embedded.UIPort == 0 {
		c.Temporal.Embedded.UIPort = c.Temporal.Embedded.Port + 1000
	}
	if c.PromptMemoryPath == "" {
		c.PromptMemoryPath = filepath.Join(c.DataDir, "prompt_memory.json")
	}
	model := strconv.Quote(c.Executor.Model)
	if c.Executor.Protocol == "" {
		c.Executor.Protocol = c.Executor.EffectiveProtocol()
		why := "does not contain"
		if c.Executor.Protocol == ProtocolAutoGLM {
			why = "contains"
		}
		set["executor.protocol"] = "default for executor.model " + model + ": its name " + why + " autoglm (case, - _ . / and spaces ignored)"
	}
	profile := "default for executor.protocol " + c.Executor.Protocol
	if c.Executor.Lang == "" {
		c.Executor.Lang = c.Executor.EffectiveLang()
		why := profile
		if c.Executor.Protocol == ProtocolAutoGLM {
			if c.Executor.Lang == "en" {
				why += " and executor.model " + model + " (multilingual)"
			} else {
				why += " and executor.model " + model + " (not multilingual)"
			}
		}
		set["executor.lang"] = why
	}
	if c.Executor.UIElements == "" {
		c.Executor.UIElements = strconv.FormatBool(c.Executor.SendsUIElements())
		set["executor.ui_elements"] = profile
	}
	if c.Screenshot.Format == "" {
		c.Screenshot.Format = c.ScreenshotFormat()
		set["screenshot.format"] = profile
	}
	if c.Screenshot.MaxPixels == 0 {
		c.Screenshot.MaxPixels = c.ScreenshotMaxPixels()
		set["screenshot.max_pixels"] = profile
	}
	if c.Verifier.Use == "" {
		c.Verifier.Use = c.EffectiveVerifier()
		switch {
		case c.Verifier.Use == VerifyByEndpoint:
			set["verifier.use"] = "default: verifier.model is set"
		case c.Executor.Protocol == ProtocolAutoGLM:
			set["verifier.use"] = profile + ": an AutoGLM executor answers only do()/finish(), so the planner verifies"
		default:
			set["verifier.use"] = profile
		}
	}
	return set
}

// Embedded reports whether the configuration asks for the embedded server
// (no external Temporal address).
func (c Config) Embedded() bool { return c.Temporal.Address == "" }
