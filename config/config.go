package config

import (
	"path/filepath"
	"strings"
	"time"
)

// Config is phoneflow's effective configuration. Field tags name the key of
// each value (`key`) and mark values that must never be printed (`secret`).
type Config struct {
	Temporal         Temporal   `key:"temporal"`
	Planner          Model      `key:"planner"`
	Executor         Executor   `key:"executor"`
	ADB              ADB        `key:"adb"`
	Settle           Settle     `key:"settle"`
	Screenshot       Screenshot `key:"screenshot"`
	Limits           Limits     `key:"limits"`
	DataDir          string     `key:"data_dir"`
	PromptMemoryPath string     `key:"prompt_memory_path"`
	// PromptMemory records every todo's outcome and lessons in prompt
	// memory for its task type, so later runs of that type start from them.
	PromptMemory bool `key:"prompt_memory"`
	// Routines learns a routine from every todo verified done and replays
	// it for later todos of the same task on the same kind of phone
	// (docs/design.md §22); they live in <data_dir>/routines.
	Routines   bool       `key:"routines"`
	Blobs      Blobs      `key:"blobs"`
	Encryption Encryption `key:"encryption"`
	Metrics    Metrics    `key:"metrics"`
	Telemetry  Telemetry  `key:"telemetry"`
	Notify     Notify     `key:"notify"`
	Log        Log        `key:"log"`
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
// (docs/design.md §9).
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
// requests.
type Executor struct {
	Endpoint
	// Protocol is ProtocolAutoGLM or ProtocolPhoneflow; empty means the
	// default for the model name (see DefaultProtocol), filled in by Load.
	Protocol string `key:"protocol"`
}

// DefaultProtocol is the executor protocol used when none is set: autoglm
// for a model whose name contains "autoglm" (any case), else phoneflow.
func DefaultProtocol(model string) string {
	if strings.Contains(strings.ToLower(model), "autoglm") {
		return ProtocolAutoGLM
	}
	return ProtocolPhoneflow
}

// EffectiveProtocol is the protocol in force: the set one, or the
// default for the model name.
func (e Executor) EffectiveProtocol() string {
	if e.Protocol != "" {
		return e.Protocol
	}
	return DefaultProtocol(e.Model)
}

// ADB says where the ADB server is and which phones this host may drive.
type ADB struct {
	Address string   `key:"address"`
	Allow   []string `key:"allow"`   // serials this worker may drive; empty = all on the server
	Connect []string `key:"connect"` // host:port of network phones to `adb connect` at start
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
type Screenshot struct {
	MaxPixels int    `key:"max_pixels"` // downscale above this many pixels; 0 = never
	Format    string `key:"format"`     // jpeg or png
	Quality   int    `key:"quality"`    // JPEG quality 1–100
}

// Limits are the step budget and the guards of the agent loop.
type Limits struct {
	MaxSteps     int `key:"max_steps"`
	TodoMaxSteps int `key:"todo_max_steps"`
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
	// answer before it asks the user to reconnect it.
	DeviceWaitDeadline time.Duration `key:"device_wait_deadline"`
	// ModelOutageWait is how long a goal waits out a planner or executor
	// model that does not answer (unreachable, 5xx, 429) before it fails.
	ModelOutageWait time.Duration `key:"model_outage_wait"`
	// AnswerDeadline is how long a question or an approval waits for a
	// person before the goal fails (docs/design.md §17).
	AnswerDeadline time.Duration `key:"answer_deadline"`
	// DefaultAnswer answers a question nobody answered by the deadline;
	// empty = the goal fails instead. Approvals never take it.
	DefaultAnswer string `key:"default_answer"`
	// DurableWaitAfter: an executor Wait longer than this is a workflow
	// timer, not a sleep in an activity (docs/design.md §23).
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
	// §24). LeaseCheckInterval is how often a phone's lease checks its
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
		}},
		ADB: ADB{Address: "127.0.0.1:5037"},
		Settle: Settle{
			Mode:     SettleWait,
			Interval: 150 * time.Millisecond,
			Stable:   2,
			Max:      3 * time.Second,
			Fixed:    time.Second,
		},
		Screenshot: Screenshot{MaxPixels: 1_000_000, Format: "jpeg", Quality: 80},
		Limits: Limits{
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
		DataDir:      "./.phoneflow",
		PromptMemory: true,
		Routines:     true,
		Blobs:        Blobs{Retention: 7 * 24 * time.Hour, GCInterval: time.Hour},
		Metrics:      Metrics{Address: "127.0.0.1:9464"},
		Log:          Log{Level: "info", Format: "text"},
	}
}

// fillDerived sets the values that default to something computed from other
// keys, and reports which keys it set.
func (c *Config) fillDerived() []string {
	var set []string
	// The data directory holds the action journal (docs/design.md §19): a
	// worker started again from another directory must find the same one.
	if abs, err := filepath.Abs(c.DataDir); err == nil && abs != c.DataDir {
		c.DataDir = abs
	}
	if c.Temporal.Embedded.DBFile == "" {
		c.Temporal.Embedded.DBFile = filepath.Join(c.DataDir, "temporal.db")
		set = append(set, "temporal.embedded.db_file")
	}
	if c.Temporal.Embedded.UIPort == 0 {
		c.Temporal.Embedded.UIPort = c.Temporal.Embedded.Port + 1000
		set = append(set, "temporal.embedded.ui_port")
	}
	if c.PromptMemoryPath == "" {
		c.PromptMemoryPath = filepath.Join(c.DataDir, "prompt_memory.json")
		set = append(set, "prompt_memory_path")
	}
	if c.Executor.Protocol == "" {
		c.Executor.Protocol = c.Executor.EffectiveProtocol()
		set = append(set, "executor.protocol")
	}
	return set
}

// Embedded reports whether the configuration asks for the embedded server
// (no external Temporal address).
func (c Config) Embedded() bool { return c.Temporal.Address == "" }
