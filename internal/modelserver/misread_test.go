package modelserver

import (
	"strings"
	"testing"
)

// Each kind of misreading changes what the executor understands, and the
// same todo is misread the same way on every turn.
func TestMisread(t *testing.T) {
	for _, c := range []struct{ task, want string }{
		{"Send Mom a message: see you", "Send Alice a message: see you"},
		{"Turn off Wi-Fi", "Turn on Wi-Fi"},
		{"Create an alarm at 07:30 labelled Gym", "Create an alarm at 08:30 labelled Gym"},
		{"Set brightness to 40%", "Set brightness to 70%"},
		{"Open Settings and then Clock", "Open Settings"},
		{`Create a note titled "Trip" saying "pack passport"`, `Create a note titled "Trip" saying "ok"`},
	} {
		got := c.task
		for v := range 4 {
			if out := misread(c.task, v); out != c.task {
				got = out
				break
			}
		}
		if got != c.want {
			t.Errorf("misread(%q) = %q, want %q", c.task, got, c.want)
		}
	}
	v1, ok1 := misreads(7, 0.5, "Turn off Wi-Fi")
	v2, ok2 := misreads(7, 0.5, "Turn off Wi-Fi")
	if v1 != v2 || ok1 != ok2 {
		t.Fatal("the same todo was misread differently")
	}
	n := 0
	for i := range 1000 {
		if _, ok := misreads(1, 0.2, "todo "+string(rune('a'+i%26))+string(rune('a'+i/26))); ok {
			n++
		}
	}
	if n < 120 || n > 280 {
		t.Fatalf("%d of 1000 todos misread at rate 0.2", n)
	}
}

// Config.Misread picks the todos misread whatever the rate: the one named
// is misread as a drawn one would be, the others are read as written.
func TestMisreadNamedTodos(t *testing.T) {
	const todo = `Send Bob Li a message saying "see you at 8"`
	if v, ok := misreads(0, 0.5, todo); ok && misreadVariant(0, todo) != v {
		t.Fatalf("misreadVariant = %d, misreads = %d", misreadVariant(0, todo), v)
	}
	if got := misread(todo, misreadVariant(0, todo)); got != `Send Bob Li a message saying "ok"` {
		t.Fatalf("misread(%q) = %q: the review-stop recording and e2e test want the words misread", todo, got)
	}
	s := New(Config{Misread: []string{todo}})
	for task, want := range map[string]string{todo: `"ok"`, `Send Bob Li a message saying "see you at 9"`: `"see you at 9"`} {
		st := s.Stats().Misreads
		convo := screen(task, "Messages", "", "", el("TextView", "Bob Li", 500, 60),
			el("EditText", "", 390, 883, "clickable", "focused", "id=compose_message_text", "desc=Text message"),
			el("Button", "Send", 879, 883, "clickable", "id=send_button"))
		ans := s.glmAnswer([]message{{Role: "user", Text: convo}}, grammar{}, faults{})
		if !strings.Contains(ans, want) {
			t.Errorf("%q: answer %q, want it to type %s", task, ans, want)
		}
		if misread := s.Stats().Misreads > st; misread != (task == todo) {
			t.Errorf("%q: misread %t", task, misread)
		}
	}
}
