package main

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/config"
)

// TestModelsCheckSaysWhichProfile: the check names the protocol, language
// and verifier it chose, and why.
func TestModelsCheckSaysWhichProfile(t *testing.T) {
	env := map[string]string{"MODEL_NAME": "parasail-auto-glm-9b-multilingual"}
	cfg, src, err := config.Load(config.LoadOptions{SearchDirs: []string{}, Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(modelTargets(cfg, src)[1].Profile, "\n")
	for _, want := range []string{"protocol autoglm (default for executor.model \"parasail-auto-glm-9b-multilingual\": its name contains autoglm",
		"language en (", "(multilingual)", "screenshot png, full size", "ui_elements false", "verifier planner endpoint", "text only"} {
		if !strings.Contains(got, want) {
			t.Errorf("profile lines lack %q:\n%s", want, got)
		}
	}
}
