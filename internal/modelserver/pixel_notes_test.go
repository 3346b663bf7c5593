package modelserver

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The persona drives the Pixel skin's Google Keep from what it shows: the
// cards by their titles, the New text note button, the hinted fields,
// Navigate up that saves, and More's Delete; the planner's checks on each
// todo hold on the screen it ends on.
func TestPersonaDrivesPixelNotes(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	has := func(st phonesim.State, n phonesim.Note) bool {
		for _, x := range st.Notes {
			if x == n {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		goal, want string
		check      func(phonesim.State) bool
	}{
		{"first note title?", "Shopping list", func(phonesim.State) bool { return true }},
		{"Create a note titled Trip with passport, charger", `Saved the note "Trip"`,
			func(st phonesim.State) bool { return has(st, phonesim.Note{Title: "Trip", Body: "passport, charger"}) }},
		{"Add butter to the note Shopping list", "",
			func(st phonesim.State) bool {
				return has(st, phonesim.Note{Title: "Shopping list", Body: "Milk, eggs, bread butter"})
			}},
		{"Rename the note Shopping list to Groceries", `Renamed the note "Shopping list" to "Groceries"`,
			func(st phonesim.State) bool {
				return has(st, phonesim.Note{Title: "Groceries", Body: "Milk, eggs, bread butter"})
			}},
		{"What's in my Groceries note?", "Milk, eggs, bread butter", func(phonesim.State) bool { return true }},
		// Keep lists the latest edited first: an ordinal counts the cards
		// as shown, not the notes as they were made.
		{"Create a note titled Gym with shoes", `Saved the note "Gym"`,
			func(st phonesim.State) bool { return has(st, phonesim.Note{Title: "Gym", Body: "shoes"}) }},
		{"first note title?", "Gym", func(phonesim.State) bool { return true }},
		{"second note title?", "Groceries", func(phonesim.State) bool { return true }},
		{"last note title?", "Trip", func(phonesim.State) bool { return true }},
		{"Delete the note Trip", `Deleted the note "Trip"`,
			func(st phonesim.State) bool {
				return len(st.Notes) == 2 && st.Notes[0].Title == "Groceries" && st.Notes[1].Title == "Gym"
			}},
	} {
		todos, ok := noteClauseTodos(c.goal)
		switch {
		case !ok && rdNoteTitleQRe.MatchString(c.goal):
			todos = []planned{noteReadTodo(c.goal)}
		case !ok:
			todos = []planned{noteTodo(c.goal)}
		}
		for _, td := range todos {
			if td.Todo == "" {
				t.Fatalf("%q planned %+v", c.goal, todos)
			}
			got, steps := runGoal(t, srv.URL, a, td.Todo, 30)
			if c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("%q finished %q in %d steps, want %q", td.Todo, got, steps, c.want)
			}
			final := postcond.Screen{App: "Notes", AppPackage: phonesim.SkinPixel.Package("Notes"), Elements: p.UITree()}
			o := postcond.Observed{Final: final}
			if td.Reads {
				o.Seen, o.Answer, o.Question = []postcond.Screen{final}, got, c.goal
			}
			if rs := postcond.Eval(td.Expect, o); !postcond.AllHeld(rs) {
				t.Errorf("%q: the planner's checks on the final screen: %s", td.Todo, postcond.Summary(rs))
			}
		}
		if st := p.State(); !c.check(st) {
			t.Errorf("%q done, but the phone holds %+v", c.goal, st.Notes)
		}
	}
}
