package config

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func envMap(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "phoneflow.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func load(t *testing.T, file string, env map[string]string, args ...string) (Config, Sources, error) {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return Load(LoadOptions{Flags: fs, File: file, Env: envMap(env), SearchDirs: []string{}})
}

func TestDefaults(t *testing.T) {
	c, src, err := load(t, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Temporal.Namespace != "default" || c.Temporal.Embedded.Port != 7233 || c.Temporal.Embedded.UIPort != 8233 {
		t.Errorf("temporal defaults: %+v", c.Temporal)
	}
	if !c.Embedded() {
		t.Error("no address should mean the embedded server")
	}
	if c.Executor.TopP != 0.85 || c.Executor.FrequencyPenalty != 0.2 || c.Executor.MaxTokens != 3000 || !c.Executor.Stream {
		t.Errorf("executor reference defaults: %+v", c.Executor)
	}
	if c.Planner.BaseURL != "http://127.0.0.1:8090/v1" || c.Planner.Model != "offline-planner" || c.Executor.Model != "offline-executor" {
		t.Errorf("model defaults: %+v %+v", c.Planner, c.Executor)
	}
	if c.Limits.MaxSteps != 100 || c.Limits.TodoMaxSteps != 30 || c.Limits.MaxExecutorFeedbackHistory != 2 || !c.Limits.UITree || c.Limits.AutoApprove {
		t.Errorf("limits: %+v", c.Limits)
	}
	cwd, _ := os.Getwd()
	if want := filepath.Join(cwd, ".phoneflow"); c.DataDir != want {
		t.Errorf("data dir %q, want %q: made absolute at start", c.DataDir, want)
	}
	if want := filepath.Join(cwd, ".phoneflow", "prompt_memory.json"); c.PromptMemoryPath != want {
		t.Errorf("prompt memory %q, want %q", c.PromptMemoryPath, want)
	}
	if want := filepath.Join(cwd, ".phoneflow", "temporal.db"); c.Temporal.Embedded.DBFile != want {
		t.Errorf("db file %q, want %q", c.Temporal.Embedded.DBFile, want)
	}
	if len(src) != len(Keys()) {
		t.Errorf("sources cover %d keys, want %d", len(src), len(Keys()))
	}
	for k, s := range src {
		want := "default"
		switch k {
		case "executor.protocol":
			want = `default for executor.model "offline-executor": its name names none of autoglm, ui-tars, gui-owl, mai-ui, ui-venus or qwen…vl (case, - _ . / and spaces ignored)`
		case "executor.lang", "executor.ui_elements", "screenshot.format", "screenshot.max_pixels", "verifier.use":
			want = "default for executor.protocol phoneflow"
		}
		if s != want {
			t.Errorf("%s from %s, want %s", k, s, want)
		}
	}
	if c.Executor.Protocol != ProtocolPhoneflow {
		t.Errorf("executor.protocol %q for the offline executor, want %q", c.Executor.Protocol, ProtocolPhoneflow)
	}
}

func TestProtocolDefaultFollowsModelName(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MODEL_NAME": "autoglm-phone-9b"}, ProtocolAutoGLM},
		{map[string]string{"MODEL_NAME": "ZhipuAI/AutoGLM-Phone-9B"}, ProtocolAutoGLM},
		{map[string]string{"MODEL_NAME": "qwen2.5-vl-72b-instruct"}, ProtocolMobileUse},
		{map[string]string{"MODEL_NAME": "qwen2.5-vl-72b-instruct", "PHONEFLOW_EXECUTOR_PROTOCOL": "phoneflow"}, ProtocolPhoneflow},
		{map[string]string{"MODEL_NAME": "ByteDance-Seed/UI-TARS-1.5-7B"}, ProtocolUITARS},
		{map[string]string{"MODEL_NAME": "mPLUG/GUI-Owl-7B"}, ProtocolMobileUse},
		{map[string]string{"MODEL_NAME": "gpt-4o"}, ProtocolPhoneflow},
		{map[string]string{"MODEL_NAME": "autoglm-phone", "PHONEFLOW_EXECUTOR_PROTOCOL": "phoneflow"}, ProtocolPhoneflow},
		{map[string]string{"MODEL_NAME": "gpt-4o", "PHONEFLOW_EXECUTOR_PROTOCOL": "autoglm"}, ProtocolAutoGLM},
	} {
		got, _, err := Load(LoadOptions{Env: envMap(c.env), SearchDirs: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		if got.Executor.Protocol != c.want {
			t.Errorf("%v: protocol %q, want %q", c.env, got.Executor.Protocol, c.want)
		}
	}
	_, _, err := Load(LoadOptions{Env: envMap(map[string]string{"PHONEFLOW_EXECUTOR_PROTOCOL": "glm"}), SearchDirs: []string{}})
	if err == nil || !strings.Contains(err.Error(), "executor.protocol") || !strings.Contains(err.Error(), "autoglm") {
		t.Errorf("bad protocol: %v", err)
	}
}

func TestPrecedence(t *testing.T) {
	file := writeFile(t, `
temporal:
  address: file-host:7233
  namespace: from-file
limits:
  max_steps: 50
  todo_max_steps: 20
adb:
  allow: [emulator-5554, R58M]
settle:
  fixed: 2
`)
	env := map[string]string{
		"PHONEFLOW_TEMPORAL_ADDRESS":  "env-host:7233",
		"PHONEFLOW_LIMITS_MAX_STEPS":  "70",
		"PHONEFLOW_SCREENSHOT_FORMAT": "png",
	}
	c, src, err := load(t, file, env, "--temporal-address", "flag-host:7233", "--allow-device", "a", "--allow-device", "b")
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		key, src  string
		got, want any
	}{
		{"temporal.address", "flag:--temporal-address", c.Temporal.Address, "flag-host:7233"},
		{"temporal.namespace", "file:" + file, c.Temporal.Namespace, "from-file"},
		{"limits.max_steps", "env:PHONEFLOW_LIMITS_MAX_STEPS", c.Limits.MaxSteps, 70},
		{"limits.todo_max_steps", "file:" + file, c.Limits.TodoMaxSteps, 20},
		{"screenshot.format", "env:PHONEFLOW_SCREENSHOT_FORMAT", c.Screenshot.Format, "png"},
		{"adb.allow", "flag:--allow-device", strings.Join(c.ADB.Allow, ","), "a,b"},
		{"settle.fixed", "file:" + file, c.Settle.Fixed, 2 * time.Second},
		{"log.level", "default", c.Log.Level, "info"},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("%s = %v, want %v", ck.key, ck.got, ck.want)
		}
		if src[ck.key] != ck.src {
			t.Errorf("%s source %q, want %q", ck.key, src[ck.key], ck.src)
		}
	}
	if c.Embedded() {
		t.Error("an address means an external cluster")
	}
}

func TestFileListFromEnvAndFile(t *testing.T) {
	file := writeFile(t, "adb:\n  connect:\n    - 10.0.0.5:5555\n")
	c, _, err := load(t, file, map[string]string{"PHONEFLOW_ADB_ALLOW": "x, y ,,z"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.ADB.Connect, ",") != "10.0.0.5:5555" || strings.Join(c.ADB.Allow, ",") != "x,y,z" {
		t.Errorf("lists: connect %q allow %q", c.ADB.Connect, c.ADB.Allow)
	}
}

func TestAliases(t *testing.T) {
	env := map[string]string{
		"PLANNER_MODEL_BASE_URL":        "https://api.deepseek.com/v1",
		"PLANNER_MODEL_API_KEY":         "sk-planner",
		"PLANNER_MODEL_NAME":            "deepseek-chat",
		"MODEL_BASE_URL":                "http://localhost:8000/v1",
		"MODEL_API_KEY":                 "sk-exec",
		"MODEL_NAME":                    "autoglm-phone-9b",
		"MAX_EXECUTOR_FEEDBACK_HISTORY": "4",
		"STUCK_THRESHOLD":               "5",
		"PROMPT_MEMORY_PATH":            "/tmp/pm.json",
	}
	c, src, err := load(t, "", env)
	if err != nil {
		t.Fatal(err)
	}
	if c.Planner.BaseURL != "https://api.deepseek.com/v1" || c.Planner.APIKey != "sk-planner" || c.Planner.Model != "deepseek-chat" {
		t.Errorf("planner: %+v", c.Planner)
	}
	if c.Executor.BaseURL != "http://localhost:8000/v1" || c.Executor.APIKey != "sk-exec" || c.Executor.Model != "autoglm-phone-9b" {
		t.Errorf("executor: %+v", c.Executor)
	}
	if c.Limits.MaxExecutorFeedbackHistory != 4 || c.Limits.StuckThreshold != 5 || c.PromptMemoryPath != "/tmp/pm.json" {
		t.Errorf("limits/prompt memory: %+v %q", c.Limits, c.PromptMemoryPath)
	}
	if src["executor.model"] != "env:MODEL_NAME" || src["prompt_memory_path"] != "env:PROMPT_MEMORY_PATH" {
		t.Errorf("alias sources: %q %q", src["executor.model"], src["prompt_memory_path"])
	}

	// The PHONEFLOW_ name wins over the alias.
	env["PHONEFLOW_EXECUTOR_MODEL"] = "glm-4.6v"
	c, src, err = load(t, "", env)
	if err != nil {
		t.Fatal(err)
	}
	if c.Executor.Model != "glm-4.6v" || src["executor.model"] != "env:PHONEFLOW_EXECUTOR_MODEL" {
		t.Errorf("PHONEFLOW_ over alias: %q from %q", c.Executor.Model, src["executor.model"])
	}
}

func TestDerivedPathsFollowDataDir(t *testing.T) {
	c, _, err := load(t, "", nil, "--data-dir", "/var/lib/pf")
	if err != nil {
		t.Fatal(err)
	}
	if c.PromptMemoryPath != "/var/lib/pf/prompt_memory.json" || c.Temporal.Embedded.DBFile != "/var/lib/pf/temporal.db" {
		t.Errorf("derived paths: %q %q", c.PromptMemoryPath, c.Temporal.Embedded.DBFile)
	}
	c, _, err = load(t, "", nil, "--temporal-port", "17233")
	if err != nil {
		t.Fatal(err)
	}
	if c.Temporal.Embedded.UIPort != 18233 {
		t.Errorf("ui port %d, want 18233", c.Temporal.Embedded.UIPort)
	}
}

func TestTypeErrors(t *testing.T) {
	cases := []struct {
		name string
		file string
		env  map[string]string
		args []string
		want string
	}{
		{"env int", "", map[string]string{"PHONEFLOW_LIMITS_MAX_STEPS": "abc"}, nil,
			`limits.max_steps: "abc" is not an integer (from env:PHONEFLOW_LIMITS_MAX_STEPS)`},
		{"file int", "limits:\n  max_steps: abc\n", nil, nil, `limits.max_steps: "abc" is not an integer (from file:`},
		{"file float as int", "limits:\n  max_steps: 2.5\n", nil, nil, `limits.max_steps: 2.5 is not an integer`},
		{"flag int", "", nil, []string{"--max-steps", "many"}, `limits.max_steps: "many" is not an integer (from flag:--max-steps)`},
		{"bool", "", map[string]string{"PHONEFLOW_LIMITS_AUTO_APPROVE": "perhaps"}, nil,
			`limits.auto_approve: "perhaps" is not a boolean (true or false)`},
		{"duration", "settle:\n  max: soon\n", nil, nil, `settle.max: "soon" is not a duration`},
		{"float", "", map[string]string{"PHONEFLOW_EXECUTOR_TOP_P": "high"}, nil, `executor.top_p: "high" is not a number`},
		{"list", "adb:\n  allow: {a: 1}\n", nil, nil, `adb.allow: a mapping is not a list of strings`},
		{"unknown key", "limits:\n  max_step: 5\n", nil, nil, `limits.max_step: unknown key in`},
		{"unknown key suggestion", "limits:\n  max_step: 5\n", nil, nil, `did you mean limits.max_steps`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := ""
			if tc.file != "" {
				file = writeFile(t, tc.file)
			}
			_, _, err := load(t, file, tc.env, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestValidationMessages(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PHONEFLOW_SETTLE_MODE": "sometimes"}, `settle.mode: "sometimes" is not allowed: one of settle, fixed, none (from env:PHONEFLOW_SETTLE_MODE)`},
		{map[string]string{"PHONEFLOW_SCREENSHOT_FORMAT": "gif"}, `screenshot.format: "gif" is not allowed: jpeg, png, or empty`},
		{map[string]string{"PHONEFLOW_SCREENSHOT_QUALITY": "0"}, `screenshot.quality: 0 is not allowed: an integer from 1 to 100`},
		{map[string]string{"PHONEFLOW_LIMITS_MAX_STEPS": "0"}, `limits.max_steps: 0 is not allowed: an integer of at least 1`},
		{map[string]string{"PHONEFLOW_TEMPORAL_ADDRESS": "localhost"}, `temporal.address: "localhost" is not allowed: host:port`},
		{map[string]string{"MODEL_BASE_URL": "localhost:8000"}, `executor.base_url: "localhost:8000" is not allowed: an http:// or https:// URL`},
		{map[string]string{"PHONEFLOW_EXECUTOR_TOP_P": "1.5"}, `executor.top_p: 1.5 is not allowed`},
		{map[string]string{"PHONEFLOW_LOG_LEVEL": "loud"}, `log.level: "loud" is not allowed: one of debug, info, warn, error`},
		{map[string]string{"PHONEFLOW_TEMPORAL_EMBEDDED_PORT": "70000"}, `temporal.embedded.port: 70000 is not allowed: a port 1–65535`},
		{map[string]string{"PHONEFLOW_TEMPORAL_EMBEDDED_PORT": "65000"}, `temporal.embedded.ui_port: 66000 is not allowed: a port 1–65535; it defaults to temporal.embedded.port + 1000`},
		{map[string]string{"PHONEFLOW_TEMPORAL_TLS_CERT_FILE": "c.pem"}, `temporal.tls.key_file: "" is not allowed`},
		{map[string]string{"PHONEFLOW_ADB_CONNECT": "phone"}, `adb.connect: ["phone"] is not allowed: a list of host:port`},
		{map[string]string{"PHONEFLOW_TELEMETRY_OTLP_ENDPOINT": "collector"}, `telemetry.otlp_endpoint: "collector" is not allowed: the OTLP/gRPC collector as host:port`},
		{map[string]string{"PHONEFLOW_TELEMETRY_OTLP_ENDPOINT": "grpc://collector:4317"}, `telemetry.otlp_endpoint: "grpc://collector:4317" is not allowed`},
		{map[string]string{"PHONEFLOW_LIMITS_DURABLE_WAIT_AFTER": "0s"}, `limits.durable_wait_after: 0s is not allowed: a duration above zero`},
		{map[string]string{"PHONEFLOW_LIMITS_RELEASE_PHONE_AFTER": "-5m"}, `limits.release_phone_after: -5m0s is not allowed: a duration above zero, like "5m" (to keep the phone while waiting, set limits.release_phone_during_waits: false)`},
		{map[string]string{"PHONEFLOW_LIMITS_TIME_ZONE": "Mars/Base"}, `limits.time_zone: "Mars/Base" is not allowed: an IANA time zone such as Asia/Shanghai`},
		{map[string]string{"PHONEFLOW_ROUTINES_STORE": "shared/routines"}, `routines_store: "shared/routines" is not allowed: empty (the host's <data_dir>/routines), file:///absolute/dir`},
		{map[string]string{"PHONEFLOW_ROUTINES_STORE": "file://shared/routines"}, `routines_store: "file://shared/routines" is not allowed`},
		// A model call that cannot fit inside the activity making it.
		{map[string]string{"PHONEFLOW_EXECUTOR_TIMEOUT": "4m"}, `executor.timeout: 4m0s is not allowed: at most 2m30s: a step makes one executor call`},
		{map[string]string{"PHONEFLOW_PLANNER_TIMEOUT": "10m"}, `planner.timeout: 10m0s is not allowed: at most 2m30s: the correction activity makes 2 planner calls`},
	}
	for _, ok := range []map[string]string{{"PHONEFLOW_EXECUTOR_TIMEOUT": "2m30s"}, {"PHONEFLOW_PLANNER_TIMEOUT": "2m30s"}} {
		if _, _, err := load(t, "", ok); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	for _, ok := range []string{"file:///shared/routines", "s3://routines?region=eu-west-1", "gs://fleet-routines"} {
		if _, _, err := load(t, "", map[string]string{"PHONEFLOW_ROUTINES_STORE": ok}); err != nil {
			t.Errorf("routines_store %q: %v", ok, err)
		}
	}
	for _, ok := range []string{"127.0.0.1:4317", "http://otel.internal:4317", "https://otel.example.com:443"} {
		if _, _, err := load(t, "", map[string]string{"PHONEFLOW_TELEMETRY_OTLP_ENDPOINT": ok}); err != nil {
			t.Errorf("telemetry.otlp_endpoint %q: %v", ok, err)
		}
	}
	for _, tc := range cases {
		c, src, err := load(t, "", tc.env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("env %v: error %v, want it to contain %q", tc.env, err, tc.want)
			continue
		}
		if src == nil || c.Log.Format == "" {
			t.Errorf("a validation error should still return the config and sources")
		}
	}

	// Several problems are reported together.
	_, _, err := load(t, "", map[string]string{"PHONEFLOW_LOG_LEVEL": "x", "PHONEFLOW_LOG_FORMAT": "xml"})
	if err == nil || !strings.Contains(err.Error(), "log.level") || !strings.Contains(err.Error(), "log.format") {
		t.Errorf("want both problems, got %v", err)
	}
}

func TestEncryptionKeys(t *testing.T) {
	const k32 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	c, _, err := load(t, "", map[string]string{"PHONEFLOW_ENCRYPTION_KEYS": "k2:" + k32 + ",k1:" + k32})
	if err != nil || c.Encryption.Keys == "" {
		t.Fatalf("valid keys rejected: %v", err)
	}
	secret := "topsecretmaterial"
	for _, bad := range []string{"k1:" + secret, "nokey" + secret, "k1:" + k32 + ",k1:" + k32} {
		_, _, err = load(t, "", map[string]string{"PHONEFLOW_ENCRYPTION_KEYS": bad})
		if err == nil || !strings.Contains(err.Error(), "encryption.keys: **** is not allowed") {
			t.Fatalf("want a masked encryption.keys error for %q, got %v", bad, err)
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), k32) {
			t.Errorf("error shows key material: %v", err)
		}
	}
}

func TestRedaction(t *testing.T) {
	const (
		plannerKey = "sk-planner-SECRET-1"
		execKey    = "sk-exec-SECRET-2"
		apiKey     = "tmprl-SECRET-3"
		token      = "codec-SECRET-4"
		encKeys    = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	)
	env := map[string]string{
		"PLANNER_MODEL_API_KEY":              plannerKey,
		"MODEL_API_KEY":                      execKey,
		"PHONEFLOW_TEMPORAL_API_KEY":         apiKey,
		"PHONEFLOW_ENCRYPTION_CODEC_TOKEN":   token,
		"PHONEFLOW_ENCRYPTION_KEYS":          encKeys,
		"PHONEFLOW_EXECUTOR_TOP_P":           "abc", // a type error elsewhere must not leak secrets either
		"PHONEFLOW_TEMPORAL_TLS_SERVER_NAME": "temporal.example.com",
	}
	_, _, err := load(t, "", env)
	if err == nil {
		t.Fatal("want a type error")
	}
	delete(env, "PHONEFLOW_EXECUTOR_TOP_P")
	c, src, err := load(t, "", env)
	if err != nil {
		t.Fatal(err)
	}
	if c.Planner.APIKey != plannerKey || c.Encryption.Keys != encKeys {
		t.Fatal("secrets must be loaded as given")
	}

	var out bytes.Buffer
	if err := Print(&out, c, src); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("config", "cfg", c)
	outputs := map[string]string{
		"Print":    out.String(),
		"String":   c.String(),
		"Sprintf":  fmt.Sprintf("%v %+v %s", c, c.Redacted(), c),
		"slog":     logs.String(),
		"Redacted": fmt.Sprintf("%#v", c.Redacted()),
	}
	for name, text := range outputs {
		for _, s := range []string{plannerKey, execKey, apiKey, token, encKeys, "AAECAwQFBgcI"} {
			if strings.Contains(text, s) {
				t.Errorf("%s output contains secret %q", name, s)
			}
		}
	}
	if !strings.Contains(out.String(), `planner.api_key: "****"`) || !strings.Contains(out.String(), "# env:PLANNER_MODEL_API_KEY") {
		t.Errorf("set secret should print as **** with its source:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "temporal.tls.server_name: \"temporal.example.com\"") {
		t.Errorf("non-secret value missing:\n%s", out.String())
	}
	// Redacted leaves the original untouched.
	if c.Temporal.APIKey != apiKey {
		t.Error("Redacted modified its receiver")
	}
	// An unset secret prints as "".
	d := Default()
	out.Reset()
	_ = Print(&out, d, nil)
	if !strings.Contains(out.String(), `executor.api_key: ""`+"\n") {
		t.Errorf("unset secret should print as \"\":\n%s", out.String())
	}
}

func TestPrintRoundTrip(t *testing.T) {
	// Every printed value, fed back through the environment, loads as the
	// same value.
	c := Default()
	c.ADB.Allow = []string{"emulator-5554", "R58M"}
	c.Settle.Max = 1500 * time.Millisecond
	c.Executor.Temperature = 0.3
	c.Temporal.Address = "10.1.2.3:7233"
	c.fillDerived()
	var out bytes.Buffer
	if err := Print(&out, c, nil); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		if keyByName[key].Kind == kindList {
			val = strings.NewReplacer("[", "", "]", "", `"`, "").Replace(val)
		}
		env[EnvName(key)] = strings.Trim(val, `"`)
	}
	got, _, err := load(t, "", env)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys() {
		if fmt.Sprint(got.Get(k)) != fmt.Sprint(c.Get(k)) {
			t.Errorf("%s: reads back as %v, want %v", k, got.Get(k), c.Get(k))
		}
	}
}

func TestFileSearchAndMissingFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("log:\n  level: debug\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, src, err := Load(LoadOptions{Env: envMap(nil), SearchDirs: []string{t.TempDir(), dir}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Log.Level != "debug" || src["log.level"] != "file:"+filepath.Join(dir, FileName) {
		t.Errorf("searched file not used: %q from %q", c.Log.Level, src["log.level"])
	}
	_, _, err = Load(LoadOptions{File: filepath.Join(dir, "nope.yaml"), Env: envMap(nil)})
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("missing explicit file: %v", err)
	}
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	BindFlags(fs)
	_ = fs.Parse([]string{"--config", filepath.Join(dir, FileName)})
	c, _, err = Load(LoadOptions{Flags: fs, Env: envMap(nil), SearchDirs: []string{}})
	if err != nil || c.Log.Level != "debug" {
		t.Errorf("--config: %v %q", err, c.Log.Level)
	}
	bad := writeFile(t, "limits: [1, 2\n")
	if _, _, err := Load(LoadOptions{File: bad, Env: envMap(nil)}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("malformed YAML: %v", err)
	}
}

func TestBindFlagsHelpShowsDefaults(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	BindFlags(fs)
	usage := fs.FlagUsages()
	for _, want := range []string{"--temporal-address", "--namespace string", `(default "default")`, "--adb-address", `(default "127.0.0.1:5037")`, "--data-dir", "--planner-base-url", "--executor-base-url", "--temporal-port"} {
		if !strings.Contains(usage, want) {
			t.Errorf("flag help lacks %q:\n%s", want, usage)
		}
	}
}

// A PHONEFLOW_ variable that names no key is refused like an unknown key of
// the file, with the names it is close to.
func TestEnvironmentTyposAreCaught(t *testing.T) {
	load := func(environ ...string) error {
		_, _, err := Load(LoadOptions{SearchDirs: []string{}, Env: envMap(nil), Environ: func() []string { return environ }})
		return err
	}
	for _, c := range []struct{ env, want string }{
		{"PHONEFLOW_LIMITS_MAX_STEP=5", "did you mean PHONEFLOW_LIMITS_MAX_STEPS?"},
		{"PHONEFLOW_PLANER_BASE_URL=http://x", "did you mean PHONEFLOW_PLANNER_BASE_URL?"},
		{"PHONEFLOW_MAX_STEPS=5", "PHONEFLOW_LIMITS_MAX_STEPS"},
		// A name the flag suggests (--temporal-port), a word of the key left out.
		{"PHONEFLOW_TEMPORAL_PORT=7999", "PHONEFLOW_TEMPORAL_EMBEDDED_PORT"},
		{"PHONEFLOW_TEMPORAL_UI_PORT=9000", "PHONEFLOW_TEMPORAL_EMBEDDED_UI_PORT"},
		{"PHONEFLOW_WHATEVER=1", "phoneflow.example.yaml lists every key"},
	} {
		err := load(c.env, "HOME=/root")
		if err == nil || !strings.Contains(err.Error(), "is not a phoneflow setting") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.env, err, c.want)
		}
	}
	ok := []string{"PHONEFLOW_LIMITS_MAX_STEPS=5", "PHONEFLOW_CONFIG=", "PHONEFLOW_REQUIRE_ADB=1", "MODEL_NAME=x", "PATH=/bin"}
	if err := load(ok...); err != nil {
		t.Errorf("known names refused: %v", err)
	}
}

func TestDualLoopModeIsTheModeSwitch(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
		bad  bool
	}{
		{nil, ModeLayered, false},
		{map[string]string{"DUAL_LOOP_MODE": "1"}, ModeLayered, false},
		{map[string]string{"DUAL_LOOP_MODE": "true"}, ModeLayered, false},
		{map[string]string{"DUAL_LOOP_MODE": "0"}, ModeSingle, false},
		{map[string]string{"DUAL_LOOP_MODE": "FALSE"}, ModeSingle, false},
		{map[string]string{"PHONEFLOW_LIMITS_MODE": "single", "DUAL_LOOP_MODE": "1"}, ModeSingle, false},
		{map[string]string{"PHONEFLOW_LIMITS_MODE": "loop"}, "", true},
	} {
		cfg, _, err := Load(LoadOptions{Env: envMap(tc.env), SearchDirs: []string{}})
		if tc.bad {
			if err == nil || !strings.Contains(err.Error(), "limits.mode") {
				t.Errorf("%v: error %v, want one naming limits.mode", tc.env, err)
			}
			continue
		}
		if err != nil || cfg.Limits.Mode != tc.want {
			t.Errorf("%v: mode %q, %v; want %q", tc.env, cfg.Limits.Mode, err, tc.want)
		}
	}
}
