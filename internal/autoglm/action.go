package autoglm

import "fmt"

// Action names as they appear in the protocol (docs/design.md §3).
const (
	ActionLaunch    = "Launch"
	ActionTap       = "Tap"
	ActionType      = "Type"
	ActionTypeName  = "Type_Name"
	ActionSwipe     = "Swipe"
	ActionLongPress = "Long Press"
	ActionDoubleTap = "Double Tap"
	ActionBack      = "Back"
	ActionHome      = "Home"
	ActionWait      = "Wait"
	ActionTakeOver  = "Take_over"
	ActionInteract  = "Interact"
	ActionNote      = "Note"
	ActionCallAPI   = "Call_API"
	ActionFinish    = "finish"
)

// Point is a coordinate on the protocol's 0-999 grid, written [x,y].
type Point [2]int

// Action is one parsed executor action. Only the fields its Name uses are
// set. It is a plain value: workflows store it in history and compare it.
type Action struct {
	Name        string `json:"name"`
	App         string `json:"app,omitempty"`         // Launch
	Element     *Point `json:"element,omitempty"`     // Tap, Long Press, Double Tap
	Start       *Point `json:"start,omitempty"`       // Swipe
	End         *Point `json:"end,omitempty"`         // Swipe
	Text        string `json:"text,omitempty"`        // Type, Type_Name
	Message     string `json:"message,omitempty"`     // finish, Take_over, Note; on Tap it marks a sensitive tap
	Duration    string `json:"duration,omitempty"`    // Wait, as written ("2 seconds")
	Instruction string `json:"instruction,omitempty"` // Call_API
	// Sealed, on a Type or Type_Name whose text is a secret (a password
	// field, a secure screen), is the handle the worker sealed the text
	// under, and Chars its number of characters; Text is then empty
	// (docs/design.md#secrets-typed-by-the-executor).
	Sealed string `json:"sealed,omitempty"`
	Chars  int    `json:"chars,omitempty"`
}

// Masked is how a secret of n characters is shown: "•••• (8 characters)".
func Masked(n int) string {
	if n == 1 {
		return "•••• (1 character)"
	}
	return fmt.Sprintf("•••• (%d characters)", n)
}

// Sensitive reports whether the action needs a human's approval before it
// runs: a Tap that carries a message.
func (a Action) Sensitive() bool { return a.Name == ActionTap && a.Message != "" }

// NeedsHuman reports whether the action hands control to a person
// (Take_over, Interact).
func (a Action) NeedsHuman() bool { return a.Name == ActionTakeOver || a.Name == ActionInteract }

// TouchesDevice reports whether running the action sends input to the phone.
func (a Action) TouchesDevice() bool {
	switch a.Name {
	case ActionLaunch, ActionTap, ActionType, ActionTypeName, ActionSwipe,
		ActionLongPress, ActionDoubleTap, ActionBack, ActionHome:
		return true
	}
	return false
}

// Response is a parsed executor answer: its reasoning and its action.
type Response struct {
	Thinking string `json:"thinking"`
	Action   Action `json:"action"`
	// Said is the answer as later requests replay it in the protocol's own
	// words: for AutoGLM the thinking and the call exactly as the model
	// wrote them, tagged <think>/<answer> as its reference client replays
	// them (docs/models.md). Not kept in workflow history.
	Said string `json:"-"`
}
