package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// citeTopic is a behaviour Go comments cite the design doc for: a comment
// clause that speaks of it (says) must cite a section whose text names it
// (names). A citation to the wrong place fails even when the section
// exists.
type citeTopic struct {
	topic string
	says  *regexp.Regexp
	names *regexp.Regexp
}

var citeTopics = []citeTopic{
	{"the executor's questions", regexp.MustCompile(`(?i)\bquestions? the executor\b|\bexecutor(?:'s)? questions?\b|\bexecutor asked\b`),
		regexp.MustCompile(`(?i)\bexecutor's questions\b|\bquestions? the executor\b`)},
	{"the phone lease", regexp.MustCompile(`(?i)\blease\b`), regexp.MustCompile(`(?i)\blease`)},
	{"the action journal", regexp.MustCompile(`(?i)\bjournal\b`), regexp.MustCompile(`(?i)\bjournal`)},
	{"routines", regexp.MustCompile(`(?i)\broutines?\b`), regexp.MustCompile(`(?i)\broutine`)},
	{"memory across goals", regexp.MustCompile(`(?i)\bmemory across goals\b|\bmemory\.(?:user|path|enabled)\b`), regexp.MustCompile(`(?i)\bmemory\b`)},
	{"schedules", regexp.MustCompile(`(?i)\bschedules?\b`), regexp.MustCompile(`(?i)\bschedul`)},
	{"hooks", regexp.MustCompile(`(?i)\bhooks?\b`), regexp.MustCompile(`(?i)\bhook`)},
	{"blobs", regexp.MustCompile(`(?i)\bblobs?\b`), regexp.MustCompile(`(?i)\bblob`)},
	{"change IDs", regexp.MustCompile(`(?i)\bchange IDs?\b|\bGetVersion\b`), regexp.MustCompile(`(?i)\bchange ID|\bGetVersion\b`)},
	{"postconditions", regexp.MustCompile(`(?i)\bpostconditions?\b`), regexp.MustCompile(`(?i)\bpostcondition`)},
	{"take-over", regexp.MustCompile(`(?i)\btake[- ]over\b|\bTake_over\b`), regexp.MustCompile(`(?i)\btake[- ]over\b|\bTake_over\b|\btakes? over\b`)},
	{"the stuck guard", regexp.MustCompile(`(?i)\bstuck guard\b`), regexp.MustCompile(`(?i)\bstuck\b`)},
	{"the step viewer", regexp.MustCompile(`(?i)\bstep viewer\b`), regexp.MustCompile(`(?i)\bviewer\b`)},
}

// sectionTexts maps each top-level section number of the design doc to its
// text, heading to the next top-level heading.
func sectionTexts(doc string) map[int]string {
	heads := regexp.MustCompile(`(?m)^## §(\d+) `).FindAllStringSubmatchIndex(doc, -1)
	out := map[int]string{}
	for i, h := range heads {
		end := len(doc)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		n, _ := strconv.Atoi(doc[h[2]:h[3]])
		out[n] = doc[h[0]:end]
	}
	return out
}

// citingClause is the comment text a citation at text[at:] belongs to:
// the comment lines up to it, back to the clause's start (a sentence's or
// a semicolon's end, or the previous citation), the comment markers
// removed, and asides in parentheses. Code on the citation's line or above the comment is not part
// of it.
func citingClause(text string, at int) string {
	lineStart := strings.LastIndex(text[:at], "\n") + 1
	cur := text[lineStart:at]
	i := strings.Index(cur, "//")
	if i < 0 {
		return ""
	}
	parts := []string{strings.TrimSpace(cur[i+2:])}
	for end := lineStart - 1; end > 0 && len(parts) < 12; {
		start := strings.LastIndex(text[:end], "\n") + 1
		l := strings.TrimSpace(text[start:end])
		if !strings.HasPrefix(l, "//") {
			break
		}
		parts = append([]string{strings.TrimSpace(strings.TrimPrefix(l, "//"))}, parts...)
		end = start - 1
	}
	s := strings.Join(parts, " ")
	for _, stop := range []string{". ", "; ", "design.md", "§"} {
		if i := strings.LastIndex(s, stop); i >= 0 {
			s = s[i+len(stop):]
		}
	}
	// A topic named in passing, in parentheses, is not what is cited.
	return asideRe.ReplaceAllString(s, "")
}

var asideRe = regexp.MustCompile(`\([^()]*\)`)

// TestCitationsNameTheCitedBehaviour fails when a Go comment cites a
// section of docs/design.md for a behaviour (citeTopics) that section
// never names: "the executor's questions reach the replanner (§9)" when
// §9 says nothing of them.
func TestCitationsNameTheCitedBehaviour(t *testing.T) {
	secs := sectionTexts(readDesign(t))
	var bad []string
	checked := 0
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != repoRoot && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		for _, m := range citeRe.FindAllStringSubmatchIndex(text, -1) {
			clause := citingClause(text, m[0])
			nums := []string{text[m[2]:m[3]]}
			for _, mm := range moreRe.FindAllStringSubmatch(text[m[4]:m[5]], -1) {
				nums = append(nums, mm[1])
			}
			for _, tp := range citeTopics {
				if !tp.says.MatchString(clause) {
					continue
				}
				checked++
				named := false
				for _, s := range nums {
					n, _ := strconv.Atoi(s)
					named = named || tp.names.MatchString(secs[n])
				}
				if !named {
					line := strings.Count(text[:m[0]], "\n") + 1
					bad = append(bad, path+":"+strconv.Itoa(line)+": §"+strings.Join(nums, ", §")+" is cited for "+tp.topic+" ("+strings.TrimSpace(clause)+")")
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d citations spoke of a topic of citeTopics: is the comment form still \"… (docs/design.md §N)\"?", checked)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: the section never names it; cite the section that does, or say it there", b)
	}
	t.Logf("%d citations checked against their topic", checked)
}
