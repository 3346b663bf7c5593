package config

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// kind is the type of a configuration value as users write it.
type kind int

const (
	kindString kind = iota
	kindInt
	kindFloat
	kindBool
	kindDuration
	kindList
)

func (k kind) noun() string {
	switch k {
	case kindInt:
		return "an integer"
	case kindFloat:
		return "a number"
	case kindBool:
		return "a boolean (true or false)"
	case kindDuration:
		return `a duration (like "500ms", "30s", "2m")`
	case kindList:
		return "a list of strings"
	}
	return "a string"
}

// keyInfo describes one leaf key of Config.
type keyInfo struct {
	Key    string // dotted path, e.g. "limits.max_steps"
	Kind   kind
	Secret bool
	index  []int // reflect field index path into Config
}

var durationType = reflect.TypeOf(time.Duration(0))

// keys lists every leaf key of Config in declaration order.
var keys = func() []keyInfo {
	var out []keyInfo
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				// An embedded struct's keys sit beside the outer ones.
				walk(f.Type, prefix, append(append([]int(nil), index...), i))
				continue
			}
			name := f.Tag.Get("key")
			if name == "" {
				panic("config: field " + f.Name + " has no key tag")
			}
			idx := append(append([]int(nil), index...), i)
			full := prefix + name
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, full+".", idx)
				continue
			}
			k := kindString
			switch {
			case f.Type == durationType:
				k = kindDuration
			case f.Type.Kind() == reflect.Int:
				k = kindInt
			case f.Type.Kind() == reflect.Float64:
				k = kindFloat
			case f.Type.Kind() == reflect.Bool:
				k = kindBool
			case f.Type.Kind() == reflect.Slice:
				k = kindList
			case f.Type.Kind() != reflect.String:
				panic("config: unsupported field type " + f.Type.String())
			}
			out = append(out, keyInfo{Key: full, Kind: k, Secret: f.Tag.Get("secret") == "true", index: idx})
		}
	}
	walk(reflect.TypeOf(Config{}), "", nil)
	return out
}()

var keyByName = func() map[string]keyInfo {
	m := make(map[string]keyInfo, len(keys))
	for _, k := range keys {
		m[k.Key] = k
	}
	return m
}()

// Keys returns every configuration key in declaration order.
func Keys() []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Key
	}
	return out
}

// IsSecret reports whether key holds a secret that must never be printed.
func IsSecret(key string) bool { return keyByName[key].Secret }

// EnvName returns the PHONEFLOW_ environment variable name of key.
func EnvName(key string) string {
	return "PHONEFLOW_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// envAliases maps the environment names earlier phone-agent setups use to
// keys. A PHONEFLOW_ name wins over its alias.
var envAliases = map[string][]string{
	"planner.base_url":                     {"PLANNER_MODEL_BASE_URL"},
	"planner.api_key":                      {"PLANNER_MODEL_API_KEY"},
	"planner.model":                        {"PLANNER_MODEL_NAME"},
	"executor.base_url":                    {"MODEL_BASE_URL"},
	"executor.api_key":                     {"MODEL_API_KEY"},
	"executor.model":                       {"MODEL_NAME"},
	"limits.max_executor_feedback_history": {"MAX_EXECUTOR_FEEDBACK_HISTORY"},
	"limits.stuck_threshold":               {"STUCK_THRESHOLD"},
	"limits.mode":                          {"DUAL_LOOP_MODE"},
	"prompt_memory_path":                   {"PROMPT_MEMORY_PATH"},
}

// field returns the settable field of c that holds k.
func (k keyInfo) field(c *Config) reflect.Value {
	return reflect.ValueOf(c).Elem().FieldByIndex(k.index)
}

// Get returns the value of key in c, or nil for an unknown key.
func (c Config) Get(key string) any {
	k, ok := keyByName[key]
	if !ok {
		return nil
	}
	return k.field(&c).Interface()
}

// typeError is a value that could not be converted to its key's type.
type typeError struct {
	key, source string
	shown       string // the offending value, quoted, or "****" for secrets
	want        kind
}

func (e *typeError) Error() string {
	return fmt.Sprintf("%s: %s is not %s (from %s)", e.key, e.shown, e.want.noun(), e.source)
}

// set converts raw (a string from a flag or the environment, or a value
// decoded from YAML) to k's type and stores it in c.
func (k keyInfo) set(c *Config, raw any, source string) error {
	fail := func() error {
		shown := "****"
		if !k.Secret {
			if s, ok := raw.(string); ok {
				shown = strconv.Quote(s)
			} else {
				shown = fmt.Sprintf("%v", raw)
			}
		}
		return &typeError{key: k.Key, source: source, shown: shown, want: k.Kind}
	}
	f := k.field(c)
	switch k.Kind {
	case kindString:
		switch v := raw.(type) {
		case string:
			f.SetString(v)
		case int, int64, float64, bool:
			f.SetString(fmt.Sprint(v))
		default:
			return fail()
		}
	case kindInt:
		n, ok := toInt(raw)
		if !ok {
			return fail()
		}
		f.SetInt(n)
	case kindFloat:
		var x float64
		switch v := raw.(type) {
		case string:
			p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return fail()
			}
			x = p
		case int:
			x = float64(v)
		case int64:
			x = float64(v)
		case float64:
			x = v
		default:
			return fail()
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fail()
		}
		f.SetFloat(x)
	case kindBool:
		switch v := raw.(type) {
		case bool:
			f.SetBool(v)
		case string:
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fail()
			}
			f.SetBool(b)
		default:
			return fail()
		}
	case kindDuration:
		switch v := raw.(type) {
		case string:
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil {
				return fail()
			}
			f.SetInt(int64(d))
		default:
			// A bare number is seconds, as people write it in YAML.
			var secs float64
			switch n := raw.(type) {
			case int:
				secs = float64(n)
			case int64:
				secs = float64(n)
			case float64:
				secs = n
			default:
				return fail()
			}
			if math.IsNaN(secs) || math.Abs(secs) > float64(math.MaxInt64/int64(time.Second)) {
				return fail()
			}
			f.SetInt(int64(secs * float64(time.Second)))
		}
	case kindList:
		var list []string
		switch v := raw.(type) {
		case string:
			list = splitList(v)
		case []string:
			list = v
		case []any:
			for _, e := range v {
				switch s := e.(type) {
				case string:
					list = append(list, s)
				case int, int64, float64:
					list = append(list, fmt.Sprint(s))
				default:
					return fail()
				}
			}
		default:
			return fail()
		}
		f.Set(reflect.ValueOf(list))
	}
	return nil
}

func toInt(raw any) (int64, bool) {
	switch v := raw.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			return 0, false
		}
		return int64(v), true
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n > math.MaxInt32 || n < math.MinInt32 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

// splitList splits a comma-separated list, dropping empty entries.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
