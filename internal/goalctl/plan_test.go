package goalctl

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParsePlan(t *testing.T) {
	got, err := ParsePlan("p.txt", []byte("# todos\n1. Turn on Wi-Fi\n\n- Open Clock\n[ ] Read the first alarm\n  Send it to Alice  \n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Turn on Wi-Fi", "Open Clock", "Read the first alarm", "Send it to Alice"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("plan = %q", got)
	}
	got, err = ParsePlan("p.json", []byte(`["a", " ", "b\n c"]`))
	if err != nil || strings.Join(got, "|") != "a|b c" {
		t.Fatalf("json plan = %q, %v", got, err)
	}
	if _, err := ParsePlan("p.json", []byte(`{"a":1}`)); err == nil {
		t.Fatal("object accepted as plan")
	}
	if _, err := ParsePlan("p.txt", []byte("# nothing\n\n")); err == nil || !strings.Contains(err.Error(), "no todos") {
		t.Fatalf("empty plan: %v", err)
	}
}

func FuzzParsePlan(f *testing.F) {
	for _, s := range []string{"1. a\n2. b\n", `["x","y"]`, "# c\n\n- [ ] z", "[", "- \n* \n"} {
		f.Add("p.txt", []byte(s))
	}
	f.Add("p.json", []byte(`["a"]`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		plan, err := ParsePlan(name, data)
		if err != nil {
			if plan != nil {
				t.Fatal("a plan with an error")
			}
			return
		}
		if len(plan) == 0 {
			t.Fatal("an empty plan without an error")
		}
		for _, todo := range plan {
			if todo == "" || todo != strings.TrimSpace(todo) || strings.ContainsAny(todo, "\n\r") {
				t.Fatalf("todo %q is not one trimmed line", todo)
			}
			if utf8.ValidString(string(data)) && !utf8.ValidString(todo) {
				t.Fatalf("todo %q is not valid UTF-8", todo)
			}
		}
	})
}
