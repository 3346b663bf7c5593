package config

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

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
		Planner: Planner{Endpoint: Model{
			BaseURL:     DefaultModelBaseURL,
			Model:       DefaultPlannerModel,
			Temperature: 0,
			TopP:        1,
			MaxTokens:   2000,
			Timeout:     2 * time.Minute,
		}},
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
		Sim: Sim{Costs: "none", Skin: "pixel"},
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
			ReviewEvery:                8,
			DeviceWaitDeadline:         2 * time.Minute,
			DeviceWait:                 "wait",
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
		Viewer:        Viewer{ShowReasoning: true},
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
		why := "names none of autoglm, ui-tars, gui-owl, mai-ui, ui-venus or qwen…vl"
		switch c.Executor.Protocol {
		case ProtocolAutoGLM:
			why = "contains autoglm"
		case ProtocolUITARS:
			why = "contains ui-tars"
		case ProtocolMobileUse:
			why = "names a mobile_use model (gui-owl, mai-ui, ui-venus or qwen…vl)"
		}
		set["executor.protocol"] = "default for executor.model " + model + ": its name " + why + " (case, - _ . / and spaces ignored)"
	}
	if c.Executor.Coordinates == "" {
		if c.Executor.Coordinates = c.Executor.EffectiveCoordinates(); c.Executor.Coordinates != "" {
			set["executor.coordinates"] = "default for executor.protocol " + c.Executor.Protocol + " and executor.model " + model
		}
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
		case ownGrammar(c.Executor.Protocol):
			set["verifier.use"] = profile + ": the executor answers only in its own action grammar, so the planner verifies"
		default:
			set["verifier.use"] = profile
		}
	}
	return set
}
