package viewer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/mocks"

	"github.com/phoneflow/phoneflow/workflows"
)

type fakeTakeOver struct{ acted, answered []string }

func (f *fakeTakeOver) Screen(context.Context, string) ([]byte, string, error) {
	return []byte("png"), "image/png", nil
}
func (f *fakeTakeOver) Act(_ context.Context, id string, a workflows.PersonAction, text string) (string, error) {
	f.acted = append(f.acted, id+" "+a.Kind+" "+text)
	return a.Describe(), nil
}
func (f *fakeTakeOver) Continue(context.Context, string) (string, error) { return "answered", nil }
func (f *fakeTakeOver) Answer(_ context.Context, id, text string) (string, error) {
	f.answered = append(f.answered, id+" "+text)
	return "answered", nil
}

// Taking over is served to this host only without a token, even when the
// rest of the viewer is open to all (no encryption), needs the token when
// one is set, and refuses a POST from another site's page.
func TestTakeOverAccess(t *testing.T) {
	f := &fakeTakeOver{}
	open := Handler(Options{TakeOver: f})
	serve := func(h http.Handler, method, target, remote, origin string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, strings.NewReader(`{"kind":"tap","x":5,"y":6}`))
		r.RemoteAddr = remote
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := serve(open, "POST", "/goals/g1/act", "192.0.2.1:1234", ""); w.Code != http.StatusForbidden {
		t.Fatalf("from another host without a token: %d %s", w.Code, w.Body)
	}
	if w := serve(open, "GET", "/goals/g1/screen", "192.0.2.1:1234", ""); w.Code != http.StatusForbidden {
		t.Fatalf("screen from another host without a token: %d", w.Code)
	}
	if w := serve(open, "POST", "/goals/g1/act", "127.0.0.1:1234", "http://evil.example"); w.Code != http.StatusForbidden {
		t.Fatalf("from another site's page: %d", w.Code)
	}
	if w := serve(open, "POST", "/goals/g1/act", "127.0.0.1:1234", "http://example.com"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "tapped (5, 6)") {
		t.Fatalf("from this host's own page: %d %s", w.Code, w.Body)
	}
	tok := Handler(Options{TakeOver: f, Token: "s3"})
	if w := serve(tok, "POST", "/goals/g1/act", "192.0.2.1:1234", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("without the token: %d", w.Code)
	}
	if w := serve(tok, "POST", "/goals/g1/act?token=s3", "192.0.2.1:1234", ""); w.Code != http.StatusOK {
		t.Fatalf("with the token: %d %s", w.Code, w.Body)
	}
	if len(f.acted) != 2 {
		t.Fatalf("acted %v, want the two allowed requests", f.acted)
	}
}

// A question that asks for words gets an answer box and no Continue: only
// the person's words answer it, and they reach the goal as typed. A
// question that asks for work on the phone gets Continue beside the box;
// an approval gets Approve and no box.
func TestAnswerBoxForAQuestion(t *testing.T) {
	cases := []struct {
		name      string
		st        workflows.Status
		box, cont bool
		label     string
	}{
		{"words", workflows.Status{Phase: workflows.GoalWaitingUser, PendingQuestion: "What should the message say?", QuestionKind: workflows.QuestionClarify}, true, false, ""},
		{"no kind", workflows.Status{Phase: workflows.GoalWaitingUser, PendingQuestion: "Which of the two Alices?"}, true, false, ""},
		{"take over", workflows.Status{Phase: workflows.GoalWaitingUser, PendingQuestion: "Please sign in to the bank app yourself", QuestionKind: workflows.QuestionTakeOver}, true, true, "Continue: I did it on the phone"},
		{"approval", workflows.Status{Phase: workflows.GoalWaitingUser, PendingApproval: &workflows.Approval{Action: "Tap Send", Reason: "sends the message"}}, false, true, "Approve"},
		{"paused", workflows.Status{Phase: workflows.GoalPaused, Paused: true}, false, true, "Resume"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mc := &mocks.Client{}
			runningGoal(t, mc, "goal-q", workflows.GoalWaitingUser)
			mc.On("QueryWorkflow", mock.Anything, "goal-q", "", workflows.QueryStatus).Return(statusValue(t, c.st), nil)
			page := getPage(t, Options{Reader: &Reader{Client: mc}, TakeOver: &fakeTakeOver{}}, "/goals/goal-q")
			if strings.Contains(page, `<section id="takeover" data-ask-kind="`+AskOf(c.st).Kind+`" hidden`) {
				t.Fatalf("the panel is hidden while the goal asks:\n%s", page)
			}
			if box := strings.Contains(page, `<form id="takeover-answer">`); box != c.box {
				t.Errorf("answer box shown = %v, want %v:\n%s", box, c.box, page)
			}
			cont := strings.Contains(page, `<button id="takeover-continue" type="button"><b>`)
			if cont != c.cont || (c.cont && !strings.Contains(page, "<b>"+c.label+"</b>")) {
				t.Errorf("Continue shown = %v, want %v labelled %q:\n%s", cont, c.cont, c.label, page)
			}
			if q := c.st.PendingQuestion; q != "" && !strings.Contains(page, `<div id="takeover-asks" class="note question">`+q+`</div>`) {
				t.Errorf("the panel does not say the question:\n%s", page)
			}
		})
	}

	f := &fakeTakeOver{}
	h := Handler(Options{TakeOver: f})
	post := func(body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/goals/goal-q/answer", strings.NewReader(body))
		r.RemoteAddr = "127.0.0.1:1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	b, _ := json.Marshal(map[string]string{"text": "Alice Chen: on my way, see you at 9"})
	if w := post(string(b)); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "answered") {
		t.Fatalf("answer: %d %s", w.Code, w.Body)
	}
	if w := post(`{"text":"  "}`); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "empty") {
		t.Fatalf("an empty answer: %d %s", w.Code, w.Body)
	}
	if w := post(`not json`); w.Code != http.StatusBadRequest {
		t.Fatalf("a body that is not JSON: %d %s", w.Code, w.Body)
	}
	if len(f.answered) != 1 || f.answered[0] != "goal-q Alice Chen: on my way, see you at 9" {
		t.Fatalf("answers that reached the goal: %q", f.answered)
	}
}
