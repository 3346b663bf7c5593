package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/memory"
	"github.com/phoneflow/phoneflow/internal/metrics"
	"github.com/phoneflow/phoneflow/internal/promptmem"
	"github.com/phoneflow/phoneflow/internal/routine"
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
	Devices  DevicePool
	Planner  Model
	Executor Model
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

// Keep executor results small: they travel through workflow history. The
// turns themselves live whole in the blob store, and requests carry as many
// of them as autoglm.KeepHistory's token budget allows (docs/design.md §3).
const (
	maxThinkingKept = 240
	maxTurnUser     = 600
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
	if errors.As(err, &na) {
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

// screen is an observation with its bytes, kept in memory within a Step.
type screen struct {
	obs   Observation
	png   []byte
	img   image.Image // png decoded once, for the hash and the executor request
	elems []uitree.Element
}

// Observe captures the screen (and the UI tree when asked) into the blob
// store and returns only references and facts.
func (a *Activities) Observe(ctx context.Context, in ObserveInput) (Observation, error) {
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return Observation{}, err
	}
	s, err := a.observe(ctx, d, in.UITree)
	return s.obs, err
}

func (a *Activities) observe(ctx context.Context, d device.Device, withTree bool) (screen, error) {
	s, err := a.look(ctx, d, withTree)
	if err != nil || !withTree || s.elems != nil || !a.wake(ctx, d) {
		return s, err
	}
	if _, err := a.unlock(ctx, d); err != nil {
		return s, err
	}
	return a.look(ctx, d, withTree)
}

// screenSwitch is a device that tells whether its display is on.
type screenSwitch interface {
	ScreenOn(ctx context.Context) (bool, error)
}

// wake turns on a display that is off (it timed out, or nobody has used
// the phone for a while), as a person picks the phone up before using it:
// a dark screen shows nothing to decide on, and its UI tree cannot be
// read. It reports whether it woke the phone. Waking is the same once or
// twice, so it is not journalled; what the screen then shows (a keyguard,
// say) is for the executor to get past (docs/design.md §15).
func (a *Activities) wake(ctx context.Context, d device.Device) bool {
	sw, ok := d.(screenSwitch)
	if !ok {
		return false
	}
	if on, err := sw.ScreenOn(ctx); err != nil || on {
		return false
	}
	if err := d.Wake(ctx); err != nil {
		a.logger(ctx).Warn("the screen is off and waking it failed", "serial", d.Serial(), "error", err)
		return false
	}
	a.logger(ctx).Warn("the screen was off: woke it", "serial", d.Serial())
	return true
}

// look captures the screen once: screenshot, app in front and, withTree,
// the UI tree.
func (a *Activities) look(ctx context.Context, d device.Device, withTree bool) (screen, error) {
	var s screen
	shot, err := CaptureScreen(ctx, d, a.Exec)
	if err != nil {
		return s, deviceError("screenshot", err)
	}
	s.obs.Width, s.obs.Height = shot.Width, shot.Height
	s.obs.Sensitive, s.obs.SensitiveReason = shot.Sensitive, shot.Reason
	if app, err := d.CurrentApp(ctx); err == nil {
		s.obs.App, s.obs.AppPackage = app.Name, app.Package
	} else {
		a.logger(ctx).Warn("current app unknown", "serial", d.Serial(), "error", err)
	}
	if s.obs.Width == 0 || s.obs.Height == 0 {
		if w, h, err := d.ScreenSize(ctx); err == nil {
			s.obs.Width, s.obs.Height = w, h
		}
	}
	if withTree {
		elems, err := d.UITree(ctx)
		if err != nil {
			// Some screens (video, games) cannot be dumped; the screenshot
			// is enough to go on.
			a.logger(ctx).Warn("UI tree unavailable", "serial", d.Serial(), "error", err)
		} else {
			s.elems = elems
			s.obs.TextHash = textHash(elems)
			data, err := json.Marshal(elems)
			if err != nil {
				return s, err
			}
			if s.obs.TreeRef, err = a.put(ctx, data, "application/json"); err != nil {
				return s, err
			}
		}
	}
	if !shot.Sensitive {
		sc, err := PrepareScreen(shot, a.Exec)
		device.Release(shot)
		if err != nil {
			return s, temporal.NewApplicationError("screenshot: not a readable image: "+err.Error(), ErrTypeDevice)
		}
		s.png, s.img, s.obs.Hash = sc.Stored, sc.Decoded, sc.Hash
		if s.obs.ScreenRef, err = a.put(ctx, sc.Stored, sc.MIME); err != nil {
			return s, err
		}
	} else {
		s.obs.Hash = sensitiveHash(s.obs.AppPackage, s.elems)
	}
	return s, nil
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
		data, err := a.get(ctx, in.Screen.TreeRef)
		if err != nil {
			return ThinkResult{}, err
		}
		if err := json.Unmarshal(data, &s.elems); err != nil {
			return ThinkResult{}, temporal.NewNonRetryableApplicationError("UI tree blob "+in.Screen.TreeRef+" is not valid JSON", ErrTypeBlob, err)
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
	msgs, err := autoglm.BuildMessages(a.Exec, si, a.now())
	if err != nil {
		return ThinkResult{}, temporal.NewNonRetryableApplicationError("executor request: "+err.Error(), ErrTypeConfig, nil)
	}
	ans, err := a.Executor.Chat(ctx, msgs)
	if err != nil {
		return ThinkResult{}, modelError("executor", err)
	}
	res := a.turn(si)
	res.Guidance = version
	res.Model, res.TotalMS, res.Usage = ans.Model, ans.Total.Milliseconds(), ans.Usage()
	resp, err := autoglm.Parse(ans.Text)
	if err != nil {
		var pe *autoglm.ParseError
		if !errors.As(err, &pe) {
			return ThinkResult{}, err
		}
		res.ParseError = pe.Reason
		res.Turn.Assistant = ans.Text
	} else {
		res.Action = autoglm.FormatAction(resp.Action)
		res.Turn.Assistant = "<think>" + resp.Thinking + "</think><answer>" + res.Action + "</answer>"
		resp.Thinking = clip(resp.Thinking, maxThinkingKept)
		res.Response = &resp
	}
	return a.keepTurn(ctx, hist, res)
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
		// The app as the model knows it: its own label, System Home for
		// the launcher (docs/design.md §3).
		if l := device.ModelLabel(si.AppPackage); l != "" {
			si.AppName = l
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

// Act performs one action on the phone. A retried attempt first compares
// the current screen with the one the decision was based on: if it
// changed, the first attempt's input already reached the phone and the
// action is reported as already applied instead of being sent twice.
func (a *Activities) Act(ctx context.Context, in ActInput) (ActResult, error) {
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return ActResult{}, err
	}
	return a.act(ctx, d, attempt(ctx), in.Action, in.ScreenHash, in.Width, in.Height)
}

// attempt is the activity's attempt number (1 outside an activity).
func attempt(ctx context.Context) int {
	if activity.IsActivity(ctx) {
		return int(activity.GetInfo(ctx).Attempt)
	}
	return 1
}

func (a *Activities) act(ctx context.Context, d device.Device, attempt int, act autoglm.Action, hash string, w, h int) (ActResult, error) {
	if attempt > 1 && hash != "" && act.TouchesDevice() {
		s, err := a.observe(ctx, d, false)
		if err != nil {
			return ActResult{}, err
		}
		if s.obs.Hash != hash {
			metrics.StepReplayed(strings.ReplaceAll(strings.ToLower(act.Name), " ", "_"))
			return ActResult{Result: ActAlreadyApplied}, nil
		}
	}
	if w <= 0 || h <= 0 {
		var err error
		if w, h, err = d.ScreenSize(ctx); err != nil {
			return ActResult{}, deviceError("screen size", err)
		}
	}
	return a.perform(ctx, d, act, w, h)
}

func (a *Activities) perform(ctx context.Context, d device.Device, act autoglm.Action, w, h int) (ActResult, error) {
	res, err := a.input(ctx, d, act, w, h)
	if err != nil {
		return ActResult{}, deviceError(act.Name, err)
	}
	return res, nil
}

// input sends act to the phone. Errors the model can act on are results;
// an error after the input took place (the settle wait) is logged and the
// action reported done; other errors are the device's, unmapped, so a
// caller can tell an input that never reached the phone
// (device.NotSent).
func (a *Activities) input(ctx context.Context, d device.Device, act autoglm.Action, w, h int) (ActResult, error) {
	pt := func(p *autoglm.Point) (int, int, bool) {
		if p == nil {
			return 0, 0, false
		}
		x, y := autoglm.ToPixel(*p, w, h)
		return x, y, true
	}
	var err error
	missing := func(what string) (ActResult, error) {
		return ActResult{Result: fmt.Sprintf("error: %s needs %s", act.Name, what)}, nil
	}
	switch act.Name {
	case autoglm.ActionTap, autoglm.ActionDoubleTap, autoglm.ActionLongPress:
		x, y, ok := pt(act.Element)
		if !ok {
			return missing("element=[x,y]")
		}
		switch act.Name {
		case autoglm.ActionTap:
			err = d.Tap(ctx, x, y)
		case autoglm.ActionDoubleTap:
			err = d.DoubleTap(ctx, x, y)
		default:
			err = d.LongPress(ctx, x, y)
		}
	case autoglm.ActionSwipe:
		x1, y1, ok1 := pt(act.Start)
		x2, y2, ok2 := pt(act.End)
		if !ok1 || !ok2 {
			return missing("start=[x,y] and end=[x,y]")
		}
		err = d.Swipe(ctx, x1, y1, x2, y2, 0)
	case autoglm.ActionBack:
		err = d.Back(ctx)
	case autoglm.ActionHome:
		err = d.Home(ctx)
	case autoglm.ActionLaunch:
		if strings.TrimSpace(act.App) == "" {
			return missing(`app="..."`)
		}
		err = d.Launch(ctx, act.App)
	case autoglm.ActionType, autoglm.ActionTypeName:
		err = d.Type(ctx, act.Text)
	case autoglm.ActionWait:
		return a.wait(ctx, act.Duration)
	default:
		return ActResult{Result: fmt.Sprintf("error: %s is not an action the phone can perform", act.Name)}, nil
	}
	if err == nil {
		return ActResult{Result: "ok", Touched: true}, nil
	}
	if device.Sent(err) {
		a.logger(ctx).Warn("the phone took the input; what followed it failed", "serial", d.Serial(), "action", act.Name, "error", err)
		return ActResult{Result: "ok", Touched: true}, nil
	}
	// Errors the model can act on go back to it as the action's result.
	if errors.Is(err, device.ErrIMENotInstalled) {
		// No model can fix this: a person must install the keyboard.
		return ActResult{Result: err.Error(), NeedsHuman: err.Error()}, nil
	}
	var nf *device.AppNotFoundError
	if errors.As(err, &nf) {
		return ActResult{Result: err.Error()}, nil
	}
	return ActResult{}, err
}

// wait sleeps for a Wait action ("2 seconds", "500ms"), capped by MaxWait.
func (a *Activities) wait(ctx context.Context, duration string) (ActResult, error) {
	limit := a.MaxWait
	if limit <= 0 {
		limit = 10 * time.Second
	}
	d := ParseWait(duration)
	if d > limit {
		d = limit
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ActResult{}, ctx.Err()
	case <-t.C:
	}
	return ActResult{Result: "ok"}, nil
}

// maxWaitParsed bounds what ParseWait returns; Activities.MaxWait caps the
// actual wait further.
const maxWaitParsed = time.Hour

// ParseWait reads a Wait duration as models write it: "2 seconds", "2s",
// "1.5 second", "500ms", "3". Unreadable values wait one second.
func ParseWait(s string) time.Duration {
	s = strings.ToLower(strings.TrimSpace(s))
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return min(d, maxWaitParsed)
	}
	var v float64
	var unit string
	if n, _ := fmt.Sscanf(s, "%g %s", &v, &unit); n >= 1 && v >= 0 && v <= maxWaitParsed.Seconds() {
		switch {
		case strings.HasPrefix(unit, "ms"), strings.HasPrefix(unit, "milli"):
			return time.Duration(v * float64(time.Millisecond))
		case strings.HasPrefix(unit, "min"):
			return min(time.Duration(v*float64(time.Minute)), maxWaitParsed)
		default:
			return time.Duration(v * float64(time.Second))
		}
	}
	return time.Second
}

// Step runs one iteration of a todo: perform the action the workflow
// already approved (if any; the device settles before returning), observe
// the new screen, and think the next action (if asked). Doing the three in
// one activity keeps a step at about six history events; the screenshot
// stays in memory between observing and thinking.
func (a *Activities) Step(ctx context.Context, in StepInput) (StepResult, error) {
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return StepResult{}, handBackDeviceError(attempt(ctx), err)
	}
	defer keepAlive(ctx, StepHeartbeat)()
	a.Hooks.Emit(ctx, stepEvent(ctx, hooks.StepStart, in))
	res, err := a.step(ctx, d, attempt(ctx), in)
	a.Hooks.Emit(ctx, stepEnd(ctx, in, res, err))
	if err != nil && in.HandBackOutages {
		var applied *StepResult
		if res.Act != nil {
			applied = &StepResult{Act: res.Act, Screen: res.Screen}
		}
		err = handBackOutage(attempt(ctx), err, applied)
	}
	if err != nil {
		res = StepResult{}
	}
	return res, handBackDeviceError(attempt(ctx), err)
}

// handBackDeviceError lets Temporal retry a device error once (a passing
// adb hiccup), then hands a phone that still does not answer back to the
// workflow as a non-retryable DeviceError: the workflow waits for the phone
// itself, so the goal can say what it waits for and ask the user to
// reconnect the phone past its deadline.
func handBackDeviceError(attempt int, err error) error {
	var app *temporal.ApplicationError
	if attempt < 2 || !errors.As(err, &app) || app.Type() != ErrTypeDevice || app.NonRetryable() {
		return err
	}
	return temporal.NewNonRetryableApplicationError(app.Message(), ErrTypeDevice, nil)
}

// StepHeartbeat is how often a running Step heartbeats. Workflows set a
// heartbeat timeout a few times longer (15 s for a todo on the shared
// queue, docs/design.md §5), so a step whose worker died is retried
// within that instead of at the end of its start-to-close timeout, and a
// cancelled goal reaches the step promptly (the SDK sends at most one
// heartbeat per 0.8 heartbeat timeouts).
const StepHeartbeat = 3 * time.Second

// keepAlive heartbeats every interval until the returned stop func is
// called. Outside an activity it does nothing.
func keepAlive(ctx context.Context, interval time.Duration) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

func (a *Activities) step(ctx context.Context, d device.Device, attempt int, in StepInput) (StepResult, error) {
	var res StepResult
	// A phone that timed out to its lock screen is unlocked before the
	// action lands; one that cannot be gets the person asked, with
	// nothing sent and no model called (docs/design.md §15).
	if q, err := a.unlock(ctx, d); err != nil || q != "" {
		return StepResult{Locked: q}, err
	}
	prevAction, prevResult := in.PreviousAction, in.PreviousResult
	var commit commitTap // a tap on a commit control, for the todo's log
	if in.Act != nil {
		var ar ActResult
		// A commit aimed at a target the todo does not name (docs/design.md
		// §9), then one whose effect is already on the phone (§9): a
		// refused commit never reaches the phone or the journal.
		cc, err := a.wrongTarget(ctx, in)
		if err != nil {
			return StepResult{}, err
		}
		var refusal *ActResult
		if cc.Refused == "" {
			if refusal, commit, err = a.commitCheck(ctx, d, in); err != nil {
				return StepResult{}, err
			}
		}
		switch {
		case cc.Refused != "":
			// The executor is told why, and the workflow asks the person
			// when it tries again.
			ar = ActResult{Result: ActRefused + ": " + cc.Refused, Refused: cc.Refused}
		case refusal != nil:
			ar = *refusal
			if why, ok := strings.CutPrefix(ar.Result, ActRefused+": "); ok {
				ar.Refused = why
			}
		case in.ActionID != "" && a.Journal != nil && in.Act.TouchesDevice():
			// The journal keeps a veto as the action's result, so a retry
			// returns it without asking again (docs/design.md §10).
			ar, err = a.actOnce(ctx, d, in)
		default:
			if v := a.vetoed(ctx, in); v != nil {
				ar = *v
				break
			}
			ar, err = a.act(ctx, d, attempt, *in.Act, in.ScreenHash, in.Width, in.Height)
		}
		if err != nil {
			return StepResult{}, err
		}
		if ar.Refused == "" && ar.Vetoed == "" && (ar.Result == "ok" || ar.Result == ActAlreadyApplied) {
			ar.Committed, ar.Commit = cc.Commit, commit.Key
		}
		res.Act = &ar
		prevAction, prevResult = autoglm.FormatAction(*in.Act), ar.Result
	}
	s, err := a.observe(ctx, d, in.UITree)
	if err != nil {
		return StepResult{}, err
	}
	if res.Act != nil && res.Act.Commit != "" && metSystemWindow(commit.App, s.elems) {
		// A system window took the focus around the commit tap: the todo
		// remembers what the screen showed, so a tap again on the same
		// content is refused only if the first one left a trace.
		res.Act.Commit = commit.Key + unconfirmedMark + commit.Shown
	}
	res.Screen = s.obs
	if !in.Think {
		return res, nil
	}
	var miss string
	if in.Replay != nil {
		rin := in
		rin.PreviousAction, rin.PreviousResult = prevAction, prevResult
		th, why, err := a.replay(ctx, rin, s)
		if err != nil {
			return res, err
		}
		if why == "" {
			res.Think = &th
			return res, nil
		}
		miss = why
	}
	th, err := a.think(ctx, ThinkInput{
		Task: in.Task, TaskType: in.TaskType, Screen: s.obs,
		PreviousAction: prevAction, PreviousResult: prevResult,
		Notes: in.Notes, HistoryRef: in.HistoryRef, Guidance: in.Guidance,
	}, s)
	if err != nil {
		return res, err // what was applied and seen, for handBackOutage
	}
	th.ReplayMiss = miss
	res.Think = &th
	return res, nil
}
