package config

import (
	"time"
)

// Config is phoneflow's effective configuration. Field tags name the key of
// each value (`key`) and mark values that must never be printed (`secret`).
type Config struct {
	Temporal         Temporal   `key:"temporal"`
	Planner          Planner    `key:"planner"`
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
	Viewer        Viewer     `key:"viewer"`
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
	// Costs is the phones' cost profile: "none" answers every command at
	// once; "phone" takes as long as a real phone over adb and fails
	// `uiautomator dump` on screens that animate
	// (docs/phones.md#a-phones-costs).
	Costs string `key:"costs"`
	// Skin is how the phones' apps look: "pixel" (the default) lays them
	// out as a Pixel's Android 14 does, "miui" as a Xiaomi phone's MIUI 14
	// in Chinese, "oneui" as a Samsung phone's One UI 6; "classic" is the
	// simulator's flat Settings page (docs/phones.md#skins).
	Skin string `key:"skin"`
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

// ADB says where the ADB server is and which phones this host may drive.
type ADB struct {
	Address string   `key:"address"`
	Allow   []string `key:"allow"`   // serials this worker may drive; empty = all on the server
	Connect []string `key:"connect"` // host:port of network phones to `adb connect` at start
	// Labels name what the phones are, "SERIAL=label label…" per phone
	// (ADB.LabelsOf reads them): a goal may ask for a phone by label
	// (docs/design.md#phone-fleet).
	Labels []string `key:"labels"`
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
	// less CPU than at 1 MP (BENCHMARKS.md#screenshot-pipeline).
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
	MaxGoalText int `key:"max_goal_text"`
	// ReviewEvery: every this many executor turns the planner looks in
	// on a running todo and may add a hint or stop it for a replan
	// (docs/design.md#planner-review); 0 turns it off.
	ReviewEvery                int  `key:"review_every"`
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
	// DeviceWait is what a goal does when another goal holds its phone:
	// "wait" queues behind it for as long as it takes, "fail" fails at
	// once, and a duration ("10m") queues at most that long, then fails
	// naming the holder.
	DeviceWait string `key:"device_wait"`
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
// Viewer says what the step viewer and the event stream show of a goal
// to everyone who can see it (docs/observability.md#step-viewer).
type Viewer struct {
	// ShowReasoning shows the executor's reasoning with each step (the
	// default). false keeps it out of the step viewer, the event stream
	// and `starter status`: its actions, screens and results still show.
	ShowReasoning bool `key:"show_reasoning"`
}

// Notify configures the notify.url webhook.
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

// Embedded reports whether the configuration asks for the embedded server
// (no external Temporal address).
func (c Config) Embedded() bool { return c.Temporal.Address == "" }
