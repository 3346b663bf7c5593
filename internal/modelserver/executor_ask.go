package modelserver

import (
	"fmt"
	"strings"
)

// The executor persona on a message todo that leaves out the words or the
// recipient asks, as a real model does with Interact, instead of
// guessing: the planner hears the question first and answers it, stops
// the todo, or hands it to the person (docs/design.md#executor-questions).
// The answer comes back as a note ("Planner: …" or "User: …").

func interactStep(msg, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Interact", message=%s)`, q(msg))}
}

// asked reports whether this todo already put a question (Interact).
func (c *solver) asked() bool { return c.prevIs("Interact") || c.count("Interact") > 0 }

// answer is the newest answer to this todo's question: the note the
// planner or the person gave after it, or "" when none came.
func (c *solver) answer() string {
	if !c.asked() {
		return ""
	}
	for i := len(c.obs.Notes) - 1; i >= 0; i-- {
		n := strings.TrimSpace(c.obs.Notes[i])
		for _, p := range []string{"Planner: ", "User: "} {
			if rest, ok := strings.CutPrefix(n, p); ok && strings.TrimSpace(rest) != "" {
				return strings.TrimSpace(rest)
			}
		}
	}
	return ""
}

// completeMessage fills what the todo left out of a message from the
// answer to the executor's question. ok is false when something is still
// missing.
func (c *solver) completeMessage(in intent) (intent, bool) {
	ans := c.answer()
	if ans == "" {
		return in, in.To != "" && in.Text != ""
	}
	switch {
	case in.To == "" && in.Text == "":
		in.To, in.Text = messageFromAnswer(ans)
	case in.Text == "":
		in.Text = ans
	case in.To == "":
		in.To = ans
	}
	return in, in.To != "" && in.Text != ""
}

// askForMessage is the question about what a message todo leaves out.
func askForMessage(in intent) step {
	switch {
	case in.To == "" && in.Text == "":
		return interactStep("Who should I send the message to, and what should it say?", "The task names neither the recipient nor the words; I ask instead of guessing.")
	case in.To == "":
		return interactStep(fmt.Sprintf("Who should I send the message %q to?", in.Text), "The task does not say who gets the message; I ask instead of guessing.")
	}
	return interactStep(fmt.Sprintf("What should the message to %s say?", in.To), "The conversation is open but the task does not say what to write; I ask instead of guessing.")
}
