package autoglm

import (
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// answerFixture is one entry of testdata/answers.txt.
type answerFixture struct {
	shape, answer string
	want          *Action // nil: a ParseError
	reason        string  // part of the ParseError's reason
}

func readAnswerFixtures(t *testing.T) []answerFixture {
	t.Helper()
	data, err := os.ReadFile("testdata/answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []answerFixture
	var cur *answerFixture
	var lines []string
	for n, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "### "):
			if cur != nil {
				t.Fatalf("line %d: entry %q has no >>> line", n+1, cur.shape)
			}
			cur, lines = &answerFixture{shape: strings.TrimPrefix(l, "### ")}, nil
		case strings.HasPrefix(l, ">>> "):
			if cur == nil {
				t.Fatalf("line %d: >>> outside an entry", n+1)
			}
			cur.answer = strings.Join(lines, "\n")
			want := strings.TrimPrefix(l, ">>> ")
			if r, ok := strings.CutPrefix(want, "error: "); ok {
				cur.reason = r
			} else {
				var a Action
				if err := json.Unmarshal([]byte(want), &a); err != nil {
					t.Fatalf("line %d: %v", n+1, err)
				}
				cur.want = &a
			}
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			lines = append(lines, l)
		}
	}
	return out
}

// TestRecordedShapes parses every answer of testdata/answers.txt and
// compares the whole action, every argument included.
func TestRecordedShapes(t *testing.T) {
	fixtures := readAnswerFixtures(t)
	if len(fixtures) < 40 {
		t.Fatalf("%d fixtures, want at least 40", len(fixtures))
	}
	for _, f := range fixtures {
		t.Run(f.shape, func(t *testing.T) {
			got, err := Parse(f.answer)
			if f.want == nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Raw != f.answer {
					t.Fatalf("got %s, %v; want a ParseError carrying the raw answer", FormatAction(got.Action), err)
				}
				if !strings.Contains(pe.Reason, f.reason) {
					t.Fatalf("reason %q, want it to mention %q", pe.Reason, f.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v", f.answer, err)
			}
			if !sameAction(got.Action, *f.want) {
				gj, _ := json.Marshal(got.Action)
				wj, _ := json.Marshal(f.want)
				t.Fatalf("action %s, want %s", gj, wj)
			}
		})
	}
}

// syntaxEnd matches what ends a string by the call's syntax: a quote
// before ")" or before the next argument's name, escapes, tags, fences and
// the start of another call. Texts without any of it must come through whole.
var syntaxEnd = regexp.MustCompile(`["'“”‘’」][ \t\n\r\x{3000}]*[)）]|["'“”‘’」][ \t\n\r\x{3000}]*[,，、][ \t\n\r\x{3000}]*[A-Za-z0-9_]+[ \t\n\r\x{3000}]*[=＝:：]|\\|</answer>|<\|end_of_box\|>|` + "```" + `|(do|finish)[ \t\n\r\x{3000}]*[(（]`)

// FuzzTypeTextWhole types any text the way a model writes it, raw between
// the quotes, in the tagged and the untagged shape: whatever quotes,
// Chinese punctuation and commas it holds, Parse returns all of it.
func FuzzTypeTextWhole(f *testing.F) {
	for _, s := range []string{"“你好”，我到了", "已将“牛奶”、“鸡蛋”加入购物车", `他说"好", 然后走了`, `京东"A店", 淘宝"B店"`,
		"'a', 'b'、‘c’", "「会议」，『地点』", "x=1, y=2", `"`, "”，", "(2pm)", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) || syntaxEnd.MatchString(text) || strings.ContainsRune(text, utf8.RuneError) {
			t.Skip()
		}
		for _, answer := range []string{
			"我需要输入消息。\ndo(action=\"Type\", text=\"" + text + "\")",
			"<think>输入。</think><answer>do(action=\"Type\", text=\"" + text + "\")</answer>",
			"finish(message=\"" + text + "\")",
		} {
			got, err := Parse(answer)
			if err != nil {
				t.Fatalf("%q: %v", answer, err)
			}
			if s := got.Action.Text + got.Action.Message; s != text {
				t.Fatalf("%q: got %q, want %q", answer, s, text)
			}
		}
	})
}

// FuzzFormatKeepsText checks that any text written by FormatAction (as
// history carries it) parses back to exactly that text.
func FuzzFormatKeepsText(f *testing.F) {
	for _, s := range []string{"“你好”，我到了", `a\"b`, "done </answer>", `do(action="Back")`, "finish(", "```", "<|end_of_box|>", `x", text="y`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			t.Skip()
		}
		for _, a := range []Action{{Name: ActionType, Text: text}, {Name: ActionFinish, Message: text},
			{Name: ActionTap, Element: &Point{1, 2}, Message: text}} {
			if a.Name == ActionTap && text == "" {
				continue
			}
			s := FormatAction(a)
			got, err := Parse("<think>x</think><answer>" + s + "</answer>")
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if !sameAction(got.Action, a) {
				t.Fatalf("%s parsed as %s", s, FormatAction(got.Action))
			}
			got, err = Parse("x\n" + s)
			if err != nil || !sameAction(got.Action, a) {
				t.Fatalf("untagged %s parsed as %s, %v", s, FormatAction(got.Action), err)
			}
		}
	})
}
