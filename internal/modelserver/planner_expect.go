package modelserver

// readOne reads a todo of the plan again for its postconditions.
func readOne(todo string) planned {
	ps := readClause(tidy(protectMessages(todo)), planned{})
	if len(ps) != 1 {
		return planned{Todo: todo}
	}
	// A replan reads its todos again: the message's closing "!" or "?"
	// stays in what it checks, as it did in the first plan.
	return keepMark(todo, revealPlanned(ps[0]))
}

// withExpect writes each todo with the postconditions the planner reads in
// it.
func withExpect(todos []string) []planItem {
	out := make([]planItem, len(todos))
	for i, t := range todos {
		out[i] = planItem{Todo: t}
		if p := readOne(t); p.Ask == "" {
			out[i].Expect = p.Expect
		}
	}
	return out
}
