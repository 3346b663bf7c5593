package mobileuse

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// Concluded is resp with a terminate's result: the family states what a
// task asked to read with answer(text=…) and ends with terminate, whose
// status is all it carries. The finish message becomes the latest answer's
// text (a failure keeps saying it failed, the answer after it); earlier
// are the todo's earlier answers as the model wrote them, oldest first.
// Any other response, and a finish no answer came before, is returned as
// it is (docs/models.md#mobile-use).
func Concluded(resp autoglm.Response, earlier []string) autoglm.Response {
	if resp.Action.Name != autoglm.ActionFinish {
		return resp
	}
	for i := len(earlier) - 1; i >= 0; i-- {
		// The frame does not matter: an answer has no point.
		r, err := Parse(earlier[i], autoglm.Frame{Relative: true, Scale: RelativeScale})
		if err == nil && r.Action.Name == autoglm.ActionNote {
			resp.Action = conclude(resp.Action, r.Action.Message)
			return resp
		}
	}
	return resp
}

// conclude is the finish f with the answer text given before it.
func conclude(f autoglm.Action, text string) autoglm.Action {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
	case f.Message == statusSuccess:
		f.Message = text
	case !strings.Contains(f.Message, text):
		f.Message += ": " + text
	}
	return f
}
