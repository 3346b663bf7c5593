package config

import (
	"fmt"
	"slices"
	"strings"
)

// LabelsOf returns the labels adb.labels gives serial, sorted, nil when
// none (docs/design.md#phone-fleet).
func (a ADB) LabelsOf(serial string) []string {
	m, _ := a.labels()
	return m[serial]
}

// labels reads adb.labels: "SERIAL=label label…" per entry, a serial at
// most once, each label lowercase letters, digits, '-' and '_', so it
// reads the same in a search attribute, a flag and a prompt.
func (a ADB) labels() (map[string][]string, error) {
	m := map[string][]string{}
	for _, e := range a.Labels {
		serial, list, ok := strings.Cut(e, "=")
		serial = strings.TrimSpace(serial)
		if !ok || serial == "" || strings.ContainsAny(serial, " \t\n") {
			return nil, fmt.Errorf(`entries "SERIAL=label label…" such as "R58M123ABC=shop work" (got %q)`, e)
		}
		if _, dup := m[serial]; dup {
			return nil, fmt.Errorf("one entry per serial (%s has two: put its labels in one)", serial)
		}
		var ls []string
		for _, l := range strings.Fields(list) {
			if !ValidLabel(l) {
				return nil, fmt.Errorf("labels of lowercase letters, digits, '-' and '_' (%q of %s is not)", l, serial)
			}
			if !slices.Contains(ls, l) {
				ls = append(ls, l)
			}
		}
		if len(ls) == 0 {
			return nil, fmt.Errorf("at least one label after %s=", serial)
		}
		slices.Sort(ls)
		m[serial] = ls
	}
	return m, nil
}

// ValidLabel reports whether l can name phones: 1 to 40 lowercase
// letters, digits, '-' or '_', starting with a letter or digit.
func ValidLabel(l string) bool {
	if l == "" || len(l) > 40 || l[0] == '-' || l[0] == '_' {
		return false
	}
	for _, r := range l {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
