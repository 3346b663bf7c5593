package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Sources maps every key to where its value came from: "default",
// "file:<path>", "env:<NAME>" or "flag:--<name>".
type Sources map[string]string

// LoadOptions says where Load looks for settings.
type LoadOptions struct {
	// Flags holds the flags registered by BindFlags; only flags the user
	// set count. Nil means no flags.
	Flags *pflag.FlagSet
	// File is the YAML file to read. Empty means the --config flag, then
	// $PHONEFLOW_CONFIG, then phoneflow.yaml in SearchDirs.
	File string
	// Env looks up an environment variable; nil means os.LookupEnv.
	Env func(string) (string, bool)
	// Environ lists the environment as NAME=value pairs; every PHONEFLOW_
	// name in it must be a known one, as every key of the file must. Nil
	// means os.Environ when Env is nil too, and no check otherwise.
	Environ func() []string
	// SearchDirs are the directories searched for phoneflow.yaml when no
	// file is named. Nil means the working directory, then
	// ~/.config/phoneflow.
	SearchDirs []string
}

// FileName is the name of the configuration file Load searches for.
const FileName = "phoneflow.yaml"

// flagKeys maps the flags BindFlags registers to their keys.
var flagKeys = []struct{ flag, key, usage string }{
	{"temporal-address", "temporal.address", "Temporal frontend host:port (empty: the embedded server)"},
	{"namespace", "temporal.namespace", "Temporal namespace"},
	{"temporal-port", "temporal.embedded.port", "port of the embedded Temporal server (Web UI on port+1000)"},
	{"temporal-ui-port", "temporal.embedded.ui_port", "port of the embedded Web UI (0: temporal port + 1000)"},
	{"tls", "temporal.tls.enabled", "use TLS to reach the Temporal frontend"},
	{"tls-cert", "temporal.tls.cert_file", "client certificate file for mTLS"},
	{"tls-key", "temporal.tls.key_file", "client key file for mTLS"},
	{"tls-ca", "temporal.tls.ca_file", "CA bundle that signs the Temporal server certificate"},
	{"adb-address", "adb.address", "ADB server host:port"},
	{"allow-device", "adb.allow", "serials this worker may drive (repeatable; default: all)"},
	{"connect", "adb.connect", "host:port of a network phone to adb-connect at start (repeatable)"},
	{"data-dir", "data_dir", "directory for the embedded server database, screenshots and prompt memory"},
	{"planner-base-url", "planner.base_url", "OpenAI-compatible base URL of the planner model"},
	{"planner-model", "planner.model", "planner model name"},
	{"executor-base-url", "executor.base_url", "OpenAI-compatible base URL of the executor (vision) model"},
	{"executor-model", "executor.model", "executor model name"},
	{"settle", "settle.mode", "wait after actions: settle, fixed or none"},
	{"max-steps", "limits.max_steps", "step budget of a goal"},
	{"auto-approve", "limits.auto_approve", "run sensitive actions without asking for approval"},
	{"codec-address", "encryption.codec_address", "host:port to serve the payload codec endpoint for the Web UI (empty: off)"},
	{"metrics-address", "metrics.address", "host:port of the worker's metrics and step viewer (empty: off)"},
	{"log-level", "log.level", "log level: debug, info, warn or error"},
	{"log-format", "log.format", "log format: text or json"},
}

// ClientFlags are the flags of a command that only talks to Temporal: where
// it is, how to reach it, and where the step viewer its links name is.
var ClientFlags = []string{"temporal-address", "namespace", "temporal-port", "temporal-ui-port", "tls", "tls-cert", "tls-key", "tls-ca", "metrics-address"}

// StartFlags are ClientFlags and the settings of a goal being started.
var StartFlags = append(append([]string(nil), ClientFlags...), "adb-address", "allow-device", "max-steps", "auto-approve")

// ModelFlags are the flags of a command that only talks to the models.
var ModelFlags = []string{"planner-base-url", "planner-model", "executor-base-url", "executor-model"}

// BindNamedFlags registers --config and the named flags of BindFlags, so a
// command's help lists only the settings it uses; the others still come
// from the file and the environment. It panics on a name BindFlags does not
// know, a programming error.
func BindNamedFlags(fs *pflag.FlagSet, names []string) {
	all := pflag.NewFlagSet("all", pflag.ContinueOnError)
	BindFlags(all)
	fs.AddFlag(all.Lookup("config"))
	for _, n := range names {
		f := all.Lookup(n)
		if f == nil {
			panic("config: no flag --" + n)
		}
		fs.AddFlag(f)
	}
}

// BindFlags registers the common flags (--config, --temporal-address,
// --namespace, --adb-address, --data-dir, --planner-base-url, …) on fs.
// Their defaults shown in --help are the built-in defaults; only flags the
// user sets override other sources.
func BindFlags(fs *pflag.FlagSet) {
	fs.String("config", "", "configuration file (default: ./"+FileName+" or ~/.config/phoneflow/"+FileName+")")
	def := Default()
	for _, f := range flagKeys {
		k := keyByName[f.key]
		switch k.Kind {
		case kindBool:
			fs.Bool(f.flag, def.Get(f.key).(bool), f.usage)
		case kindList:
			fs.StringSlice(f.flag, nil, f.usage)
		case kindString:
			fs.String(f.flag, def.Get(f.key).(string), f.usage)
		default:
			fs.String(f.flag, formatValue(def.Get(f.key)), f.usage)
		}
	}
}

// Load builds the effective configuration from flags, environment, file and
// defaults, in that precedence, and validates it. On a validation error it
// still returns the configuration and sources it built, so callers can show
// them; a file that cannot be read or a value of the wrong type returns the
// error with a zero Config.
func Load(opts LoadOptions) (Config, Sources, error) {
	env := opts.Env
	if env == nil {
		env = os.LookupEnv
	}
	cfg := Default()
	src := make(Sources, len(keys))
	for _, k := range keys {
		src[k.Key] = "default"
	}
	var errs []error

	path, err := findFile(opts, env)
	if err != nil {
		return Config{}, nil, err
	}
	if path != "" {
		errs = append(errs, readFile(path, &cfg, src)...)
	}

	environ := opts.Environ
	if environ == nil && opts.Env == nil {
		environ = os.Environ
	}
	if environ != nil {
		errs = append(errs, checkEnvNames(environ())...)
	}
	for _, k := range keys {
		names := append([]string{EnvName(k.Key)}, envAliases[k.Key]...)
		for _, name := range names {
			v, ok := env(name)
			if !ok || v == "" {
				continue
			}
			s := "env:" + name
			if err := k.set(&cfg, v, s); err != nil {
				errs = append(errs, err)
			}
			src[k.Key] = s
			break
		}
	}

	if fs := opts.Flags; fs != nil {
		for _, f := range flagKeys {
			fl := fs.Lookup(f.flag)
			if fl == nil || !fl.Changed {
				continue
			}
			var raw any = fl.Value.String()
			if sv, ok := fl.Value.(pflag.SliceValue); ok {
				raw = sv.GetSlice()
			}
			s := "flag:--" + f.flag
			if err := keyByName[f.key].set(&cfg, raw, s); err != nil {
				errs = append(errs, err)
			}
			src[f.key] = s
		}
	}
	if len(errs) > 0 {
		return Config{}, nil, errors.Join(errs...)
	}

	for k, why := range cfg.fillDerived() {
		if src[k] == "default" {
			src[k] = why
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, src, annotate(err, src)
	}
	return cfg, src, nil
}

// findFile picks the configuration file, or "" when there is none.
func findFile(opts LoadOptions, env func(string) (string, bool)) (string, error) {
	explicit := opts.File
	how := "the file option"
	if explicit == "" && opts.Flags != nil {
		if f := opts.Flags.Lookup("config"); f != nil && f.Value.String() != "" {
			explicit, how = f.Value.String(), "--config"
		}
	}
	if explicit == "" {
		if v, ok := env("PHONEFLOW_CONFIG"); ok && v != "" {
			explicit, how = v, "PHONEFLOW_CONFIG"
		}
	}
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("config file %s (named by %s) cannot be read: %w", explicit, how, err)
		}
		return explicit, nil
	}
	dirs := opts.SearchDirs
	if dirs == nil {
		dirs = []string{"."}
		if home, err := os.UserHomeDir(); err == nil {
			dirs = append(dirs, filepath.Join(home, ".config", "phoneflow"))
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", nil
}

// readFile applies the keys of a YAML file to cfg.
func readFile(path string, cfg *Config, src Sources) []error {
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("yaml")
	if err := v.ReadInConfig(); err != nil {
		return []error{fmt.Errorf("config file %s: %w", path, err)}
	}
	s := "file:" + path
	var errs []error
	reported := map[string]bool{}
	fileKeys := v.AllKeys()
	slices.Sort(fileKeys)
	for _, name := range fileKeys {
		raw := v.Get(name)
		k, ok := keyByName[name]
		if !ok {
			if leaf := leafPrefix(name); leaf != "" {
				if !reported[leaf] {
					reported[leaf] = true
					k := keyByName[leaf]
					errs = append(errs, &typeError{key: leaf, source: s, shown: "a mapping", want: k.Kind})
				}
				continue
			}
			errs = append(errs, fmt.Errorf("%s: unknown key in %s%s", name, path, suggest(name)))
			continue
		}
		if raw == nil {
			continue // "key:" with no value keeps the default
		}
		if err := k.set(cfg, raw, s); err != nil {
			errs = append(errs, err)
			continue
		}
		src[name] = s
	}
	return errs
}

// leafPrefix returns the known leaf key that name is nested under, or "":
// "adb.allow.a" comes from a mapping written where adb.allow's list belongs.
func leafPrefix(name string) string {
	for i := strings.LastIndex(name, "."); i > 0; i = strings.LastIndex(name[:i], ".") {
		if _, ok := keyByName[name[:i]]; ok {
			return name[:i]
		}
	}
	return ""
}

// suggest names known keys close to an unknown one.
func suggest(name string) string {
	last := name[strings.LastIndex(name, ".")+1:]
	var near []string
	for _, k := range keys {
		kl := k.Key[strings.LastIndex(k.Key, ".")+1:]
		if editDistance(kl, last) <= 2 || strings.HasPrefix(k.Key, name+".") {
			near = append(near, k.Key)
		}
	}
	if len(near) == 0 || len(near) > 6 {
		return " (phoneflow.example.yaml lists every key)"
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// annotate adds the source of each invalid value to validation errors.
func annotate(err error, src Sources) error {
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	out := make([]error, 0, len(list))
	for _, e := range list {
		var fe *FieldError
		if errors.As(e, &fe) && src[fe.Key] != "" {
			c := *fe
			c.Source = src[fe.Key]
			out = append(out, &c)
			continue
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}
