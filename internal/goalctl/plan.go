package goalctl

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

var listMarker = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)]|\[[ xX]?\])\s+`)

// ParsePlan reads the todos of a given plan (`starter run --plan FILE`):
// a JSON array of strings (a .json file, or text starting with "["), or one
// todo per line with blank lines and # comments skipped and list markers
// ("- ", "1. ", "[ ] ") removed. name is only used in messages and for the
// .json extension. Every todo is trimmed, on one line, and non-empty.
func ParsePlan(name string, data []byte) ([]string, error) {
	var plan []string
	if trimmed := strings.TrimSpace(string(data)); strings.HasPrefix(trimmed, "[") || filepath.Ext(name) == ".json" {
		if err := json.Unmarshal(data, &plan); err != nil {
			return nil, fmt.Errorf("plan %s: not a JSON array of strings: %w", name, err)
		}
	} else {
		for line := range strings.Lines(string(data)) {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			plan = append(plan, listMarker.ReplaceAllString(line, ""))
		}
	}
	var out []string
	for _, t := range plan {
		if t = strings.Join(strings.Fields(t), " "); t != "" {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("plan %s holds no todos: write one todo per line", name)
	}
	return out, nil
}
