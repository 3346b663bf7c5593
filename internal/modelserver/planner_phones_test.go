package modelserver

import (
	"reflect"
	"testing"
)

// The offline planner puts a todo on the phone the goal names for it,
// by the labels and serials of the fleet it is shown, and leaves the
// naming words out of the todo.
func TestPlanNamesEachTodosPhone(t *testing.T) {
	fleet := []fleetPhone{{Serial: "emulator-5554", Labels: []string{"work"}}, {Serial: "emulator-5556", Labels: []string{"tablet"}}}
	for _, c := range []struct {
		goal   string
		fleet  []fleetPhone
		todos  []string
		phones []string
	}{
		{"Read the Android version on the work phone, then open Clock on the tablet", fleet,
			[]string{"Read the Android version in Settings", "Open Clock"}, []string{"label=work", "label=tablet"}},
		{"Read the Android version on the phone labelled work and then open Clock", fleet,
			[]string{"Read the Android version in Settings", "Open Clock"}, []string{"label=work", ""}},
		{"Open Clock on phone emulator-5556", fleet, []string{"Open Clock"}, []string{"emulator-5556"}},
		// A label the fleet does not list is the goal's words, not a phone.
		{"Open Clock on the garden phone", fleet, nil, nil},
		{"Open Clock", nil, []string{"Open Clock"}, []string{""}},
	} {
		a := planGoal(planContext{Goal: c.goal, Phones: c.fleet})
		if c.todos == nil {
			for _, it := range a.Plan {
				if it.Phone != "" {
					t.Errorf("%q: todo %q put on %q", c.goal, it.Todo, it.Phone)
				}
			}
			continue
		}
		var todos, phones []string
		for _, it := range a.Plan {
			todos, phones = append(todos, it.Todo), append(phones, it.Phone)
		}
		if !reflect.DeepEqual(todos, c.todos) || !reflect.DeepEqual(phones, c.phones) {
			t.Errorf("%q: plan %q on %q (%+v), want %q on %q", c.goal, todos, phones, a, c.todos, c.phones)
		}
	}
}
