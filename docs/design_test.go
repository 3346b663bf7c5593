package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const (
	designPath   = "design.md"
	workflowsDir = "../workflows"
	repoRoot     = ".."
)

// changeID is one workflow.GetVersion change ID of the workflows package.
type changeID struct{ name, value string }

// changeIDs reads the change-ID constants of the workflows package (every
// string constant named changeXxx or ChangeXxx), and the change IDs that
// workflow.GetVersion calls spell as a string literal, so an ID added in
// either form is found.
func changeIDs(t *testing.T) []changeID {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(workflowsDir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`^[cC]hange[A-Z]`)
	var ids []changeID
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok != token.CONST {
					return true
				}
				for _, spec := range n.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if !named.MatchString(name.Name) || i >= len(vs.Values) {
							continue
						}
						if v, ok := stringLit(vs.Values[i]); ok {
							ids = append(ids, changeID{name.Name, v})
						}
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "GetVersion" || len(n.Args) < 2 {
					return true
				}
				if v, ok := stringLit(n.Args[1]); ok {
					ids = append(ids, changeID{"", v})
				}
			}
			return true
		})
	}
	return ids
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// designSections returns the numbers of the design doc's top-level sections
// ("## §N Title").
func designSections(t *testing.T, doc string) map[int]bool {
	t.Helper()
	secs := map[int]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## §(\d+) `).FindAllStringSubmatch(doc, -1) {
		n, _ := strconv.Atoi(m[1])
		secs[n] = true
	}
	if len(secs) == 0 {
		t.Fatalf("%s has no section headings of the form \"## §N Title\"", designPath)
	}
	return secs
}

func readDesign(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(designPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestChangeIDTableComplete fails when a change ID of the workflows package
// is missing from the design doc's change-ID table, or its row does not name
// its constant and an existing section.
func TestChangeIDTableComplete(t *testing.T) {
	doc := readDesign(t)
	secs := designSections(t, doc)
	rows := map[string]string{}
	rowRe := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|(.*)$")
	for _, m := range rowRe.FindAllStringSubmatch(doc, -1) {
		rows[m[1]] = m[2]
	}
	ids := changeIDs(t)
	if len(ids) < 30 {
		t.Fatalf("found only %d change IDs in %s: is the constant naming (changeXxx/ChangeXxx) still in use?", len(ids), workflowsDir)
	}
	secRe := regexp.MustCompile(`§(\d+)`)
	for _, id := range ids {
		row, ok := rows[id.value]
		if !ok {
			t.Errorf("change ID %q (%s) is not in the change-ID table of docs/design.md: add a row \"| `%s` | `%s` | what it guards | §N |\"",
				id.value, id.name, id.value, id.name)
			continue
		}
		if id.name != "" && !strings.Contains(row, "`"+id.name+"`") {
			t.Errorf("the change-ID table row of %q does not name its constant `%s`", id.value, id.name)
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimSpace(row), "|"), "|")
		last := cells[len(cells)-1]
		m := secRe.FindStringSubmatch(last)
		if m == nil {
			t.Errorf("the change-ID table row of %q names no section in its last column (%q)", id.value, last)
			continue
		}
		if n, _ := strconv.Atoi(m[1]); !secs[n] {
			t.Errorf("the change-ID table row of %q cites §%d, which docs/design.md does not have", id.value, n)
		}
	}
}

// citeRe finds citations of the design doc: "design.md §N" (also with the
// name quoted, or the section on the next comment line) and the sections
// listed after it ("design.md §4, §15", "§2 and §7"); ofRe the form
// "§N of the design".
var (
	citeRe = regexp.MustCompile("design(?:\\.md)?`?(?:[\\s/#*]|\\()*§(\\d+)((?:(?:,\\s*|\\s+and\\s+|\\s+or\\s+)§\\d+)*)")
	moreRe = regexp.MustCompile(`§(\d+)`)
	// ofRe finds the other form, "§N of the design".
	ofRe = regexp.MustCompile(`§(\d+)() of the design\b`)
)

// TestDesignCitationsExist fails when a *.go or *.md file of the repository
// cites a section of docs/design.md that the doc does not have.
func TestDesignCitationsExist(t *testing.T) {
	secs := designSections(t, readDesign(t))
	var bad []string
	cited := 0
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != repoRoot && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		if filepath.Clean(path) == filepath.Clean(designPath) {
			return nil
		}
		for _, m := range append(citeRe.FindAllStringSubmatchIndex(text, -1), ofRe.FindAllStringSubmatchIndex(text, -1)...) {
			nums := []string{text[m[2]:m[3]]}
			for _, mm := range moreRe.FindAllStringSubmatch(text[m[4]:m[5]], -1) {
				nums = append(nums, mm[1])
			}
			for _, s := range nums {
				cited++
				if n, _ := strconv.Atoi(s); !secs[n] {
					line := strings.Count(text[:m[0]], "\n") + 1
					bad = append(bad, path+":"+strconv.Itoa(line)+": §"+s)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Fatal("found no citations of docs/design.md: is the citation pattern still \"docs/design.md §N\"?")
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: docs/design.md has no such section", b)
	}
}

// TestDesignInternalReferencesExist fails when the design doc refers to one
// of its own sections that it does not have (a "§N" not after a BENCHMARKS
// reference).
func TestDesignInternalReferencesExist(t *testing.T) {
	doc := readDesign(t)
	secs := designSections(t, doc)
	bench := regexp.MustCompile(`BENCHMARKS(?:\.md)?\s*$`)
	for _, m := range moreRe.FindAllStringSubmatchIndex(doc, -1) {
		if bench.MatchString(doc[max(0, m[0]-16):m[0]]) {
			continue
		}
		if n, _ := strconv.Atoi(doc[m[2]:m[3]]); !secs[n] {
			line := strings.Count(doc[:m[0]], "\n") + 1
			t.Errorf("docs/design.md:%d refers to §%d, which it does not have", line, n)
		}
	}
}
