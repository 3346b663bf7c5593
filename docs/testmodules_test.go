package docs

import (
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

// TestReadmeNamesTestOnlyModules: the README says which modules `go test
// ./...` downloads beyond the demo's, so a machine that ran the demo is
// not surprised by the download; a module tests start to need (or stop
// needing) fails here until the README's list says so.
func TestReadmeNamesTestOnlyModules(t *testing.T) {
	if testing.Short() {
		t.Skip("lists every package's imports (about 20 s)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	mods := func(args ...string) []string {
		cmd := exec.Command(goBin, append([]string{"list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}"}, args...)...)
		cmd.Dir = ".."
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return slices.Compact(slices.Sorted(slices.Values(strings.Fields(string(out)))))
	}
	shipped := mods("./starter", "./worker")
	var testOnly []string
	for _, m := range mods("-test", "./...") {
		if !slices.Contains(shipped, m) {
			testOnly = append(testOnly, m)
		}
	}
	readme := readReadme(t)
	begin, end := strings.Index(readme, "<!-- test-only-modules -->"), strings.Index(readme, "<!-- /test-only-modules -->")
	if begin < 0 || end < begin {
		t.Fatal("the README has no <!-- test-only-modules --> … <!-- /test-only-modules --> list")
	}
	list := readme[begin:end]
	for _, m := range testOnly {
		name := strings.TrimSuffix(m, "/v2")
		short := path.Base(name)
		if owner := path.Base(path.Dir(name)); owner == "gobwas" || owner == "urfave" || owner == "go-json-experiment" {
			short = owner + "/" + short
		}
		if !strings.Contains(list, short) {
			t.Errorf("only tests need %s, and the README's test-only list does not name it (%q): add it", m, short)
		}
	}
	if len(testOnly) == 0 {
		t.Error("no module is test-only any more: take the test-only list out of the README")
	}
}
