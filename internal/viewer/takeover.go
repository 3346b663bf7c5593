package viewer

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/workflows"
)

// TakeOver lets a person act on the phone of a goal that waits for them
// (docs/design.md#waiting-for-people-and-telling-them, taking over from
// the browser). The worker's app implements it: the screen is read from
// the phone, actions go to the goal as updates, and Continue and Answer
// answer the goal the way `starter clarify`, `approve` or `resume` does.
// What the goal waits for is read by the viewer itself (AskOf).
type TakeOver interface {
	// Screen is the phone's screen now: a PNG, or for a screen that
	// forbids screenshots its layout (LayoutSVG); contentType says which.
	Screen(ctx context.Context, id string) (data []byte, contentType string, err error)
	// Act runs a on the goal's phone; text is what the person typed (a
	// "type" action), kept out of the goal's history. It returns what was
	// done, as history records it.
	Act(ctx context.Context, id string, a workflows.PersonAction, text string) (string, error)
	// Continue approves, resumes, or answers a question that asked for
	// work on the phone (AskTakeOver), and says how. It refuses any other
	// question: only the person's own words answer those.
	Continue(ctx context.Context, id string) (string, error)
	// Answer answers the pending question with the person's words.
	Answer(ctx context.Context, id, text string) (string, error)
}

// What a goal waits for a person for (Ask.Kind).
const (
	// AskQuestion is answered in words only: the page offers an answer
	// box and no Continue.
	AskQuestion = "question"
	// AskTakeOver asks for work on the phone: Continue says it is done;
	// the answer box is offered too.
	AskTakeOver = "take_over"
	// AskApproval waits for an approval: Continue approves.
	AskApproval = "approval"
	// AskPaused is a paused goal: Continue resumes it.
	AskPaused = "paused"
)

// Ask is what a goal waits for a person for; the zero Ask when nothing.
type Ask struct {
	Kind string `json:"kind,omitempty"`
	Text string `json:"text,omitempty"`
}

// AskOf reads what the goal whose status is st waits for a person for,
// from the kind the workflow gave its question: a question of no known
// kind is one to answer in words, never one Continue answers.
func AskOf(st workflows.Status) Ask {
	switch {
	case st.PendingApproval != nil:
		return Ask{Kind: AskApproval, Text: "Approval needed: " + st.PendingApproval.Action + " — " + st.PendingApproval.Reason}
	case st.PendingQuestion != "" && st.QuestionKind == workflows.QuestionTakeOver:
		return Ask{Kind: AskTakeOver, Text: st.PendingQuestion}
	case st.PendingQuestion != "":
		return Ask{Kind: AskQuestion, Text: st.PendingQuestion}
	case st.Paused:
		return Ask{Kind: AskPaused, Text: "The goal is paused."}
	}
	return Ask{}
}

// Continues says whether Continue answers a: an approval, a pause, or a
// question that asked for work on the phone.
func (a Ask) Continues() bool {
	return a.Kind == AskTakeOver || a.Kind == AskApproval || a.Kind == AskPaused
}

// Answers says whether a is a question the person answers in words.
func (a Ask) Answers() bool { return a.Kind == AskQuestion || a.Kind == AskTakeOver }

// ContinueLabel is the Continue button's words for a.
func (a Ask) ContinueLabel() string {
	switch a.Kind {
	case AskApproval:
		return "Approve"
	case AskPaused:
		return "Resume"
	}
	return "Continue: I did it on the phone"
}

// actRequest is the body of POST /goals/<id>/act: a person's action in the
// phone's pixels, with the typed text for "type".
type actRequest struct {
	Kind string `json:"kind"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
	X2   int    `json:"x2"`
	Y2   int    `json:"y2"`
	Text string `json:"text"`
}

// answerRequest is the body of POST /goals/<id>/answer: the person's
// answer to the pending question.
type answerRequest struct {
	Text string `json:"text"`
}

// maxActBody bounds an action or answer request.
const maxActBody = 8 << 10

// takeOverGuard protects the routes that act on a phone. They are the
// viewer's own check with one difference: without a token they are served
// to this host only, whether or not payloads are encrypted, since they
// drive the phone. A request from a page of another origin is refused too
// (a browser sends Origin with every cross-site POST).
func (o Options) takeOverGuard(next http.HandlerFunc) http.Handler {
	g := o
	g.LoopbackOnly = o.LoopbackOnly || o.Token == ""
	return g.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && r.Method != http.MethodGet {
			if u, err := url.Parse(origin); err != nil || u.Host != r.Host {
				http.Error(w, "taking over a phone is refused from another site's page: open the step viewer itself", http.StatusForbidden)
				return
			}
		}
		next(w, r)
	}))
}

func (o Options) screen(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	data, ctype, err := o.TakeOver.Screen(ctx, r.PathValue("id"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
}

func (o Options) act(w http.ResponseWriter, r *http.Request) {
	var req actRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxActBody)).Decode(&req); err != nil {
		http.Error(w, "the action is not JSON {kind, x, y, x2, y2, text}: "+err.Error(), http.StatusBadRequest)
		return
	}
	a := workflows.PersonAction{Kind: req.Kind, X: req.X, Y: req.Y, X2: req.X2, Y2: req.Y2}
	ctx, cancel := context.WithTimeout(r.Context(), 60*time.Second)
	defer cancel()
	did, err := o.TakeOver.Act(ctx, r.PathValue("id"), a, req.Text)
	if err != nil {
		// The error never holds the typed text: it is not in the update.
		o.Logger.Warn("step viewer: a person's action was not taken", "goal", r.PathValue("id"), "kind", req.Kind, "error", err)
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	writeJSON(w, map[string]string{"did": did})
}

func (o Options) resume(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 60*time.Second)
	defer cancel()
	how, err := o.TakeOver.Continue(ctx, r.PathValue("id"))
	if err != nil {
		code := http.StatusConflict
		if errors.Is(err, context.DeadlineExceeded) {
			code = http.StatusGatewayTimeout
		}
		http.Error(w, err.Error(), code)
		return
	}
	writeJSON(w, map[string]string{"continued": how})
}

func (o Options) answer(w http.ResponseWriter, r *http.Request) {
	var req answerRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxActBody)).Decode(&req); err != nil {
		http.Error(w, "the answer is not JSON {text}: "+err.Error(), http.StatusBadRequest)
		return
	}
	if strings.TrimSpace(req.Text) == "" {
		http.Error(w, "the answer is empty: type what the goal should use", http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 60*time.Second)
	defer cancel()
	how, err := o.TakeOver.Answer(ctx, r.PathValue("id"), req.Text)
	if err != nil {
		code := http.StatusConflict
		if errors.Is(err, context.DeadlineExceeded) {
			code = http.StatusGatewayTimeout
		}
		http.Error(w, err.Error(), code)
		return
	}
	writeJSON(w, map[string]string{"continued": how})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}
