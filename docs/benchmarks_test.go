package docs

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	benchAnchorRe   = regexp.MustCompile(`BENCHMARKS\.md#([A-Za-z0-9_-]+)`)
	benchNumberedRe = regexp.MustCompile(`BENCHMARKS(?:\.md)?,?\s*§`)
)

// benchRefs returns the BENCHMARKS.md anchors a text names, and its
// citations of BENCHMARKS sections by number.
func benchRefs(text string) (anchors []string, numbered int) {
	for _, m := range benchAnchorRe.FindAllStringSubmatch(text, -1) {
		anchors = append(anchors, m[1])
	}
	return anchors, len(benchNumberedRe.FindAllStringIndex(text, -1))
}

func TestBenchRefs(t *testing.T) {
	bench := "BENCHMARKS"
	a, n := benchRefs("see " + bench + ".md#history-cost and (" + bench + " §4), " + bench + ".md §16a")
	if len(a) != 1 || a[0] != "history-cost" || n != 2 {
		t.Errorf("benchRefs = %q, %d; want [history-cost] and 2 numbered", a, n)
	}
}

// TestBenchmarkReferencesResolve: every BENCHMARKS.md#anchor in the
// repository's Go files and markdown pages names a heading of
// BENCHMARKS.md, no text cites its sections by number (its headings have
// none: sections come and go as measurements do), and BENCHMARKS.md's own
// links resolve.
func TestBenchmarkReferencesResolve(t *testing.T) {
	text, ok := readRepoFile("BENCHMARKS.md")
	if !ok {
		t.Fatal("BENCHMARKS.md is missing")
	}
	for _, b := range brokenLinks("BENCHMARKS.md", text, readRepoFile) {
		t.Error(b)
	}
	heads := anchors(text)
	checked := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); (ext != ".go" && ext != ".md") || filepath.Base(path) == "benchmarks_test.go" {
			return nil
		}
		page, ok := readRepoFile(strings.TrimPrefix(filepath.ToSlash(path), "../"))
		if !ok {
			return nil
		}
		refs, numbered := benchRefs(page)
		rel := strings.TrimPrefix(filepath.ToSlash(path), "../")
		if numbered > 0 {
			t.Errorf("%s cites BENCHMARKS by section number %d time(s): name the heading (BENCHMARKS.md#anchor) instead", rel, numbered)
		}
		for _, a := range refs {
			checked++
			if !heads[a] {
				t.Errorf("%s: BENCHMARKS.md#%s: BENCHMARKS.md has no heading with that anchor", rel, a)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("found no BENCHMARKS.md#anchor reference: is the pattern still BENCHMARKS.md#anchor?")
	}
}
