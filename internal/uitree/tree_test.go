package uitree

import (
	"strings"
	"testing"
)

func TestParentsAndSubtrees(t *testing.T) {
	es := []Element{{Depth: 0}, {Depth: 1}, {Depth: 2}, {Depth: 2}, {Depth: 1}, {Depth: 0}}
	want := []int{-1, 0, 1, 1, 0, -1}
	for i, p := range Parents(es) {
		if p != want[i] {
			t.Fatalf("Parents = %v, want %v", Parents(es), want)
		}
	}
	if SubtreeEnd(es, 1) != 4 || SubtreeEnd(es, 0) != 5 || SubtreeEnd(es, 2) != 3 {
		t.Fatalf("SubtreeEnd wrong: %d %d %d", SubtreeEnd(es, 1), SubtreeEnd(es, 0), SubtreeEnd(es, 2))
	}
}

func TestEveryEditTextSubclassIsAField(t *testing.T) {
	for _, c := range []string{"android.widget.EditText", "android.widget.AutoCompleteTextView", "android.widget.MultiAutoCompleteTextView",
		"com.google.android.material.textfield.TextInputEditText", "androidx.appcompat.widget.AppCompatEditText",
		"android.widget.SearchView$SearchAutoComplete"} {
		if !(Element{Class: c}).IsField() {
			t.Errorf("%s is not a field", c)
		}
	}
	for _, c := range []string{"android.widget.TextView", "android.widget.Button", "android.view.View", ""} {
		if (Element{Class: c}).IsField() {
			t.Errorf("%s is a field", c)
		}
	}
}

// A control the dump disables is listed so: the model sees that a tap on
// it does nothing yet, and the list still parses.
func TestDisabledIsListed(t *testing.T) {
	es := []Element{
		{Class: "android.widget.CheckBox", Text: "I understand", Checkable: true, Clickable: true, Enabled: true, Bounds: Bounds{0, 0, 100, 100}},
		{Class: "android.widget.TextView", Text: "Delete", Clickable: true, Bounds: Bounds{0, 100, 100, 200}},
	}
	text := FormatList(es, 1000, 1000)
	if !strings.Contains(text, `[2] TextView "Delete" clickable enabled=false at=`) || strings.Count(text, "enabled=false") != 1 {
		t.Fatalf("the disabled control is not listed as such:\n%s", text)
	}
	got := ParseList(text)
	if len(got) != 2 || !got[1].Disabled || got[0].Disabled {
		t.Fatalf("ParseList lost enabled=false: %+v", got)
	}
	es[0].Enabled = false // a tree without the attribute says nothing
	if strings.Contains(FormatList(es, 1000, 1000), "enabled=false") {
		t.Fatal("a tree with no enabled element listed its elements as disabled")
	}
}

func TestHintIsRead(t *testing.T) {
	es, err := ParseXML([]byte(`<hierarchy><node class="android.widget.EditText" text="" hint="Search" enabled="true" bounds="[0,0][10,10]"/></hierarchy>`))
	if err != nil || len(es) != 1 || es[0].Hint != "Search" {
		t.Fatalf("hint not read: %+v %v", es, err)
	}
	var b strings.Builder
	if err := WriteXML(&b, 0, es); err != nil || !strings.Contains(b.String(), `hint="Search"`) {
		t.Fatalf("hint not written: %s %v", b.String(), err)
	}
}
