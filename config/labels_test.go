package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestADBLabels(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, FileName)
	yaml := "adb:\n  labels:\n    - \"127.0.0.1:6555=shop work shop\"\n    - \"R58M123ABC=tablet\"\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := Load(LoadOptions{File: file, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.ADB.LabelsOf("127.0.0.1:6555"); !slices.Equal(got, []string{"shop", "work"}) {
		t.Errorf("labels of 127.0.0.1:6555 = %v, want [shop work] (sorted, once each)", got)
	}
	if got := cfg.ADB.LabelsOf("R58M123ABC"); !slices.Equal(got, []string{"tablet"}) {
		t.Errorf("labels of R58M123ABC = %v, want [tablet]", got)
	}
	if got := cfg.ADB.LabelsOf("other"); got != nil {
		t.Errorf("labels of a phone without an entry = %v, want none", got)
	}

	env := map[string]string{"PHONEFLOW_ADB_LABELS": "a:1=x y,b=z"}
	cfg, _, err = Load(LoadOptions{SearchDirs: []string{}, Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.ADB.LabelsOf("a:1"); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("labels from the environment = %v, want [x y]", got)
	}
}

func TestADBLabelsRefused(t *testing.T) {
	for _, tc := range []struct{ entry, says string }{
		{"noequals", "SERIAL=label"},
		{"=shop", "SERIAL=label"},
		{"a=", "at least one label"},
		{"a=Shop", "lowercase"},
		{"a=shop,b", "lowercase"},
		{"a=sh\u00f6p", "lowercase"},
	} {
		cfg := Default()
		cfg.ADB.Labels = []string{tc.entry}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), "adb.labels") || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("adb.labels %q: error %v, want one on adb.labels saying %q", tc.entry, err, tc.says)
		}
	}
	cfg := Default()
	cfg.ADB.Labels = []string{"a=x", "a=y"}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "one entry per serial") {
		t.Errorf("a serial twice: error %v, want one entry per serial", err)
	}
}
