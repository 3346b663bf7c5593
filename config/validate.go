package config

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/bounds"
	"github.com/phoneflow/phoneflow/internal/codec"

	"github.com/phoneflow/phoneflow/internal/waits"

	"github.com/phoneflow/phoneflow/internal/device"
)

// FieldError is an invalid value: the key, the value as given (masked for
// secrets), what is allowed, and where the value came from when known.
type FieldError struct {
	Key     string
	Value   string // already quoted or masked for display
	Allowed string
	Source  string // "" when unknown
}

func (e *FieldError) Error() string {
	s := fmt.Sprintf("%s: %s is not allowed: %s", e.Key, e.Value, e.Allowed)
	if e.Source != "" && e.Source != "default" {
		s += " (from " + e.Source + ")"
	}
	return s
}

// Validate checks every value and returns all problems at once, each naming
// the key, the value and what is allowed.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, allowed string) {
		shown := "****"
		if !IsSecret(key) {
			shown = formatValue(c.Get(key))
		}
		errs = append(errs, &FieldError{Key: key, Value: shown, Allowed: allowed})
	}
	hostPort := func(key, v string, emptyOK bool) {
		if v == "" && emptyOK {
			return
		}
		if !validHostPort(v) {
			if emptyOK {
				bad(key, "host:port with a port 1–65535, or empty")
			} else {
				bad(key, "host:port with a port 1–65535")
			}
		}
	}
	port := func(key string, v int, zeroOK bool) {
		if (v == 0 && zeroOK) || (v >= 1 && v <= 65535) {
			return
		}
		if zeroOK {
			bad(key, "a port 1–65535, or 0 for the default")
		} else {
			bad(key, "a port 1–65535")
		}
	}
	positive := func(key string, v int) {
		if v < 1 {
			bad(key, "an integer of at least 1")
		}
	}
	httpURL := func(key, v string) {
		if v != "" && !validHTTPURL(v) {
			bad(key, "an http:// or https:// URL, or empty")
		}
	}
	positiveDur := func(key string, v time.Duration) {
		if v <= 0 {
			bad(key, `a duration above zero, like "500ms" or "30s"`)
		}
	}

	t := c.Temporal
	hostPort("temporal.address", t.Address, true)
	if strings.TrimSpace(t.Namespace) == "" {
		bad("temporal.namespace", "a non-empty namespace name")
	}
	if (t.TLS.CertFile == "") != (t.TLS.KeyFile == "") {
		if t.TLS.CertFile == "" {
			bad("temporal.tls.cert_file", "a client certificate file whenever temporal.tls.key_file is set")
		} else {
			bad("temporal.tls.key_file", "the certificate's key file whenever temporal.tls.cert_file is set")
		}
	}
	port("temporal.embedded.port", t.Embedded.Port, false)
	if t.Embedded.UIPort > 65535 && t.Embedded.UIPort == t.Embedded.Port+1000 {
		bad("temporal.embedded.ui_port", "a port 1–65535; it defaults to temporal.embedded.port + 1000, "+
			"so set it (--temporal-ui-port) when the port is above 64535")
	} else {
		port("temporal.embedded.ui_port", t.Embedded.UIPort, true)
	}
	if t.Embedded.UIPort != 0 && t.Embedded.UIPort == t.Embedded.Port {
		bad("temporal.embedded.ui_port", "a port different from temporal.embedded.port")
	}
	if e := t.Embedded.CodecEndpoint; e != "" && !validHTTPURL(e) {
		bad("temporal.embedded.codec_endpoint", "an http:// or https:// URL, or empty")
	}

	for _, m := range []struct {
		name string
		m    Model
	}{{"planner", c.Planner.Endpoint}, {"executor", c.Executor.Endpoint}} {
		p := m.name + "."
		if !validHTTPURL(m.m.BaseURL) {
			bad(p+"base_url", "an http:// or https:// URL such as "+DefaultModelBaseURL)
		}
		if strings.TrimSpace(m.m.Model) == "" {
			bad(p+"model", "a non-empty model name")
		}
		if m.m.Temperature < 0 || m.m.Temperature > 2 {
			bad(p+"temperature", "a number from 0 to 2")
		}
		if m.m.TopP <= 0 || m.m.TopP > 1 {
			bad(p+"top_p", "a number above 0 and at most 1")
		}
		if m.m.Price.Input < 0 {
			bad(p+"price.input", "a price of 0 or more per million tokens")
		}
		if m.m.Price.Cached < 0 {
			bad(p+"price.cached", "a price of 0 or more per million tokens")
		}
		if m.m.Price.Output < 0 {
			bad(p+"price.output", "a price of 0 or more per million tokens")
		}
		if m.m.FrequencyPenalty < -2 || m.m.FrequencyPenalty > 2 {
			bad(p+"frequency_penalty", "a number from -2 to 2")
		}
		positive(p+"max_tokens", m.m.MaxTokens)
		positiveDur(p+"timeout", m.m.Timeout)
	}
	// A model call longer than the activity that makes it is cut by the
	// activity's timeout, which is not an outage the workflow waits out.
	maxPlanner, maxExecutor := bounds.ModelTimeoutMax()
	if c.Planner.Timeout > maxPlanner {
		bad("planner.timeout", fmt.Sprintf("at most %s: the correction activity makes %d planner calls within %s",
			maxPlanner, bounds.CorrectCalls, bounds.Correct))
	}
	if c.Executor.Timeout > maxExecutor {
		bad("executor.timeout", fmt.Sprintf("at most %s: a step makes one executor call and works the phone within %s, and verification makes %d calls within %s",
			maxExecutor, bounds.Step, bounds.VerifyCalls, bounds.Verify))
	}

	if p := c.Executor.Protocol; p != "" && !slices.Contains(Protocols(), p) {
		bad("executor.protocol", `autoglm (AutoGLM-Phone), phoneflow (general vision models), uitars (UI-TARS), mobile_use (Qwen-VL mobile_use: GUI-Owl, MAI-UI, UI-Venus), tools (native function calls), or empty for the default by model name`)
	}
	if k := c.Executor.Coordinates; k != "" && k != CoordsPixels && k != CoordsRelative {
		bad("executor.coordinates", "pixels (absolute pixels of the resized image: UI-TARS-1.5, Qwen2.5-VL), relative (a grid over the screen: UI-TARS v1, Qwen3-VL), or empty for the default by model name")
	}

	if l := c.Executor.Lang; l != "" && l != "zh" && l != "en" {
		bad("executor.lang", "zh (the Chinese prompt, for AutoGLM-Phone-9B), en (for the multilingual model and general models), or empty for the profile's default")
	}
	if u := c.Executor.UIElements; u != "" && u != "true" && u != "false" {
		bad("executor.ui_elements", "true, false, or empty for the profile's default (false for autoglm, true for phoneflow)")
	}
	if c.Executor.HistoryTokens < 100 {
		bad("executor.history_tokens", "an estimated token budget of at least 100 for the earlier turns of a request")
	}
	switch v := c.Verifier.Use; v {
	case "", VerifyByPlanner, VerifyByNone:
	case VerifyByExecutor:
		if ownGrammar(c.Executor.EffectiveProtocol()) {
			bad("verifier.use", "planner, endpoint or none: an executor of protocol "+c.Executor.EffectiveProtocol()+" answers only in its own action grammar and cannot give the verifier's JSON verdict")
		}
	case VerifyByEndpoint:
		if c.Verifier.Model == "" {
			errs = append(errs, &FieldError{Key: "verifier.model", Value: `""`, Allowed: "the verifier model's name when verifier.use is endpoint"})
		}
	default:
		bad("verifier.use", "executor, planner, endpoint, none, or empty for the default (planner for an AutoGLM executor, else executor)")
	}
	if c.Verifier.BaseURL != "" {
		if u, err := url.Parse(c.Verifier.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("verifier.base_url", "an http(s) URL of an OpenAI-compatible API root, or empty for the planner's")
		}
	}

	hostPort("adb.address", c.ADB.Address, false)
	for _, s := range c.ADB.Allow {
		if strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\n") {
			bad("adb.allow", "device serials as `adb devices` prints them (no spaces)")
			break
		}
	}
	if _, err := c.ADB.labels(); err != nil {
		bad("adb.labels", err.Error())
	}
	for _, a := range c.ADB.Connect {
		if !validHostPort(a) {
			bad("adb.connect", "a list of host:port addresses of network phones")
			break
		}
	}

	switch c.Settle.Mode {
	case SettleWait, SettleFixed, SettleNone:
	default:
		bad("settle.mode", "one of settle, fixed, none")
	}
	positiveDur("settle.interval", c.Settle.Interval)
	positive("settle.stable", c.Settle.Stable)
	positiveDur("settle.max", c.Settle.Max)
	if c.Settle.Fixed < 0 {
		bad("settle.fixed", `a duration of zero or more, like "1s"`)
	}

	if m := c.Screenshot.MaxPixels; m < FullSize || (m > 0 && m < 10_000) {
		bad("screenshot.max_pixels", "-1 (never downscale), 0 (the profile's default) or a pixel count of at least 10000")
	}
	switch c.Screenshot.Format {
	case "", "jpeg", "png":
	default:
		bad("screenshot.format", "jpeg, png, or empty for the profile's default (png for autoglm, jpeg for phoneflow)")
	}
	if c.Screenshot.Quality < 1 || c.Screenshot.Quality > 100 {
		bad("screenshot.quality", "an integer from 1 to 100")
	}

	l := c.Limits
	switch l.Mode {
	case ModeLayered, ModeSingle:
	default:
		bad("limits.mode", "layered (planner and executor) or single (the executor alone); DUAL_LOOP_MODE takes 1/true or 0/false")
	}
	positive("limits.max_steps", l.MaxSteps)
	positive("limits.todo_max_steps", l.TodoMaxSteps)
	positive("limits.max_goal_text", l.MaxGoalText)
	if l.ReviewEvery < 0 {
		bad("limits.review_every", "a whole number of executor turns, like 8, or 0 to turn the planner's review off")
	}
	positiveDur("limits.device_wait_deadline", l.DeviceWaitDeadline)
	if l.DeviceWait != "wait" && l.DeviceWait != "fail" {
		if d, err := time.ParseDuration(l.DeviceWait); err != nil || d <= 0 {
			bad("limits.device_wait", `wait (queue for a busy phone), fail (fail at once) or a duration above zero, like "10m" (queue at most that long)`)
		}
	}
	positiveDur("limits.model_outage_wait", l.ModelOutageWait)
	positiveDur("limits.answer_deadline", l.AnswerDeadline)
	positiveDur("limits.durable_wait_after", l.DurableWaitAfter)
	if l.ReleasePhoneAfter <= 0 {
		bad("limits.release_phone_after", `a duration above zero, like "5m" (to keep the phone while waiting, set limits.release_phone_during_waits: false)`)
	}
	positiveDur("limits.blocked_holder_after", l.BlockedHolderAfter)
	positiveDur("limits.lease_check_interval", l.LeaseCheckInterval)
	if _, err := waits.Zone(l.TimeZone); err != nil {
		bad("limits.time_zone", "an IANA time zone such as Asia/Shanghai, an offset such as +08:00, or empty for this machine's zone")
	}
	positive("limits.failure_threshold", l.FailureThreshold)
	positive("limits.stuck_threshold", l.StuckThreshold)
	if l.MaxStuckRetries < 0 {
		bad("limits.max_stuck_retries", "an integer of 0 or more")
	}
	if l.MaxExecutorFeedbackHistory < 0 {
		bad("limits.max_executor_feedback_history", "an integer of 0 or more")
	}

	if strings.TrimSpace(c.DataDir) == "" {
		bad("data_dir", "a directory path")
	}
	if strings.TrimSpace(c.PromptMemoryPath) == "" {
		bad("prompt_memory_path", "a file path")
	}
	if c.RoutinesStore != "" && !validRoutinesStore(c.RoutinesStore) {
		bad("routines_store", "empty (the host's <data_dir>/routines), file:///absolute/dir, s3://bucket?region=… or gs://bucket")
	}
	if c.PromptRewrite.Failures < 1 {
		bad("prompt_rewrite.failures", "an integer of 1 or more (failed runs in a row before the guidance is rewritten)")
	}
	if c.PromptRewrite.Every < 1 {
		bad("prompt_rewrite.every", "an integer of 1 or more (runs of one guidance version before it is rewritten)")
	}
	if c.PromptRewrite.TrialRuns < 1 {
		bad("prompt_rewrite.trial_runs", "an integer of 1 or more (runs a rewritten guidance is tried before it is kept or rolled back)")
	}
	if c.Blobs.Retention < 0 {
		bad("blobs.retention", `a duration of 0 (the namespace's retention) or more, like "168h"`)
	}
	if c.Blobs.GCInterval < 0 {
		bad("blobs.gc_interval", `a duration of 0 (no collection) or more, like "1h"`)
	}
	if c.Encryption.Keys != "" {
		// codec owns the key format; its errors never contain key material.
		if _, err := codec.ParseKeys(c.Encryption.Keys); err != nil {
			bad("encryption.keys", strings.TrimPrefix(err.Error(), "codec: "))
		}
	}
	hostPort("encryption.codec_address", c.Encryption.CodecAddress, true)
	if c.Encryption.CodecAddress != "" && c.Encryption.Keys == "" {
		bad("encryption.codec_address", "empty unless encryption.keys is set (the endpoint decodes with those keys)")
	}
	hostPort("metrics.address", c.Metrics.Address, true)
	if e := c.Telemetry.OTLPEndpoint; e != "" && !validHostPort(e) && !(validHTTPURL(e) && validHostPort(urlHost(e))) {
		bad("telemetry.otlp_endpoint", "the OTLP/gRPC collector as host:port (like 127.0.0.1:4317), http://host:port or https://host:port; empty = no tracing")
	}
	httpURL("notify.url", c.Notify.URL)
	httpURL("notify.ui_url", c.Notify.UIURL)
	httpURL("hooks.url", c.Hooks.URL)
	if c.Hooks.Timeout <= 0 {
		bad("hooks.timeout", `a duration above 0, like "5s": the longest a hook may take`)
	}
	if c.Hooks.Default != HookAllow && c.Hooks.Default != HookDeny {
		bad("hooks.default", `"allow" or "deny": what a blocking hook that fails or does not answer in time decides`)
	}
	if c.Hooks.Block && c.Hooks.URL == "" {
		bad("hooks.block", "false unless hooks.url is set (the webhook is what blocks)")
	}
	for _, e := range c.Hooks.Events {
		if !slices.Contains(HookEvents, e) {
			bad("hooks.events", fmt.Sprintf("%q is no event: use some of %s; empty = all", e, strings.Join(HookEvents, ", ")))
		}
	}

	for _, k := range []struct {
		key string
		d   time.Duration
	}{{"sim.messages", c.Sim.Messages}, {"sim.dialogs", c.Sim.Dialogs}, {"sim.screen_timeout", c.Sim.ScreenTimeout}} {
		if k.d < 0 {
			bad(k.key, `a duration of 0 (off) or more, like "45s"`)
		}
	}
	if c.ADB.UnlockPIN != "" && !device.ValidPIN(c.ADB.UnlockPIN) {
		bad("adb.unlock_pin", "4 to 16 letters or digits (what `adb shell input text` can type on a lock screen); empty = a PIN lock asks a person")
	}
	if c.Sim.PIN != "" && !device.ValidPIN(c.Sim.PIN) || strings.Trim(c.Sim.PIN, "0123456789") != "" {
		bad("sim.pin", "4 to 16 digits; empty = a keyguard a swipe up dismisses")
	}
	if err := SimScreenError(c.Sim.Width, c.Sim.Height, c.Sim.Density); err != "" {
		bad("sim.width, sim.height and sim.density", err)
	}
	if c.Sim.Costs != "" && c.Sim.Costs != "none" && c.Sim.Costs != "phone" {
		bad("sim.costs", "none (every command answers at once) or phone (a real phone's latencies and uiautomator's idle-state failures)")
	}
	switch c.Sim.Skin {
	case "", "classic", "pixel", "miui", "oneui":
	default:
		bad("sim.skin", "classic (the simulator's flat Settings page), pixel (Settings and Quick Settings as on a Pixel), miui (as on a Xiaomi phone's MIUI, in Chinese) or oneui (as on a Samsung phone's One UI)")
	}
	if c.Sim.Seed < 0 {
		bad("sim.seed", "0 or a positive integer")
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "one of debug, info, warn, error")
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		bad("log.format", "text or json")
	}
	return errors.Join(errs...)
}

func validHostPort(s string) bool {
	host, p, err := net.SplitHostPort(s)
	if err != nil || strings.ContainsAny(host, " /") {
		return false
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

func validHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// urlHost is the host:port of an http(s) URL, or "".
func urlHost(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Host
}

// SimScreenError says what is wrong with a simulated screen's size and
// density ("" when nothing is; 0 takes the default). The simulator lays
// its apps out in 420-dpi units and needs at least 1000×2000 of them:
// width×420/density and height×420/density.
func SimScreenError(width, height, density int) string {
	if width < 0 || height < 0 || density < 0 {
		return "0 (the default: 1080, 2400, 420) or more"
	}
	if density != 0 && (density < 120 || density > 640) {
		return "a density from 120 to 640 dpi, like 320 or 420"
	}
	w, h, d := cmp.Or(width, 1080), cmp.Or(height, 2400), cmp.Or(density, 420)
	if lw, lh := w*420/d, h*420/d; lw < 900 || lh < 1800 {
		return fmt.Sprintf("a screen the apps fit: %dx%d at %d dpi is %dx%d at 420 dpi, under 900x1800; use a larger size or a lower density (like 720x1600 at 320)", w, h, d, lw, lh)
	}
	return ""
}

// validRoutinesStore says whether a routine store URL has a scheme the
// store opens (docs/design.md §8): file with an absolute path, s3 or gs
// with a bucket name.
func validRoutinesStore(v string) bool {
	u, err := url.Parse(v)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "file":
		return u.Host == "" && strings.HasPrefix(u.Path, "/")
	case "s3", "gs":
		return u.Host != ""
	}
	return false
}
