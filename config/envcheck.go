package config

import (
	"fmt"
	"slices"
	"strings"
)

// OtherEnv lists the PHONEFLOW_ environment variables that are not
// configuration keys: the file's location, the fault hook of test builds
// and the switches of the test suites. Any other PHONEFLOW_ name is a typo
// of a key and is refused, as an unknown key of the file is.
var OtherEnv = []string{
	"PHONEFLOW_CONFIG",
	FaultExitAfterActionEnv,
	FaultExitBeforeSendEnv,
	"PHONEFLOW_REQUIRE_ADB",
	"PHONEFLOW_REQUIRE_BROWSER",
	"PHONEFLOW_REQUIRE_HISTORY",
	"PHONEFLOW_RECORD_HISTORIES",
	"PHONEFLOW_BENCH_FULL",
	"PHONEFLOW_ROUTINE_BENCH",
	"PHONEFLOW_ROUTINE_CURVE",
	"PHONEFLOW_TEST_LOG",
	"PHONEFLOW_VIEWER_SCREENSHOT",
	"PHONEFLOW_SOAK_KINDS",
	"PHONEFLOW_SOAK_REPS",
	"PHONEFLOW_REQUIRE_POSTGRES",
	"PHONEFLOW_POSTGRES_BIN",
	"PHONEFLOW_KEEP_CLUSTER_LOGS",
	"PHONEFLOW_CLUSTER_BENCH_RUNS",
	"PHONEFLOW_TEMPORAL_CLI",
	"PHONEFLOW_REQUIRE_TEMPORAL_CLI",
}

// checkEnvNames reports each PHONEFLOW_ variable of environ that names no
// key, with the names it is close to.
func checkEnvNames(environ []string) []error {
	var errs []error
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "PHONEFLOW_") || slices.Contains(OtherEnv, name) {
			continue
		}
		if _, ok := envKey(name); ok {
			continue
		}
		errs = append(errs, fmt.Errorf("environment variable %s is not a phoneflow setting%s", name, suggestEnv(name)))
	}
	return errs
}

// envKey returns the key whose PHONEFLOW_ name is name.
func envKey(name string) (string, bool) {
	for _, k := range keys {
		if EnvName(k.Key) == name {
			return k.Key, true
		}
	}
	return "", false
}

// suggestEnv names the known variables close to an unknown one: a whole
// name within a few edits, or one whose last word is.
func suggestEnv(name string) string {
	var near []string
	last := name[strings.LastIndex(name, "_")+1:]
	for _, k := range keys {
		known := EnvName(k.Key)
		kl := known[strings.LastIndex(known, "_")+1:]
		if editDistance(known, name) <= 3 || wordsWithin(name, known) || strings.HasSuffix(known, "_"+strings.TrimPrefix(name, "PHONEFLOW_")) || (strings.HasPrefix(name, known[:strings.LastIndex(known, "_")+1]) && editDistance(kl, last) <= 2) {
			near = append(near, known)
		}
	}
	if len(near) == 0 || len(near) > 6 {
		return " (phoneflow.example.yaml lists every key; its variable is PHONEFLOW_ and the key in capitals with _ for ., e.g. PHONEFLOW_LIMITS_MAX_STEPS)"
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}

// wordsWithin reports whether the words of name (split at _) are those of
// known with some left out, in order and with the same first key word:
// PHONEFLOW_TEMPORAL_PORT is PHONEFLOW_TEMPORAL_EMBEDDED_PORT without
// EMBEDDED, as the --temporal-port flag names it.
func wordsWithin(name, known string) bool {
	nw, kw := strings.Split(name, "_"), strings.Split(known, "_")
	if len(nw) < 3 || len(nw) >= len(kw) || nw[1] != kw[1] {
		return false
	}
	i := 0
	for _, w := range kw {
		if i < len(nw) && w == nw[i] {
			i++
		}
	}
	return i == len(nw)
}
