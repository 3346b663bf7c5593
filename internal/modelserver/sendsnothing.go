package modelserver

import "github.com/phoneflow/phoneflow/internal/postcond"

// sendsNothing is a todo as the persona reads it under Config.SendsNothing:
// a message todo whose text is one of texts becomes opening the
// conversation with its recipient, so the persona finishes on the
// conversation without sending. Any other todo is read as written.
func sendsNothing(task string, texts []string) string {
	in := parseIntent(task)
	if in.Kind != kindMessage || in.To == "" {
		return task
	}
	for _, t := range texts {
		if postcond.SameMessage(in.Text, t) {
			return "Open the conversation with " + in.To
		}
	}
	return task
}
