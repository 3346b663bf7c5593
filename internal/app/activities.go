package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/memory"
	"github.com/phoneflow/phoneflow/internal/promptmem"
	"github.com/phoneflow/phoneflow/workflows"
)

// Deps are optional replacements for what NewActivities and RunWorker
// would build from the configuration; the zero value builds everything.
type Deps struct {
	// Logger receives the worker's structured logs; nil means slog.Default().
	Logger *slog.Logger
	// ADB is the client of the ADB server; nil means one for adb.address.
	ADB *adb.Client
	// Devices is the phone pool activities use; nil means a device.Pool on
	// ADB honouring adb.allow and the settle policy.
	Devices activities.DevicePool
	// Planner and Executor replace the model clients built from
	// planner.* and executor.*.
	Planner, Executor activities.Model
	// Activities replaces the whole struct (NewActivities is not called).
	Activities *activities.Activities
	// Hooks are told every event of the worker's goals and Gates asked
	// before every device action, besides the hooks.url webhook
	// (docs/design.md §10).
	Hooks []hooks.Hook
	Gates []hooks.Gate
}

func (d Deps) logger() *slog.Logger {
	if d.Logger != nil {
		return d.Logger
	}
	return slog.Default()
}

// ADBClient returns deps.ADB or a client for cfg's ADB server.
func ADBClient(cfg config.Config, deps Deps) *adb.Client {
	if deps.ADB != nil {
		return deps.ADB
	}
	return adb.New(adb.Config{Addr: cfg.ADB.Address})
}

// SettlePolicy converts the configured settle policy.
func SettlePolicy(s config.Settle) device.SettlePolicy {
	p := device.DefaultSettle()
	p.Mode = s.Mode
	p.Interval = s.Interval
	p.Stable = s.Stable
	p.Max = s.Max
	p.Fixed = s.Fixed
	return p
}

// ModelConfig converts one configured model endpoint.
func ModelConfig(m config.Model) llm.Config {
	return llm.Config{
		BaseURL:          m.BaseURL,
		APIKey:           m.APIKey,
		Model:            m.Model,
		Temperature:      m.Temperature,
		TopP:             m.TopP,
		FrequencyPenalty: m.FrequencyPenalty,
		MaxTokens:        m.MaxTokens,
		Timeout:          m.Timeout,
		Stream:           m.Stream,
	}
}

// ExecConfig converts the executor profile, screenshot and UI-tree settings
// into the shape of executor requests (docs/design.md §3). The system
// prompt file is read by SystemPrompt, not here.
func ExecConfig(cfg config.Config) autoglm.Config {
	c := autoglm.DefaultConfig()
	c.MaxPixels = cfg.ScreenshotMaxPixels()
	if c.MaxPixels == config.FullSize {
		c.MaxPixels = autoglm.FullSize
	}
	c.Format = cfg.ScreenshotFormat()
	c.JPEGQuality = cfg.Screenshot.Quality
	c.IncludeElements = cfg.Limits.UITree && cfg.Executor.SendsUIElements()
	c.Protocol = cfg.Executor.EffectiveProtocol()
	c.Lang = cfg.Executor.EffectiveLang()
	c.HistoryTokens = cfg.Executor.HistoryTokens
	c.Coordinates = cfg.Executor.EffectiveCoordinates()
	c.PromptAdvice = cfg.Executor.PromptAdvice
	return c
}

// SystemPrompt reads executor.system_prompt_file, or returns "" when none
// is set. The text is sent byte for byte, its final newline and spacing
// kept: a vendor's published prompt is the model's conditioning.
func SystemPrompt(cfg config.Config) (string, error) {
	path := cfg.Executor.SystemPromptFile
	if path == "" {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("executor.system_prompt_file: %w: point it at a readable text file, or leave it empty for phoneflow's own prompt", err)
	}
	text := string(data)
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("executor.system_prompt_file %s is empty: put the prompt text in it, or leave the key empty for phoneflow's own prompt", path)
	}
	return text, nil
}

// PlannerPrompt reads planner.system_prompt_file, or returns "" when none
// is set: like the executor's file, its text goes out byte for byte.
func PlannerPrompt(cfg config.Config) (string, error) {
	path := cfg.Planner.SystemPromptFile
	if path == "" {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("planner.system_prompt_file: %w: point it at a readable text file, or leave it empty for phoneflow's own planner instructions", err)
	}
	text := string(data)
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("planner.system_prompt_file %s is empty: put the planner's instructions in it, or leave the key empty for phoneflow's own", path)
	}
	return text, nil
}

// VerifierModel builds the client of the model that answers verification
// requests (verifier.use), or nil when no model verifies. An AutoGLM
// executor is never it (config validation refuses that). textOnly is set
// when it gets the element list without the screenshot (the planner).
func VerifierModel(cfg config.Config, planner, executor activities.Model) (m activities.Model, textOnly bool, err error) {
	switch cfg.EffectiveVerifier() {
	case config.VerifyByExecutor:
		return executor, false, nil
	case config.VerifyByPlanner:
		return planner, true, nil
	case config.VerifyByNone:
		return nil, false, nil
	}
	mc, _ := cfg.VerifierModel()
	vc := ModelConfig(mc)
	vc.KeySetting = "verifier.api_key (or planner.api_key when verifier.base_url is the planner's)"
	if err := vc.Validate(); err != nil {
		return nil, false, fmt.Errorf("verifier model: %w", err)
	}
	return llm.New(vc), false, nil
}

// NewActivities builds the Activities struct from cfg: the device pool on
// the ADB server, the planner and executor clients, the blob store under
// <data_dir>/blobs and prompt memory at prompt_memory_path. Model and
// device calls are metered.
func NewActivities(ctx context.Context, cfg config.Config, deps Deps) (*activities.Activities, error) {
	if deps.Activities != nil {
		return deps.Activities, nil
	}
	// Nothing here talks to the network but a routine bucket; phones and
	// models are reached lazily.
	pool := deps.Devices
	if pool == nil {
		pool = device.NewPool(ADBClient(cfg, deps), device.PoolOptions{
			Allow:  cfg.ADB.Allow,
			Settle: SettlePolicy(cfg.Settle),
			Device: device.Options{Logger: deps.logger()},
		})
	}
	planner, executor := deps.Planner, deps.Executor
	if planner == nil {
		pc := ModelConfig(cfg.Planner.Endpoint)
		pc.KeySetting = "planner.api_key (PLANNER_MODEL_API_KEY)"
		if err := pc.Validate(); err != nil {
			return nil, fmt.Errorf("planner model: %w", err)
		}
		planner = llm.New(pc)
	}
	if executor == nil {
		ec := ModelConfig(cfg.Executor.Endpoint)
		ec.KeySetting = "executor.api_key (MODEL_API_KEY)"
		if err := ec.Validate(); err != nil {
			return nil, fmt.Errorf("executor model: %w", err)
		}
		executor = llm.New(ec)
	}
	exec := ExecConfig(cfg)
	if err := exec.Validate(); err != nil {
		return nil, fmt.Errorf("screenshot settings: %w", err)
	}
	var err error
	if exec.SystemPrompt, err = SystemPrompt(cfg); err != nil {
		return nil, err
	}
	plannerPrompt, err := PlannerPrompt(cfg)
	if err != nil {
		return nil, err
	}
	verifier, verifierText, err := VerifierModel(cfg, planner, executor)
	if err != nil {
		return nil, err
	}
	var verifyModel activities.Model
	if verifier != nil {
		role := "executor"
		if cfg.EffectiveVerifier() != config.VerifyByExecutor {
			role = "verifier"
		}
		verifyModel = meteredModel{role: role, step: "verify", m: verifier}
	}
	blobs, err := blob.NewFS(filepath.Join(cfg.DataDir, "blobs"))
	if err != nil {
		return nil, fmt.Errorf("blob store under data_dir %s: %w", cfg.DataDir, err)
	}
	prompts, err := promptmem.Open(cfg.PromptMemoryPath)
	if err != nil {
		return nil, fmt.Errorf("prompt_memory_path %s: %w", cfg.PromptMemoryPath, err)
	}
	journal, err := activities.OpenJournal(filepath.Join(cfg.DataDir, "actions"))
	if err != nil {
		return nil, fmt.Errorf("action journal under data_dir %s: %w", cfg.DataDir, err)
	}
	routines, err := OpenRoutines(ctx, cfg, deps.logger())
	if err != nil {
		return nil, err
	}
	var mem *memory.Store
	if cfg.Memory.Enabled {
		dir := cfg.Memory.Path
		if dir == "" {
			dir = filepath.Join(cfg.DataDir, "memory")
		}
		if mem, err = memory.Open(dir); err != nil {
			return nil, fmt.Errorf("memory.path: %w", err)
		}
	}
	fault, err := faultHook(deps.logger(), config.FaultExitAfterAction, "between an action and its journal record")
	if err != nil {
		return nil, err
	}
	faultBefore, err := faultHook(deps.logger(), config.FaultExitBeforeSend, "between an action's intent and its input")
	if err != nil {
		return nil, err
	}
	return &activities.Activities{
		Devices:       meteredPool{pool},
		Planner:       meteredModel{role: "planner", step: "plan", m: planner},
		PlannerPrompt: plannerPrompt,
		Executor:      meteredModel{role: "executor", step: "think", m: executor},
		Verifier:      verifyModel,
		// Only a model that can answer the verifier's contract verifies
		// (docs/design.md §9); without one, Verify calls no model.
		VerifierText:    verifierText,
		VerifierOff:     verifier == nil,
		Blobs:           blobs,
		Prompts:         prompts,
		PromptPolicy:    promptmem.Policy{FailureStreak: cfg.PromptRewrite.Failures, Every: cfg.PromptRewrite.Every, TrialRuns: cfg.PromptRewrite.TrialRuns},
		Exec:            exec,
		Notifier:        NewNotifier(cfg),
		Journal:         journal,
		Fault:           fault,
		FaultBeforeSend: faultBefore,
		Routines:        routines,
		Unlock:          &activities.Unlocker{PIN: cfg.ADB.UnlockPIN},
		Hooks:           NewHooks(cfg, deps),
		Memory:          mem,
		MemoryUser:      cfg.Memory.User,
		TakeOver:        TypedStore(cfg),
		Sealed:          SealedStore(cfg),
	}, nil
}

// NewHooks is the worker's hook set (docs/design.md §10): deps' Go hooks
// and gates, and the hooks.url webhook of cfg (a gate too with
// hooks.block), bounded by hooks.timeout, a silent gate taking
// hooks.default. Nil when there are none.
func NewHooks(cfg config.Config, deps Deps) *hooks.Set {
	s := &hooks.Set{Hooks: slices.Clone(deps.Hooks), Gates: slices.Clone(deps.Gates), Timeout: cfg.Hooks.Timeout,
		DenyByDefault: cfg.Hooks.Default == config.HookDeny, Logger: deps.logger()}
	if cfg.Hooks.URL != "" {
		w := &hooks.Webhook{URL: cfg.Hooks.URL, Token: cfg.Hooks.Token}
		var kinds []hooks.Kind
		for _, e := range cfg.Hooks.Events {
			kinds = append(kinds, hooks.Kind(e)) // config validated the names
		}
		if cfg.Hooks.Block {
			// A blocking webhook hears before_action once, as the gate.
			s.Gates = append(s.Gates, w)
			if len(kinds) == 0 {
				kinds = hooks.Kinds
			}
			kinds = slices.DeleteFunc(slices.Clone(kinds), func(k hooks.Kind) bool { return k == hooks.BeforeAction })
		}
		s.Hooks = append(s.Hooks, hooks.Only(w, kinds...))
	}
	if !s.Active() {
		return nil
	}
	return s
}

// faultHook is one of the crash drills' faults (config.FaultExitAfterActionEnv,
// config.FaultExitBeforeSendEnv): SIGKILL this process at its point of the
// Nth device action. Nil when unset.
func faultHook(log *slog.Logger, count func(func(string) (string, bool)) (int, error), where string) (activities.ActionFault, error) {
	n, err := count(nil)
	if err != nil || n == 0 {
		return nil, err
	}
	var seen atomic.Int64
	return func(serial, id string) {
		if seen.Add(1) == int64(n) {
			log.Warn("fault hook: killing the worker "+where, "serial", serial, "action_id", id, "action", n)
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // SIGKILL cannot be caught; wait for it
		}
	}, nil
}

// NewNotifier is the notify.url webhook of cfg (docs/design.md §7); nil
// when no URL is set. Its links point at the Web UI of notify.ui_url (or
// the embedded one) and at the step viewer this worker serves, if any.
func NewNotifier(cfg config.Config) *activities.Notifier {
	if cfg.Notify.URL == "" {
		return nil
	}
	ui := strings.TrimRight(cfg.Notify.UIURL, "/")
	if ui == "" && cfg.Embedded() {
		ui = fmt.Sprintf("http://127.0.0.1:%d", cfg.Temporal.Embedded.UIPort)
	}
	n := &activities.Notifier{URL: cfg.Notify.URL, Viewer: func(id string) string {
		if workflows.ViewerLink == nil {
			return ""
		}
		return workflows.ViewerLink(id)
	}}
	if ui != "" {
		ns := cfg.Temporal.Namespace
		n.WebUI = func(id string) string {
			return ui + "/namespaces/" + url.PathEscape(ns) + "/workflows/" + url.PathEscape(id)
		}
	}
	return n
}
