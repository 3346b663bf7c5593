package config

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type composeFile struct {
	Images   map[string]string `yaml:"x-images"`
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Build       any               `yaml:"build"`
		Environment map[string]string `yaml:"environment"`
		DependsOn   map[string]struct {
			Condition string `yaml:"condition"`
		} `yaml:"depends_on"`
		Ports       []string `yaml:"ports"`
		Healthcheck struct {
			Test    any  `yaml:"test"`
			Disable bool `yaml:"disable"`
		} `yaml:"healthcheck"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

// goModVersion is the version go.mod requires of module, without the "v".
func goModVersion(t *testing.T, module string) string {
	t.Helper()
	raw, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == module {
			return strings.TrimPrefix(f[1], "v")
		}
		if len(f) >= 3 && f[0] == "require" && f[1] == module {
			return strings.TrimPrefix(f[2], "v")
		}
	}
	t.Fatalf("go.mod does not require %s", module)
	return ""
}

// TestComposeImages checks the image pins: one place (x-images), every
// image pinned to an exact version, no deprecated image, and the Temporal
// server and Web UI at the versions phoneflow builds against.
func TestComposeImages(t *testing.T) {
	raw, err := os.ReadFile("../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var f composeFile
	if err := yaml.Unmarshal(raw, &f); err != nil {
		t.Fatalf("docker-compose.yml is not valid YAML: %v", err)
	}
	server := goModVersion(t, "go.temporal.io/server")
	ui := goModVersion(t, "github.com/temporalio/ui-server/v2")
	want := map[string]string{
		"temporal-server":      "temporalio/server:" + server,
		"temporal-admin-tools": "temporalio/admin-tools:" + server,
		"temporal-ui":          "temporalio/ui:" + ui,
	}
	for k, v := range want {
		if f.Images[k] != v {
			t.Errorf("x-images.%s = %q, want %q (the version phoneflow builds against)", k, f.Images[k], v)
		}
	}
	pinned := regexp.MustCompile(`^[a-z0-9./-]+:\d+\.\d+(\.\d+)?$`)
	pins := map[string]bool{}
	for k, v := range f.Images {
		if !pinned.MatchString(v) {
			t.Errorf("x-images.%s = %q is not pinned to an exact version", k, v)
		}
		pins[v] = true
	}
	for name, s := range f.Services {
		if s.Build != nil {
			continue
		}
		if !pins[s.Image] {
			t.Errorf("service %s uses image %q, which is not one of x-images", name, s.Image)
		}
		// Temporal no longer builds auto-setup; schema setup runs from admin-tools.
		if strings.Contains(s.Image, "auto-setup") || strings.Contains(s.Image, "${") {
			t.Errorf("service %s image %q: deprecated or unpinned", name, s.Image)
		}
	}
	if strings.Contains(string(raw), "auto-setup:") {
		t.Error("docker-compose.yml still names temporalio/auto-setup")
	}
}

// TestComposeHealth checks that every service has a healthcheck and that
// the start-up order waits on health or on the one-shot setup jobs.
func TestComposeHealth(t *testing.T) {
	raw, err := os.ReadFile("../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var f composeFile
	if err := yaml.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	for name, s := range f.Services {
		if s.Healthcheck.Test == nil || s.Healthcheck.Disable {
			t.Errorf("service %s has no healthcheck", name)
		}
		for dep, d := range s.DependsOn {
			if _, ok := f.Services[dep]; !ok {
				t.Errorf("service %s depends on %s, which does not exist", name, dep)
			}
			if d.Condition != "service_healthy" && d.Condition != "service_completed_successfully" {
				t.Errorf("service %s waits for %s with condition %q: want service_healthy or service_completed_successfully", name, dep, d.Condition)
			}
		}
	}
	order := []struct{ service, dep, cond string }{
		{"temporal-schema", "postgresql", "service_healthy"},
		{"temporal", "temporal-schema", "service_completed_successfully"},
		{"temporal-namespace", "temporal", "service_healthy"},
		{"temporal-ui", "temporal", "service_healthy"},
		{"worker", "temporal-namespace", "service_completed_successfully"},
	}
	for _, o := range order {
		if got := f.Services[o.service].DependsOn[o.dep].Condition; got != o.cond {
			t.Errorf("%s waits for %s with %q, want %q", o.service, o.dep, got, o.cond)
		}
	}
	// The setup jobs do what the server needs: both SQL schemas, the
	// namespace, phoneflow's search attributes (names from workflows/names.go).
	for _, want := range []string{"setup-schema", "update-schema", "temporal_visibility", "--schema-name postgresql/v12/temporal", "--schema-name postgresql/v12/visibility",
		"namespace create -n default", "--name PhoneflowStatus --type Keyword", "--name PhoneflowDevice --type Keyword", "--name PhoneflowLabels --type KeywordList"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("docker-compose.yml lacks %q", want)
		}
	}
	if _, err := os.Stat("../deploy/temporal-dynamicconfig.yaml"); err != nil {
		t.Errorf("the server's dynamic config file: %v", err)
	}
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
		"temporal-schema":      "temporalio/admin-tools:",
		"temporal":             "temporalio/server:",
		"temporal-namespace":   "temporalio/admin-tools:",
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
