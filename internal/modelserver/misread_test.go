package modelserver

import "testing"

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
