package config

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// flatten lists the leaf keys of a YAML mapping as dotted paths.
func flatten(prefix string, m map[string]any, out *[]string) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(prefix+k+".", sub, out)
			continue
		}
		*out = append(*out, prefix+k)
	}
}

func TestExampleFileHasEveryKeyWithItsDefault(t *testing.T) {
	const path = "../phoneflow.example.yaml"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var inFile []string
	flatten("", m, &inFile)
	for _, k := range Keys() {
		if !slices.Contains(inFile, k) {
			t.Errorf("phoneflow.example.yaml lacks %s", k)
		}
	}

	got, src, err := Load(LoadOptions{File: path, Env: envMap(nil), SearchDirs: []string{}})
	if err != nil {
		t.Fatalf("the example does not load: %v", err)
	}
	want, _, err := Load(LoadOptions{Env: envMap(nil), SearchDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys() {
		if fmt.Sprint(got.Get(k)) != fmt.Sprint(want.Get(k)) {
			t.Errorf("%s: example says %v, default is %v", k, got.Get(k), want.Get(k))
		}
	}
	if src["limits.max_steps"] != "file:"+path {
		t.Errorf("source %q", src["limits.max_steps"])
	}
}
