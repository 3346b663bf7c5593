package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// serveViewer serves the step viewer of env on a loopback listener bound
// here and returns its base URL.
func serveViewer(t *testing.T, env *demo.Env, g *goalctl.Client) string {
	t.Helper()
	vo, err := app.ViewerOptions(env.Config, env.Client, g.WebURL, stacktest.Logger(t))
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	app.MountViewer(mux, l.Addr().String(), vo)
	saved := workflows.ViewerLink
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close(); workflows.ViewerLink = saved })
	return "http://" + l.Addr().String()
}

// stepSummaries lists the summaries of a workflow's Step activities, in
// the order they were scheduled.
func stepSummaries(t *testing.T, env *demo.Env, id string) []string {
	t.Helper()
	h, err := history(env.Client, id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range h.Events {
		if ev.GetEventType() != enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED ||
			ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() != activities.NameStep {
			continue
		}
		var s string
		if err := converter.GetDefaultDataConverter().FromPayload(ev.GetUserMetadata().GetSummary(), &s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func get(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, resp.Status, b)
	}
	return b
}

// The showcase goal's events, followed while it runs, are valid JSON lines
// ending with done, and their step events are the Step activities of the
// todos' histories, one for one and in order. The viewer page of the
// finished goal shows every step with a screenshot that decodes and a
// marker inside it, and the goal's status links to it.
func TestViewerAndEventsOfShowcase(t *testing.T) {
	env, g := stack(t, "")
	base := serveViewer(t, env, g)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: demo.Showcase, Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	dc, _ := app.DataConverter(env.Config)
	r := &viewer.Reader{Client: env.Client, DataConverter: dc}
	// The live stream, read while the goal runs, as a front end would.
	type streamed struct {
		ids []string
		err error
	}
	live := make(chan streamed, 1)
	go func() {
		var s streamed
		s.ids, s.err = sseIDs(ctx, base+"/goals/"+id+"/events?follow=1", "")
		live <- s
	}()
	var lines bytes.Buffer
	var mu sync.Mutex
	enc := json.NewEncoder(&lines)
	final, err := r.Follow(ctx, id, 200*time.Millisecond, viewer.URL(base, id), func(e viewer.Event) error {
		mu.Lock()
		defer mu.Unlock()
		return enc.Encode(e)
	})
	if err != nil {
		t.Fatal(err)
	}
	if final.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s", final.Status, final.Reason)
	}

	// Events: one valid JSON object per line, ending with done.
	var evs []viewer.Event
	for i, l := range strings.Split(strings.TrimSpace(lines.String()), "\n") {
		var e viewer.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, l)
		}
		evs = append(evs, e)
	}
	if last := evs[len(evs)-1]; last.Type != "done" || last.Steps != final.Steps {
		t.Fatalf("last event = %+v, want done with %d steps", last, final.Steps)
	}
	// The stream gave the same events, and one reconnecting after the
	// third gets the rest.
	var polled []string
	for _, e := range evs {
		polled = append(polled, e.ID())
	}
	s := <-live
	if s.err != nil || strings.Join(s.ids, " ") != strings.Join(polled, " ") {
		t.Fatalf("live stream: %v\n%q\npolled\n%q", s.err, s.ids, polled)
	}
	rest, err := sseIDs(ctx, base+"/goals/"+id+"/events?follow=1", polled[2])
	if err != nil || strings.Join(rest, " ") != strings.Join(polled[3:], " ") {
		t.Fatalf("reconnected after %s: %v\n%q\nwant\n%q", polled[2], err, rest, polled[3:])
	}
	types := map[string]int{}
	stepsOf := map[string][]string{}
	for _, e := range evs {
		types[e.Type]++
		if e.Type == "step" {
			stepsOf[e.WorkflowID] = append(stepsOf[e.WorkflowID], e.Summary)
			if e.ScreenRef == "" || !strings.Contains(e.ViewerURL, "#") {
				t.Errorf("step event without screenshot or link: %+v", e)
			}
		}
	}
	if types["plan"] != 1 || types["todo_started"] != 3 || types["todo_done"] != 3 || types["replanned"] < 2 {
		t.Errorf("event counts = %v", types)
	}
	total := 0
	for _, todo := range final.Todos {
		want := stepSummaries(t, env, todo.WorkflowID)
		if got := stepsOf[todo.WorkflowID]; strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: step events\n%q\nwant the Step activities in history\n%q", todo.WorkflowID, got, want)
		}
		total += len(want)
	}
	if types["step"] != total {
		t.Errorf("%d step events, %d Step activities", types["step"], total)
	}

	// The page: every step has a screenshot that decodes, and the tap
	// markers sit inside the image.
	page := string(get(t, viewer.URL(base, id)))
	cards := regexp.MustCompile(`<article class="step"`).FindAllStringIndex(page, -1)
	if len(cards) != total {
		t.Fatalf("page shows %d steps, history has %d Step activities", len(cards), total)
	}
	imgs := regexp.MustCompile(`<img src="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(imgs) != total {
		t.Fatalf("%d screenshots for %d steps", len(imgs), total)
	}
	for _, m := range imgs {
		cfg, _, err := image.DecodeConfig(bytes.NewReader(get(t, base+strings.ReplaceAll(m[1], "&amp;", "&"))))
		if err != nil || cfg.Width == 0 {
			t.Fatalf("screenshot %s: %v (width %d)", m[1], err, cfg.Width)
		}
	}
	marks := regexp.MustCompile(`left:([0-9.]+)%;top:([0-9.]+)%`).FindAllStringSubmatch(page, -1)
	if len(marks) == 0 {
		t.Fatal("no tap markers on the page")
	}
	for _, m := range marks {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		if x < 0 || x > 100 || y < 0 || y > 100 {
			t.Errorf("marker at %s%%,%s%% is outside the screenshot", m[1], m[2])
		}
	}
	for _, todo := range final.Todos {
		for _, s := range todo.Steps {
			if s.Thinking != "" && !strings.Contains(page, template(s.Thinking)) {
				t.Errorf("page lacks the thinking of %s step %d: %q", todo.WorkflowID, s.N, s.Thinking)
			}
		}
	}
	if !strings.Contains(page, fmt.Sprintf(`href="%s"`, g.WebURL(id))) {
		t.Error("page does not link to the Web UI")
	}
}

// template escapes s as html/template writes text.
func template(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// sseIDs reads a Server-Sent Events stream to its end and returns the
// events' IDs, each checked against the event it names; lastID, when set,
// is sent as Last-Event-ID.
func sseIDs(ctx context.Context, url, lastID string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		return nil, fmt.Errorf("%s, %s", resp.Status, ct)
	}
	var ids []string
	id := ""
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			var e viewer.Event
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e); err != nil {
				return ids, err
			}
			if e.ID() != id {
				return ids, fmt.Errorf("event %+v came with id %q", e, id)
			}
			ids = append(ids, id)
		}
	}
	return ids, sc.Err()
}

// The planner's question ("what should the message say?") is answered on
// the page in the person's words, never by Continue: the page shows the
// answer box and no Continue, the viewer refuses Continue, and the words
// typed are the message the goal sends. The index lists the goal on the
// embedded server, whose visibility store cannot sort.
func TestViewerAnswerBoxAndIndex(t *testing.T) {
	env, g := stack(t, "")
	base := serveViewer(t, env, g)
	ctx := context.Background()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: demo.AskGoal, Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStatus(t, g, id, 2*time.Minute, func(s workflows.Status) bool { return s.PendingQuestion != "" })
	if st.QuestionKind != workflows.QuestionClarify {
		t.Fatalf("the planner's question has kind %q, want %q", st.QuestionKind, workflows.QuestionClarify)
	}
	page := string(get(t, viewer.URL(base, id)))
	for _, want := range []string{`data-ask-kind="question"`, `<form id="takeover-answer">`, `<button id="takeover-continue" type="button" hidden>`,
		`id="goal-status">waiting_user<`, "waiting for your answer to: " + html.EscapeString(st.PendingQuestion)} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "No todo has started yet") {
		t.Errorf("the page says no todo started while the goal waits for an answer:\n%s", page)
	}
	index := string(get(t, base+viewer.Path))
	if !strings.Contains(index, `href="/goals/`+id+`"`) || !strings.Contains(index, "<td>waiting_user</td>") {
		t.Errorf("the index does not list the waiting goal:\n%s", index)
	}

	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(viewer.URL(base, id)+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("/continue", ""); code != http.StatusConflict || !strings.Contains(body, "only your words answer it") {
		t.Fatalf("Continue on a question for words: %d %s", code, body)
	}
	answer, _ := json.Marshal(map[string]string{"text": demo.AskExample})
	if code, body := post("/answer", string(answer)); code != http.StatusOK {
		t.Fatalf("answer: %d %s", code, body)
	}
	res := waitResult(t, g, id, 5*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s", res.Status, res.Reason)
	}
	sent := env.Phone.State().MessagesSent
	_, want, _ := strings.Cut(demo.AskExample, ": ")
	if len(sent) != 1 || sent[0].To != "Alice Chen" || sent[0].Text != want {
		t.Fatalf("messages sent = %+v, want the typed answer's %q to Alice Chen", sent, want)
	}
	index = string(get(t, base+viewer.Path))
	if !strings.Contains(index, `href="/goals/`+id+`"`) || !strings.Contains(index, "<td>done</td>") {
		t.Errorf("the index does not list the finished goal:\n%s", index)
	}
}
