package config

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// Masked is what a set secret is replaced with when printed.
const Masked = "****"

// Redacted returns a copy of c with every set secret replaced by Masked, safe
// to log or print.
func (c Config) Redacted() Config {
	out := c
	out.ADB.Allow = append([]string(nil), c.ADB.Allow...)
	out.ADB.Connect = append([]string(nil), c.ADB.Connect...)
	for _, k := range keys {
		if k.Secret && k.field(&out).String() != "" {
			k.field(&out).SetString(Masked)
		}
	}
	return out
}

// String prints the redacted configuration, so a Config passed to a logger
// or fmt never shows a secret.
func (c Config) String() string {
	var b strings.Builder
	_ = Print(&b, c, nil)
	return b.String()
}

// LogValue makes slog print the redacted configuration.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// Print writes the configuration as YAML-like lines `key: value  # source`,
// one per key in declaration order. Secrets print as "****" when set and ""
// when not. src may be nil, which leaves out the comments.
func Print(w io.Writer, c Config, src Sources) error {
	r := c.Redacted()
	width := 0
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = k.Key + ": " + formatValue(k.field(&r).Interface())
		width = max(width, len(lines[i]))
	}
	for i, k := range keys {
		line := lines[i]
		if s := src[k.Key]; s != "" {
			line += strings.Repeat(" ", width-len(line)+2) + "# " + s
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// formatValue renders a value the way Load reads it back.
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case time.Duration:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}
