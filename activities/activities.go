package activities

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/memory"
	"github.com/phoneflow/phoneflow/internal/promptmem"
	"github.com/phoneflow/phoneflow/internal/routine"
	"github.com/phoneflow/phoneflow/internal/sealed"
	"github.com/phoneflow/phoneflow/internal/takeover"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// DevicePool hands out the phones this worker owns.
type DevicePool interface {
	Get(ctx context.Context, serial string) (device.Device, error)
	List(ctx context.Context) ([]device.Info, error)
}

// Model is a chat model (planner or executor).
type Model interface {
	Chat(ctx context.Context, msgs []llm.Message) (*llm.Answer, error)
}

// BlobStore keeps screenshots and UI trees out of workflow history.
type BlobStore interface {
	Put(ctx context.Context, data []byte, contentType string) (string, error)
	Get(ctx context.Context, ref string) ([]byte, error)
}

// PromptMemory stores the run counts per goal task type and the
// executor's versioned guidance per todo type (docs/design.md §2 Guards).
type PromptMemory interface {
	Get(taskType string) (promptmem.Entry, bool, error)
	Record(taskType string, success bool, prompt string) error
	Guidance(todoType string) (promptmem.Guidance, bool, error)
	RecordRun(todoType string, o promptmem.Outcome, p promptmem.Policy) (bool, string, error)
	Propose(todoType string, from int, text, why string) (promptmem.Version, error)
}

// Activities holds what phoneflow's activities need. Register it with a
// worker (worker.RegisterActivity(a)); workflows call the methods by the
// Name* constants.
type Activities struct {
	Devices DevicePool
	Planner Model
	// PlannerPrompt is the text of planner.system_prompt_file: the
	// system prompt of every plan and replan request, "{date}" filled in
	// (docs/design.md §3); empty means phoneflow's own.
	PlannerPrompt string
	Executor      Model
	// Verifier judges finished todos from the final screen; nil means
	// the Executor (a vision model) does, unless VerifierOff.
	Verifier Model
	// CommitLabels are the labels of commit controls whose taps are
	// checked against the todo first; empty means
	// postcond.DefaultCommitLabels (docs/design.md §9).
	CommitLabels []string
	// VerifierText sends the verifier the element list without the
	// screenshot (a text model such as the planner's).
	VerifierText bool
	// VerifierOff calls no verifier model: a finish no deterministic
	// check covers is not shown done (verifier.use none).
	VerifierOff bool
	Blobs       BlobStore
	Prompts     PromptMemory // nil disables prompt memory
	// PromptPolicy says when a todo type's guidance is rewritten and how
	// long a rewrite is tried; zero fields take promptmem.DefaultPolicy.
	PromptPolicy promptmem.Policy
	Exec         autoglm.Config
	// Now is the clock for the executor's system prompt date; nil means time.Now.
	Now func() time.Time
	// MaxWait caps a Wait action; 0 means 10 seconds.
	MaxWait time.Duration
	// Notifier sends the notify.url webhook; nil sends nothing. It is
	// registered as its own activity (NameNotify), not as a method here.
	Notifier *Notifier
	// Journal records device actions by ID so each is applied at most
	// once (docs/design.md §4); nil keeps the screen-hash guard only.
	Journal *Journal
	// Fault, when set, runs between an action reaching the phone and its
	// journal record, and FaultBeforeSend between the intent and the
	// input (crash drills).
	Fault           ActionFault
	FaultBeforeSend ActionFault
	// Routines is the learned routines of this host's phones
	// (docs/design.md §8); nil records and replays none.
	Routines *routine.Store
	// Hooks are told a goal's events and asked before each action that
	// touches the phone (docs/design.md §10); nil tells no one.
	Hooks *hooks.Set
	// Memory is what goals learned for later goals (docs/design.md §8);
	// nil learns and shows nothing.
	Memory *memory.Store
	// MemoryUser, when set, scopes memory to this person instead of the
	// goal's phone (memory.user).
	MemoryUser string
	// Unlock wakes and unlocks a phone before a Step acts on it or looks
	// at it (docs/design.md §15); nil leaves a dark screen to the wake
	// before a look and a keyguard to the executor.
	Unlock *Unlocker
	// TakeOver holds the text a person types from the step viewer until
	// PersonAct types it (docs/design.md §7); nil refuses typed text.
	TakeOver *takeover.Store
	// Sealed keeps the text the executor types into a password field or
	// onto a secure screen, encrypted, so history carries only its handle
	// (docs/design.md#secrets-typed-by-the-executor); nil leaves such
	// text in clear.
	Sealed *sealed.Store
}

// Error types of the application errors activities return.
const (
	ErrTypeModelRetryable = "ModelRetryable"
	ErrTypeModelPermanent = "ModelPermanent"
	// ErrTypeModelUnavailable is a model outage handed back to the
	// workflow (non-retryable here; details: ModelOutage).
	ErrTypeModelUnavailable = "ModelUnavailable"
	ErrTypeDevice           = "DeviceError"
	ErrTypeConfig           = "ConfigError"
	ErrTypeBlob             = "BlobError"
)

func (a *Activities) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// warner is what activities log through: Temporal's activity logger inside
// an activity, slog elsewhere (direct calls in tests and tools).
type warner interface {
	Debug(msg string, keyvals ...any)
	Info(msg string, keyvals ...any)
	Warn(msg string, keyvals ...any)
}

func (a *Activities) logger(ctx context.Context) warner {
	if activity.IsActivity(ctx) {
		return activity.GetLogger(ctx)
	}
	return slog.Default()
}

// modelError maps a model client error onto Temporal's retry policy, the
// only place retries are decided: retryable errors (timeouts, 5xx, 429)
// are retried, honouring the server's Retry-After; permanent ones (bad key,
// unknown model, 4xx) fail fast.
func modelError(role string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	msg := role + " model: " + err.Error()
	if llm.IsRetryable(err) {
		o := ModelOutage{Role: role, Error: err.Error()}
		var le *llm.Error
		if errors.As(err, &le) {
			o.Endpoint, o.Error = le.Endpoint, le.Msg
		}
		return temporal.NewApplicationErrorWithOptions(msg, ErrTypeModelRetryable, temporal.ApplicationErrorOptions{
			NextRetryDelay: llm.RetryAfter(err), // 0 keeps the policy's backoff
			Details:        []any{o},
		})
	}
	return temporal.NewNonRetryableApplicationError(msg, ErrTypeModelPermanent, nil)
}

// OutageHandBackAttempt is the attempt from which a retryable model error
// is handed back to a workflow that asked for it (HandBackOutages): two
// quick Temporal retries ride out a blip, a longer outage is waited out
// by the workflow, which says so in the goal's status.
const OutageHandBackAttempt = 3

// handBackOutage turns a retryable model error into a ModelUnavailable
// error for the workflow once attempt reaches OutageHandBackAttempt, or at
// once when the step already applied its action (applied != nil): retrying
// the activity would send the action again. Other errors pass unchanged.
func handBackOutage(attempt int, err error, applied *StepResult) error {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrTypeModelRetryable || (attempt < OutageHandBackAttempt && applied == nil) {
		return err
	}
	var o ModelOutage
	if app.HasDetails() {
		_ = app.Details(&o)
	}
	o.Applied = applied
	return temporal.NewNonRetryableApplicationError(app.Message(), ErrTypeModelUnavailable, nil, o)
}

// deviceError maps a device failure: an unknown or refused serial is a
// configuration problem (no retry); anything else (a disconnect, an adb
// hiccup) is retried.
func deviceError(op string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	var na *device.NotAllowedError
	var ua *device.UnsupportedAndroidError
	if errors.As(err, &na) || errors.As(err, &ua) {
		return temporal.NewNonRetryableApplicationError(op+": "+err.Error(), ErrTypeConfig, nil)
	}
	return temporal.NewApplicationError(op+": "+err.Error(), ErrTypeDevice)
}

func (a *Activities) device(ctx context.Context, serial string) (device.Device, error) {
	if a.Devices == nil {
		return nil, temporal.NewNonRetryableApplicationError("no device pool: the worker was started without phones", ErrTypeConfig, nil)
	}
	d, err := a.Devices.Get(ctx, serial)
	if err != nil {
		return nil, deviceError("device "+serial, err)
	}
	return d, nil
}

// ListDevices lists the phones the worker's ADB server knows.
func (a *Activities) ListDevices(ctx context.Context) ([]device.Info, error) {
	if a.Devices == nil {
		return nil, nil
	}
	infos, err := a.Devices.List(ctx)
	if err != nil {
		return nil, deviceError("list devices", err)
	}
	return infos, nil
}

func (a *Activities) put(ctx context.Context, data []byte, contentType string) (string, error) {
	if a.Blobs == nil {
		return "", temporal.NewNonRetryableApplicationError("no blob store configured: set the blob directory in the config", ErrTypeConfig, nil)
	}
	ref, err := a.Blobs.Put(ctx, data, contentType)
	if err != nil {
		return "", temporal.NewApplicationError("blob store: "+err.Error(), ErrTypeBlob)
	}
	return ref, nil
}

func (a *Activities) get(ctx context.Context, ref string) ([]byte, error) {
	if a.Blobs == nil {
		return nil, temporal.NewNonRetryableApplicationError("no blob store configured: set the blob directory in the config", ErrTypeConfig, nil)
	}
	data, err := a.Blobs.Get(ctx, ref)
	if err != nil {
		return nil, temporal.NewApplicationError("blob store: "+err.Error(), ErrTypeBlob)
	}
	return data, nil
}

// tree loads the UI tree the blob store keeps under ref.
func (a *Activities) tree(ctx context.Context, ref string) ([]uitree.Element, error) {
	data, err := a.get(ctx, ref)
	if err != nil {
		return nil, err
	}
	var es []uitree.Element
	if err := json.Unmarshal(data, &es); err != nil {
		return nil, temporal.NewNonRetryableApplicationError("UI tree blob "+ref+" is not valid JSON", ErrTypeBlob, err)
	}
	return es, nil
}
