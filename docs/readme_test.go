package docs

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
)

var update = flag.Bool("update", false, "rewrite the configuration table in configuration.md from the code")

const (
	readmePath = "../README.md"
	configPath = "configuration.md" // the page with the configuration reference table
	tableBegin = "<!-- config-table:begin -->"
	tableEnd   = "<!-- config-table:end -->"
	tableHead  = "| key | environment | default | meaning |\n|---|---|---|---|\n"
)

// row is one line of the configuration table.
type row struct{ key, env, def, meaning string }

func (r row) String() string {
	return fmt.Sprintf("| `%s` | %s | %s | %s |", r.key, r.env, r.def, r.meaning)
}

func readReadme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatalf("read the README: %v", err)
	}
	return string(b)
}

func readConfigPage(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(configPath)
	if err != nil {
		t.Fatalf("read the configuration page: %v", err)
	}
	return string(b)
}

// aliases finds the environment names other than PHONEFLOW_<KEY> that
// config.Load accepts for each key, by watching which names Load looks up
// and then setting each one alone to see which key takes it.
func aliases(t *testing.T) map[string][]string {
	t.Helper()
	dir := t.TempDir() // no phoneflow.yaml here, so only env and defaults count
	var asked []string
	_, _, err := config.Load(config.LoadOptions{
		SearchDirs: []string{dir},
		Env: func(name string) (string, bool) {
			asked = append(asked, name)
			return "", false
		},
	})
	if err != nil {
		t.Fatalf("load the defaults: %v", err)
	}
	envNames := map[string]bool{}
	for _, k := range config.Keys() {
		envNames[config.EnvName(k)] = true
	}
	out := map[string][]string{}
	probed := map[string]bool{}
	for _, name := range asked {
		if envNames[name] || name == "PHONEFLOW_CONFIG" || probed[name] {
			continue
		}
		probed[name] = true
		_, src, _ := config.Load(config.LoadOptions{
			SearchDirs: []string{dir},
			Env: func(n string) (string, bool) {
				if n == name {
					return "3", true
				}
				return "", false
			},
		})
		for key, s := range src {
			if s == "env:"+name {
				out[key] = append(out[key], name)
			}
		}
	}
	return out
}

// defaultText renders a default value the way the table shows it.
func defaultText(v any) string {
	switch x := v.(type) {
	case string:
		if x == "" {
			return "(empty)"
		}
		return "`" + x + "`"
	case time.Duration:
		return "`" + x.String() + "`"
	case float64:
		return "`" + strconv.FormatFloat(x, 'g', -1, 64) + "`"
	case []string:
		if len(x) == 0 {
			return "(empty)"
		}
		return "`" + strings.Join(x, ",") + "`"
	}
	return fmt.Sprintf("`%v`", v)
}

// wantRows builds the table from the code; meanings come from have.
func wantRows(t *testing.T, have map[string]row) []row {
	t.Helper()
	al := aliases(t)
	def := config.Default()
	var rows []row
	for _, k := range config.Keys() {
		env := "`" + config.EnvName(k) + "`"
		for _, a := range al[k] {
			env += ", `" + a + "`"
		}
		d := defaultText(def.Get(k))
		if config.IsSecret(k) {
			d += " (secret)"
		}
		rows = append(rows, row{key: k, env: env, def: d, meaning: have[k].meaning})
	}
	return rows
}

// tableRows parses the rows between the table markers of page.
func tableRows(t *testing.T, page string) (before, after string, rows []row) {
	t.Helper()
	i := strings.Index(page, tableBegin)
	j := strings.Index(page, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/%s lacks the %s … %s markers around the configuration table", configPath, tableBegin, tableEnd)
	}
	before, body, after := page[:i+len(tableBegin)], page[i+len(tableBegin):j], page[j:]
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 {
			t.Fatalf("table row %q has %d cells, want 4 (key, environment, default, meaning)", line, len(cells))
		}
		rows = append(rows, row{key: strings.Trim(cells[0], "`"), env: cells[1], def: cells[2], meaning: cells[3]})
	}
	return before, after, rows
}

func TestConfigTable(t *testing.T) {
	before, after, rows := tableRows(t, readConfigPage(t))
	have := map[string]row{}
	for _, r := range rows {
		have[r.key] = r
	}
	want := wantRows(t, have)
	if *update {
		var b strings.Builder
		b.WriteString("\n" + tableHead)
		for _, r := range want {
			b.WriteString(r.String() + "\n")
		}
		if err := os.WriteFile(configPath, []byte(before+b.String()+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, d := range tableDiff(rows, want) {
		t.Error(d)
	}
}

// tableDiff lists how the page's rows differ from the rows the code gives.
func tableDiff(rows, want []row) []string {
	var out []string
	const fix = "run go test ./docs -run TestConfigTable -update"
	if len(rows) != len(want) {
		out = append(out, fmt.Sprintf("the table has %d keys, the code %d: %s", len(rows), len(want), fix))
	}
	for i, w := range want {
		if i < len(rows) && rows[i] != w {
			out = append(out, fmt.Sprintf("row %d:\n have %s\n want %s\n%s", i+1, rows[i], w, fix))
		}
		if w.meaning == "" {
			out = append(out, fmt.Sprintf("key %s has no meaning in the table: describe it", w.key))
		}
	}
	return out
}

// TestTableDiffCaught makes sure a stale default or a missing key fails.
func TestTableDiffCaught(t *testing.T) {
	_, _, rows := tableRows(t, readConfigPage(t))
	have := map[string]row{}
	for _, r := range rows {
		have[r.key] = r
	}
	want := wantRows(t, have)
	if d := tableDiff(rows, want); len(d) != 0 {
		t.Fatalf("the table of docs/%s is stale: %v", configPath, d)
	}
	stale := slices.Clone(rows)
	stale[0].def = "`somewhere:1`"
	if d := tableDiff(stale, want); len(d) != 1 || !strings.Contains(d[0], "row 1:") {
		t.Errorf("a changed default gives %q, want one row-1 difference", d)
	}
	if d := tableDiff(rows[1:], want); len(d) == 0 || !strings.Contains(d[0], "keys, the code") {
		t.Errorf("a missing key gives %q, want a key-count difference", d)
	}
}

// TestAliasesKnown pins the aliases users of earlier phone-agent setups
// rely on, so the table cannot silently lose one.
func TestAliasesKnown(t *testing.T) {
	want := map[string]string{
		"PLANNER_MODEL_BASE_URL":        "planner.base_url",
		"PLANNER_MODEL_API_KEY":         "planner.api_key",
		"PLANNER_MODEL_NAME":            "planner.model",
		"MODEL_BASE_URL":                "executor.base_url",
		"MODEL_API_KEY":                 "executor.api_key",
		"MODEL_NAME":                    "executor.model",
		"MAX_EXECUTOR_FEEDBACK_HISTORY": "limits.max_executor_feedback_history",
		"STUCK_THRESHOLD":               "limits.stuck_threshold",
		"PROMPT_MEMORY_PATH":            "prompt_memory_path",
	}
	got := map[string]string{}
	for key, names := range aliases(t) {
		for _, n := range names {
			got[n] = key
		}
	}
	for name, key := range want {
		if got[name] != key {
			t.Errorf("alias %s: config.Load maps it to %q, want %q", name, got[name], key)
		}
	}
}

// TestTopCommands keeps the two commands a newcomer needs as the README's
// first code block.
func TestTopCommands(t *testing.T) {
	readme := readReadme(t)
	i := strings.Index(readme, "```")
	if i < 0 {
		t.Fatal("the README has no code block")
	}
	lines := strings.Split(readme[i:], "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[1], "go run ./starter demo ") ||
		!strings.HasPrefix(lines[2], "go test ./... ") || lines[3] != "```" {
		t.Errorf("the first code block must hold exactly `go run ./starter demo` and `go test ./...`, got:\n%s",
			strings.Join(lines[:min(4, len(lines))], "\n"))
	}
	if strings.Contains(readme[:i], "\n## ") {
		t.Error("a section comes before the two commands; keep them at the very top")
	}
}

// starterCommands reads the names of the starter's commands (root and
// nested) from ../starter: cobra Use fields, the signal command table's use
// fields and the verbs given to the schedule command builder.
func starterCommands(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("../starter/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no starter sources: %v", err)
	}
	use := regexp.MustCompile(`(?:\b[Uu]se:\s+|newScheduleNameCmd\()"([a-z][a-z-]*)`)
	out := map[string]bool{"help": true, "completion": true}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range use.FindAllSubmatch(b, -1) {
			out[string(m[1])] = true
		}
	}
	return out
}

// codeText returns the fenced blocks and inline code spans of a page.
func codeText(page string) []string {
	var out []string
	parts := strings.Split(page, "```")
	for i, p := range parts {
		if i%2 == 1 {
			out = append(out, p)
			continue
		}
		for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(p, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// unknownCommands returns every `starter X` (and `starter schedule X`) in
// the code of page that is not one of cmds, and how many it checked.
func unknownCommands(page string, cmds map[string]bool) (bad []string, seen int) {
	ref := regexp.MustCompile(`\bstarter ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?`)
	for _, code := range codeText(page) {
		for _, m := range ref.FindAllStringSubmatch(code, -1) {
			seen++
			if !cmds[m[1]] {
				bad = append(bad, "starter "+m[1])
			}
			if m[1] == "schedule" && m[2] != "" && !cmds[m[2]] {
				bad = append(bad, "starter schedule "+m[2])
			}
		}
	}
	return bad, seen
}

// TestCommandsExist checks that every `starter X` the README and the docs
// pages show names a real subcommand.
func TestCommandsExist(t *testing.T) {
	cmds := starterCommands(t)
	total := 0
	for _, page := range pages(t) {
		bad, seen := unknownCommands(readPage(t, page), cmds)
		total += seen
		for _, b := range bad {
			t.Errorf("%s shows `%s`, which is not a starter command", page, b)
		}
	}
	if total < 10 {
		t.Errorf("found only %d starter commands in the README and docs/; the pattern is broken", total)
	}
}

// TestUnknownCommandsCaught makes sure the check above can fail.
func TestUnknownCommandsCaught(t *testing.T) {
	cmds := starterCommands(t)
	readme := "Run `starter run \"x\"` or\n```sh\ngo run ./starter launch x\ngo run ./starter schedule frobnicate y\n```\n"
	bad, seen := unknownCommands(readme, cmds)
	want := []string{"starter launch", "starter schedule frobnicate"}
	if seen != 3 || !slices.Equal(bad, want) {
		t.Errorf("unknownCommands = %q after %d commands, want %q after 3", bad, seen, want)
	}
}
