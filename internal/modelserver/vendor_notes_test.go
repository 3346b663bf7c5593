package modelserver

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The persona drives 便签 and Samsung Notes, and the two vendors'
// Contacts, from what they show (executor_vendor_notes.go): rows by their
// titles, content_add and the fab, the fields by id or place, 完成编辑,
// 返回 and Navigate up that keep the note, a long press and 删除 on 便签,
// More options' Delete on Samsung Notes; the planner's checks on each
// todo hold on the screen it ends on.
func TestPersonaDrivesVendorNotes(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	has := func(st phonesim.State, n phonesim.Note) bool {
		for _, x := range st.Notes {
			if x == n {
				return true
			}
		}
		return false
	}
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		t.Run(string(skin), func(t *testing.T) {
			p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
			for _, c := range []struct {
				goal, want string
				check      func(phonesim.State) bool
			}{
				{"first note title?", "Shopping list", func(phonesim.State) bool { return true }},
				// Two titles: one left by Back, one by the editor's own control.
				{"Create a note titled Trip with passport, charger", `Saved the note "Trip"`,
					func(st phonesim.State) bool { return has(st, phonesim.Note{Title: "Trip", Body: "passport, charger"}) }},
				{"Create a note titled Gym with shoes", `Saved the note "Gym"`,
					func(st phonesim.State) bool { return has(st, phonesim.Note{Title: "Gym", Body: "shoes"}) }},
				{"Add butter to the note Shopping list", "",
					func(st phonesim.State) bool {
						return has(st, phonesim.Note{Title: "Shopping list", Body: "Milk, eggs, bread butter"})
					}},
				{"Rename the note Shopping list to Groceries", `Renamed the note "Shopping list" to "Groceries"`,
					func(st phonesim.State) bool {
						return has(st, phonesim.Note{Title: "Groceries", Body: "Milk, eggs, bread butter"})
					}},
				{"What's in my Groceries note?", "Milk, eggs, bread butter", func(phonesim.State) bool { return true }},
				{"first note title?", "Groceries", func(phonesim.State) bool { return true }},
				{"Delete the note Trip", `Deleted the note "Trip"`,
					func(st phonesim.State) bool {
						for _, n := range st.Notes {
							if n.Title == "Trip" {
								return false
							}
						}
						return len(st.Notes) == len(phonesim.Initial().Notes)+1
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
					final := postcond.Screen{App: "Notes", AppPackage: "com.example.notes", Elements: p.UITree()}
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
		})
	}
}

func TestPersonaReadsVendorContacts(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		t.Run(string(skin), func(t *testing.T) {
			p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
			for _, c := range []struct{ task, want string }{
				{"What is the phone number of the second contact", "+1 555 0102"},
				{"What is the name of the third contact", "Zhang San"},
				{"Who has the number +86 139 0000 0004?", "李四"},
				{"Open the contact card of Mom", "Mom's contact card is open"},
			} {
				got, steps := runGoal(t, srv.URL, a, c.task, 20)
				if !strings.Contains(got, c.want) {
					t.Errorf("%q finished %q in %d steps, want %q", c.task, got, steps, c.want)
				}
			}
			if s := p.State().Screen; s.Page != "detail" || s.Detail != "Mom" {
				t.Errorf("the card todo ended on %+v", s)
			}
			// The planner's checks of a card hold on the vendor's page.
			td, ok := contactsClause("Open Mom's contact card")
			if !ok || len(td.Expect) == 0 {
				t.Fatalf("the card is planned as %+v", td)
			}
			final := postcond.Screen{App: "Contacts", AppPackage: "com.android.contacts", Elements: p.UITree()}
			if rs := postcond.Eval(td.Expect, postcond.Observed{Final: final}); !postcond.AllHeld(rs) {
				t.Errorf("the planner's checks on the card: %s", postcond.Summary(rs))
			}
		})
	}
}

// A note below the list's edge is not a deleted one: the persona scrolls
// to it and deletes it, and a note that is nowhere ends as not done.
func TestPersonaDeletesVendorNoteBelowTheEdge(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		t.Run(string(skin), func(t *testing.T) {
			p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
			p.Fill(phonesim.Fill{Notes: 12}) // the newest first: Shopping list is far below
			got, steps := runGoal(t, srv.URL, a, `Delete the note "Shopping list"`, 40)
			if !strings.Contains(got, `Deleted the note "Shopping list"`) {
				t.Fatalf("finished %q in %d steps", got, steps)
			}
			for _, n := range p.State().Notes {
				if n.Title == "Shopping list" {
					t.Fatalf("said deleted, but the phone holds %+v", p.State().Notes)
				}
			}
			if n := len(p.State().Notes); n != len(phonesim.Initial().Notes)+11 {
				t.Fatalf("%d notes left, want one fewer", n)
			}
			got, _ = runGoal(t, srv.URL, a, `Delete the note "Nowhere"`, 40)
			if strings.HasPrefix(got, "Deleted") {
				t.Fatalf("a note that is not there finished %q", got)
			}
		})
	}
}

// A person on a Xiaomi phone calls Notes 便签, as its launcher does: the
// planner reads a 便签 goal as a note's.
func TestPlannerReads便签AsNotes(t *testing.T) {
	for _, goal := range []string{"新建一个便签，标题是周末，内容是买菜", "删除便签 Shopping list"} {
		if in := parseIntent(goal); in.App != "Notes" || in.Kind != kindNote {
			t.Errorf("%q is read as %+v, want a note's", goal, in)
		}
	}
}
