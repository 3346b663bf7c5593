package config

import (
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Build       any               `yaml:"build"`
		Environment map[string]string `yaml:"environment"`
		DependsOn   any               `yaml:"depends_on"`
		Ports       []string          `yaml:"ports"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

// TestComposeFile checks docker-compose.yml without docker: it parses, has
// the team services, and the worker's environment names are ones Load reads.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var f composeFile
	if err := yaml.Unmarshal(raw, &f); err != nil {
		t.Fatalf("docker-compose.yml is not valid YAML: %v", err)
	}
	images := map[string]string{
		"postgresql":           "postgres:",
		"temporal":             "temporalio/auto-setup:",
		"temporal-ui":          "temporalio/ui:",
		"temporal-admin-tools": "temporalio/admin-tools:",
	}
	for name, prefix := range images {
		s, ok := f.Services[name]
		if !ok {
			t.Errorf("service %s missing", name)
			continue
		}
		if !strings.HasPrefix(s.Image, prefix) {
			t.Errorf("service %s image %q, want %s…", name, s.Image, prefix)
		}
	}
	if env := f.Services["temporal"].Environment; env["DB"] != "postgres12" || env["POSTGRES_SEEDS"] != "postgresql" {
		t.Errorf("temporal is not on the postgresql service: %v", env)
	}
	if env := f.Services["temporal-ui"].Environment; env["TEMPORAL_ADDRESS"] != "temporal:7233" {
		t.Errorf("temporal-ui address: %v", env)
	}

	w, ok := f.Services["worker"]
	if !ok {
		t.Fatal("service worker missing")
	}
	if w.Build == nil {
		t.Error("worker is not built from the Dockerfile")
	}
	if _, err := os.Stat("../Dockerfile"); err != nil {
		t.Error(err)
	}
	known := map[string]bool{}
	for _, k := range Keys() {
		known[EnvName(k)] = true
		for _, a := range envAliases[k] {
			known[a] = true
		}
	}
	for name := range w.Environment {
		if !known[name] {
			t.Errorf("worker environment %s is not a name phoneflow reads", name)
		}
	}
	for _, need := range []string{"PHONEFLOW_TEMPORAL_ADDRESS", "PHONEFLOW_ADB_ADDRESS", "PLANNER_MODEL_BASE_URL",
		"PLANNER_MODEL_API_KEY", "PLANNER_MODEL_NAME", "MODEL_BASE_URL", "MODEL_API_KEY", "MODEL_NAME"} {
		if _, ok := w.Environment[need]; !ok {
			t.Errorf("worker environment lacks %s", need)
		}
	}
	if got := w.Environment["PHONEFLOW_TEMPORAL_ADDRESS"]; got != "temporal:7233" {
		t.Errorf("worker temporal address %q", got)
	}
	if !strings.Contains(w.Environment["PHONEFLOW_ADB_ADDRESS"], "host.docker.internal:5037") {
		t.Errorf("worker does not reach the host's ADB server: %q", w.Environment["PHONEFLOW_ADB_ADDRESS"])
	}

	// The worker's fixed values pass validation.
	env := map[string]string{}
	for k, v := range w.Environment {
		if !strings.Contains(v, "${") {
			env[k] = v
		}
	}
	if _, _, err := Load(LoadOptions{Env: envMap(env), SearchDirs: []string{}}); err != nil {
		t.Errorf("the worker's compose environment does not validate: %v", err)
	}
	// Published ports stay on loopback.
	for name, s := range f.Services {
		for _, p := range s.Ports {
			if !strings.HasPrefix(p, "127.0.0.1:") {
				t.Errorf("service %s publishes %s beyond loopback", name, p)
			}
		}
	}
}
