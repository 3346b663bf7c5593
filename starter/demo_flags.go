package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/demo"
)

// demoConfigFlags are the common flags the demo honours: where its embedded
// server listens and keeps its data, the goal's limits and the worker's
// settle, codec, viewer and log settings.
var demoConfigFlags = []string{"namespace", "temporal-port", "temporal-ui-port", "data-dir", "settle", "max-steps",
	"auto-approve", "codec-address", "metrics-address", "log-level", "log-format"}

// demoRefusedFlags are the common flags whose settings the demo replaces
// with its own parts, with what it uses instead. They are accepted by the
// parser (hidden from --help) only to be refused with this reason: a flag
// that is silently ignored misleads.
var demoRefusedFlags = map[string]string{
	"temporal-address":  "the demo runs its own embedded Temporal server (--temporal-port, --temporal-ui-port); to use another cluster run `go run ./worker --temporal-address …` (docs/running.md)",
	"tls":               "the demo's embedded Temporal server listens on loopback without TLS; TLS is for `go run ./worker` on a cluster (docs/running.md)",
	"tls-cert":          "the demo's embedded Temporal server listens on loopback without TLS; TLS is for `go run ./worker` on a cluster (docs/running.md)",
	"tls-key":           "the demo's embedded Temporal server listens on loopback without TLS; TLS is for `go run ./worker` on a cluster (docs/running.md)",
	"tls-ca":            "the demo's embedded Temporal server listens on loopback without TLS; TLS is for `go run ./worker` on a cluster (docs/running.md)",
	"adb-address":       "the demo attaches its simulated phone to a private adb server it starts (--adb names the adb binary, --builtin-adb uses the built-in one); for a real phone run a worker (docs/phones.md)",
	"allow-device":      "the demo drives only its own simulated phone; for a real phone run a worker with --allow-device (docs/phones.md)",
	"connect":           "the demo drives only its own simulated phone; to adb-connect a network phone run a worker with --connect (docs/phones.md)",
	"planner-base-url":  "the demo serves its offline models itself; to try a model endpoint run a worker with it (docs/running.md), or check it with `starter models check`",
	"executor-base-url": "the demo serves its offline models itself; to try a model endpoint run a worker with it (docs/running.md), or check it with `starter models check`",
	"planner-model":     "the demo's offline model server serves only " + config.DefaultPlannerModel + " and " + config.DefaultExecutorModel + "; to try another model run a worker with its endpoint (docs/running.md)",
	"executor-model":    "the demo's offline model server serves only " + config.DefaultPlannerModel + " and " + config.DefaultExecutorModel + " (another executor model name would switch the request layout to one it does not answer); to try another model run a worker with its endpoint (docs/running.md)",
}

// bindDemoFlags registers the flags the demo honours, with the defaults it
// uses, and the refused ones hidden.
func bindDemoFlags(fs *pflag.FlagSet) {
	config.BindNamedFlags(fs, demoConfigFlags)
	if f := fs.Lookup("data-dir"); f != nil {
		f.DefValue = demo.DefaultDataDir
		f.Usage = "directory of the demo's Temporal database, blobs and prompt memory"
	}
	if f := fs.Lookup("metrics-address"); f != nil {
		f.Usage = "host:port of the demo's step viewer (a free loopback port when this one is taken)"
	}
	if f := fs.Lookup("log-level"); f != nil {
		// The parts log warnings only; the demo narrates what it does.
		f.DefValue = "warn"
		f.Usage = "log level of the demo's parts: debug, info, warn or error"
	}
	all := pflag.NewFlagSet("all", pflag.ContinueOnError)
	config.BindFlags(all)
	for name := range demoRefusedFlags {
		f := all.Lookup(name)
		if f == nil {
			panic("starter: no flag --" + name)
		}
		f.Hidden = true
		fs.AddFlag(f)
	}
}

// refusedDemoFlags says which refused flags were given and what the demo
// uses instead, or nil.
func refusedDemoFlags(fs *pflag.FlagSet) error {
	var set []string
	fs.Visit(func(f *pflag.Flag) {
		if _, ok := demoRefusedFlags[f.Name]; ok {
			set = append(set, f.Name)
		}
	})
	if len(set) == 0 {
		return nil
	}
	sort.Strings(set)
	lines := make([]string, len(set))
	for i, n := range set {
		lines[i] = fmt.Sprintf("--%s: %s", n, demoRefusedFlags[n])
	}
	return usageError{fmt.Errorf("the demo does not take %s:\n  %s", map[bool]string{true: "this flag", false: "these flags"}[len(set) == 1], strings.Join(lines, "\n  "))}
}

// loadDemoConfig loads the configuration the demo runs with: the user's,
// with the offline model names in place of any model the file or the
// environment names, so the request layout and the settings derived from
// the model name are the offline executor's. It returns a note saying what
// was replaced, or "".
func loadDemoConfig(fs *pflag.FlagSet) (config.Config, string, error) {
	user, src, err := config.Load(config.LoadOptions{Flags: fs})
	if err != nil {
		return config.Config{}, "", err
	}
	offline := map[string]string{
		config.EnvName("planner.model"):  config.DefaultPlannerModel,
		config.EnvName("executor.model"): config.DefaultExecutorModel,
	}
	cfg, _, err := config.Load(config.LoadOptions{
		Flags:   fs,
		Environ: os.Environ,
		Env: func(name string) (string, bool) {
			if v, ok := offline[name]; ok {
				return v, true
			}
			return os.LookupEnv(name)
		},
	})
	if err != nil {
		return config.Config{}, "", err
	}
	var notes []string
	for _, m := range []struct{ key, got, want string }{
		{"planner.model", user.Planner.Model, config.DefaultPlannerModel},
		{"executor.model", user.Executor.Model, config.DefaultExecutorModel},
	} {
		if m.got != m.want {
			notes = append(notes, fmt.Sprintf("%s %q (from %s)", m.key, m.got, src[m.key]))
		}
	}
	if len(notes) == 0 {
		return cfg, "", nil
	}
	return cfg, "the demo runs its offline models, not " + strings.Join(notes, " or ") + ", which a worker uses (docs/running.md)", nil
}
