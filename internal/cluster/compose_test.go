package cluster_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/cluster"
)

// compose is the part of docker-compose.yml the cluster test runs too.
type compose struct {
	Images   map[string]string `yaml:"x-images"`
	Services map[string]struct {
		Environment map[string]string `yaml:"environment"`
		Command     []string          `yaml:"command"`
		Volumes     []string          `yaml:"volumes"`
	} `yaml:"services"`
}

// TestComposeMatchesCluster fails when docker-compose.yml drifts from what
// the cluster test runs: the server version (the module this test is built
// from, go.mod's), PostgreSQL's major version, the schema steps, the shards, the
// dynamic config file, the database role and the search-attribute step
// (docs/design.md §14).
func TestComposeMatchesCluster(t *testing.T) {
	raw, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	server := goModVersion(t, "go.temporal.io/server")
	for k, want := range map[string]string{
		"temporal-server":      "temporalio/server:" + server,
		"temporal-admin-tools": "temporalio/admin-tools:" + server,
	} {
		if c.Images[k] != want {
			t.Errorf("x-images.%s = %q, the cluster test runs server %s: want %q", k, c.Images[k], server, want)
		}
	}
	pg := strings.TrimPrefix(c.Images["postgres"], "postgres:")
	if major, _, _ := strings.Cut(pg, "."); major != strconv.Itoa(cluster.PostgresMajor) {
		t.Errorf("x-images.postgres = %q, the cluster test runs PostgreSQL %d: keep them the same major version",
			c.Images["postgres"], cluster.PostgresMajor)
	}

	schema := strings.Join(c.Services["temporal-schema"].Command, "\n")
	for _, step := range cluster.SchemaCommands("postgresql", 5432) {
		if !strings.Contains(schema, step) {
			t.Errorf("compose's temporal-schema job lacks the step the cluster test runs:\n  %s", step)
		}
	}
	if env := c.Services["temporal-schema"].Environment; env["SQL_PASSWORD"] != cluster.DBPassword {
		t.Errorf("temporal-schema's SQL_PASSWORD = %q, want %q", env["SQL_PASSWORD"], cluster.DBPassword)
	}
	if env := c.Services["postgresql"].Environment; env["POSTGRES_USER"] != cluster.DBUser || env["POSTGRES_PASSWORD"] != cluster.DBPassword {
		t.Errorf("postgresql's role = %v, want %s/%s as the cluster test", env, cluster.DBUser, cluster.DBPassword)
	}
	tmp := c.Services["temporal"]
	if got := tmp.Environment["NUM_HISTORY_SHARDS"]; got != strconv.Itoa(cluster.HistoryShards) {
		t.Errorf("temporal's NUM_HISTORY_SHARDS = %q, the cluster test runs %d shards", got, cluster.HistoryShards)
	}
	mounted := false
	for _, v := range tmp.Volumes {
		src, dst, _ := strings.Cut(v, ":")
		if filepath.Clean(src) == "deploy/temporal-dynamicconfig.yaml" &&
			strings.HasPrefix(dst, "/etc/temporal/"+tmp.Environment["DYNAMIC_CONFIG_FILE_PATH"]) {
			mounted = true
		}
	}
	if !mounted {
		t.Errorf("temporal does not read deploy/temporal-dynamicconfig.yaml, the dynamic config the cluster test runs: %v %v",
			tmp.Volumes, tmp.Environment["DYNAMIC_CONFIG_FILE_PATH"])
	}
	ns := strings.Join(c.Services["temporal-namespace"].Command, "\n")
	if want := app.RegisterCommand("default"); !strings.Contains(ns, want) {
		t.Errorf("compose's temporal-namespace job lacks the search-attribute step the worker names:\n  %s", want)
	}
}

// goModVersion is the version go.mod requires of module, without the v.
func goModVersion(t *testing.T, module string) string {
	t.Helper()
	raw, err := os.ReadFile("../../go.mod")
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
