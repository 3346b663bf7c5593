package viewer

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/workflows"
)

// The step viewer shows each todo's postconditions and which held, as the
// todo's Web UI details do (docs/design.md §9).
func TestViewerShowsPostconditionsAndWhichHeld(t *testing.T) {
	off := false
	expect := []postcond.Check{{Kind: postcond.Switch, Label: "Wi-Fi", On: &off}, {Kind: postcond.AppInFront, App: "Settings"}}
	results := []postcond.Result{{Check: expect[0], Held: false, Evidence: "the Wi-Fi switch is on"}, {Check: expect[1], Held: true, Evidence: "Settings is in front"}}
	g := Goal{ID: "g", Todos: []Todo{
		{WorkflowID: "g/todo-1", Index: 1, Text: "Turn off Wi-Fi", Status: workflows.TodoFailed, Checks: workflows.CheckLines(expect, results)},
		{WorkflowID: "g/todo-2", Index: 2, Text: "Turn off Wi-Fi", Status: workflows.TodoRunning, Checks: workflows.CheckLines(expect, nil)},
	}}
	tpl, err := page.Clone()
	if err != nil {
		t.Fatal(err)
	}
	tpl = tpl.Funcs(map[string]any{"blobURL": func(ref string) string { return ref }})
	var b strings.Builder
	if err := tpl.ExecuteTemplate(&b, "body", pageData{Goal: g}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		"<li data-check>✗ switch &#34;Wi-Fi&#34; is off — the Wi-Fi switch is on</li>",
		"<li data-check>✓ Settings is in front — Settings is in front</li>",
		"<li data-check>· switch &#34;Wi-Fi&#34; is off</li>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the viewer does not show %q in:\n%s", want, html)
		}
	}
}
