package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// pages returns the README and every page under docs/, by path from the
// repository root (the form a person follows a link in).
func pages(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, f := range files {
		out = append(out, "docs/"+f)
	}
	return out
}

// readPage reads a page given by its path from the repository root.
func readPage(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", page))
	if err != nil {
		t.Fatalf("read %s: %v", page, err)
	}
	return string(b)
}

// proseOf blanks out fenced blocks and code spans, where a [x](y) is an
// example rather than a link.
func proseOf(md string) string {
	parts := strings.Split(md, "```")
	for i := 1; i < len(parts); i += 2 {
		parts[i] = ""
	}
	return regexp.MustCompile("`[^`\n]*`").ReplaceAllString(strings.Join(parts, "```"), "``")
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// links returns the relative link targets of a page: what follows `](`
// outside code, without web addresses.
func links(md string) []string {
	var out []string
	for _, m := range linkRE.FindAllStringSubmatch(proseOf(md), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		out = append(out, target)
	}
	return out
}

// anchors returns the anchors GitHub gives the headings of a page: the
// heading lower-cased, punctuation dropped, spaces turned into hyphens, and
// -1, -2 … after a repeated one.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(proseHeadings(md), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// proseHeadings keeps the lines outside fenced blocks, where a "# …" is a
// heading and not a shell comment.
func proseHeadings(md string) string {
	parts := strings.Split(md, "```")
	var b strings.Builder
	for i := 0; i < len(parts); i += 2 {
		b.WriteString(parts[i])
		b.WriteString("\n")
	}
	return b.String()
}

// brokenLinks checks the links of page (a path from the repository root)
// against read, which returns a file's text and whether it exists.
func brokenLinks(page, md string, read func(path string) (string, bool)) []string {
	var bad []string
	for _, target := range links(md) {
		file, anchor, _ := strings.Cut(target, "#")
		path := page
		if file != "" {
			path = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), file)))
		}
		text, ok := read(path)
		if !ok {
			bad = append(bad, page+": "+target+": "+path+" does not exist")
			continue
		}
		if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(text)[anchor] {
			bad = append(bad, page+": "+target+": "+path+" has no heading with the anchor #"+anchor)
		}
	}
	return bad
}

func readRepoFile(path string) (string, bool) {
	b, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// TestLinksResolve checks that every relative link of the README and the
// docs pages names a file that exists and, with an #anchor into a page, a
// heading of that page.
func TestLinksResolve(t *testing.T) {
	checked := 0
	for _, page := range pages(t) {
		md := readPage(t, page)
		checked += len(links(md))
		for _, b := range brokenLinks(page, md, readRepoFile) {
			t.Error(b)
		}
	}
	if checked < 20 {
		t.Errorf("found only %d links in the pages; the pattern is broken", checked)
	}
}

// TestBrokenLinksCaught makes sure a missing page, a missing heading and a
// missing heading on the same page each fail, while code is left alone.
func TestBrokenLinksCaught(t *testing.T) {
	files := map[string]string{
		"docs/a.md": "# Page A\n\n## Step viewer: the screens\n\n```sh\n# not a heading\n```\n",
	}
	read := func(p string) (string, bool) { s, ok := files[p]; return s, ok }
	md := "# Here\n\nSee [a](a.md#step-viewer-the-screens), [top](../README.md), [b](b.md),\n" +
		"[gone](a.md#not-a-heading), [self](#here), [lost](#there), [web](https://example.com/x.md),\n" +
		"and `[code](nowhere.md)`.\n"
	files["README.md"] = "# phoneflow\n"
	files["docs/here.md"] = md
	want := []string{
		"docs/here.md: b.md: docs/b.md does not exist",
		"docs/here.md: a.md#not-a-heading: docs/a.md has no heading with the anchor #not-a-heading",
		"docs/here.md: #there: docs/here.md has no heading with the anchor #there",
	}
	if got := brokenLinks("docs/here.md", md, read); !slices.Equal(got, want) {
		t.Errorf("brokenLinks =\n%q\nwant\n%q", got, want)
	}
}
