package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	enumspb "go.temporal.io/api/enums/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// bankCodeRe reads the Bank's sign-in SMS.
var bankCodeRe = regexp.MustCompile(`sign-in code is (\d{4,8})`)

// A person takes over in a real browser (docs/design.md §7): a goal that
// needs a sign-in asks; on the goal's page the person clicks the Bank's
// fields on the live screen, types the password and the SMS code, taps the
// buttons and presses Continue; the goal ends done with the phone signed
// in, history has each action as the person's and never the typed text,
// and the page lists them. The same page reads the goal's live event
// stream with EventSource: the question arrives while the goal still
// waits, every event once, and a reconnect with Last-Event-ID repeats none.
func TestTakeOverInBrowser(t *testing.T) {
	bctx := browser(t)
	env, g := stack(t, "")
	base := serveViewer(t, env, g)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: "Sign in to the bank app", Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	bctx, bcancel := context.WithTimeout(bctx, 4*time.Minute)
	defer bcancel()
	page := viewer.URL(base, id)
	// The stream is opened before the goal asks anything.
	if err := chromedp.Run(bctx,
		chromedp.Navigate(page),
		chromedp.WaitReady("#goal", chromedp.ByQuery),
		chromedp.Evaluate(`window.got = []; window.opens = 0;
var es = new EventSource(location.pathname + "/events?follow=1");
es.onopen = function () { window.opens++; };
es.onmessage = function (m) { var e = JSON.parse(m.data); window.got.push({id: m.lastEventId, type: e.type, text: e.text || ""}); };
true`, nil),
	); err != nil {
		t.Fatal(err)
	}
	var asks string
	if err := chromedp.Run(bctx,
		chromedp.WaitVisible("#takeover", chromedp.ByQuery),
		chromedp.Poll(`Number(document.getElementById("live-screen").dataset.frames || "0") >= 1`, nil, chromedp.WithPollingTimeout(60*time.Second)),
		chromedp.Text("#takeover-asks", &asks, chromedp.ByQuery),
	); err != nil {
		var why string
		_ = chromedp.Run(bctx, chromedp.Evaluate(`fetch(location.pathname + "/screen").then(function (r) { return r.text().then(function (t) { return r.status + " " + t.slice(0, 300); }); })`, &why,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		t.Fatalf("the page offers no take-over: %v (the screen answers %s)", err, why)
	}
	if !strings.Contains(strings.ToLower(asks), "sign in") {
		t.Fatalf("the take-over panel says %q, want the goal's sign-in question", asks)
	}
	var liveQuestion bool
	if err := chromedp.Run(bctx, chromedp.Poll(`window.got.some(function (e) { return e.type === "question"; })`, &liveQuestion,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the event stream did not bring the question while the goal waits: %v", err)
	}

	// The person reads the phone's screen: where things are comes from
	// the phone's own element list, as a person's eyes would find them.
	done := 0
	tap := func(match func(uitree.Element) bool, what string) {
		t.Helper()
		var el *uitree.Element
		for _, e := range env.Phone.UITree() {
			if match(e) {
				el = &e
				break
			}
		}
		if el == nil {
			t.Fatalf("no %s on the phone's screen", what)
		}
		x, y := (el.Bounds.X1+el.Bounds.X2)/2, (el.Bounds.Y1+el.Bounds.Y2)/2
		var at [2]float64
		if err := chromedp.Run(bctx, chromedp.Evaluate(fmt.Sprintf(`(function () {
  var img = document.getElementById("live-screen"), r = img.getBoundingClientRect();
  return [r.left + %d * r.width / img.naturalWidth, r.top + %d * r.height / img.naturalHeight];
})()`, x, y), &at)); err != nil {
			t.Fatal(err)
		}
		done++
		if err := chromedp.Run(bctx,
			chromedp.MouseClickXY(at[0], at[1], chromedp.ButtonType(input.Left)),
			chromedp.Poll(fmt.Sprintf(`Number(document.getElementById("takeover").dataset.done || "0") >= %d || Number(document.getElementById("takeover").dataset.errors || "0") > 0`, done), nil,
				chromedp.WithPollingTimeout(60*time.Second)),
		); err != nil {
			t.Fatalf("tap on %s: %v", what, err)
		}
		checkNoErrors(t, bctx)
	}
	typeText := func(text string) {
		t.Helper()
		done++
		if err := chromedp.Run(bctx,
			chromedp.SendKeys("#takeover-text", text, chromedp.ByQuery),
			chromedp.Click("#takeover-type", chromedp.ByQuery),
			chromedp.Poll(fmt.Sprintf(`Number(document.getElementById("takeover").dataset.done || "0") >= %d || Number(document.getElementById("takeover").dataset.errors || "0") > 0`, done), nil,
				chromedp.WithPollingTimeout(60*time.Second)),
		); err != nil {
			t.Fatalf("type: %v", err)
		}
		checkNoErrors(t, bctx)
	}
	byID := func(id string) func(uitree.Element) bool {
		return func(e uitree.Element) bool { return strings.HasSuffix(e.ResourceID, id) }
	}
	const password = "Tr0ub4dor&3"
	if byIDOn(env, "password") == nil {
		tap(byID("sign_in_button"), "Sign in button")
	}
	tap(byID("password"), "password field")
	typeText(password)
	tap(byID("continue_button"), "Continue button")
	code := bankCode(t, env)
	tap(byID("sms_code"), "code field")
	typeText(code)
	tap(byID("verify_button"), "Verify button")
	if !env.Phone.State().BankSignedIn {
		t.Fatal("the person's actions did not sign the phone in")
	}
	var still bool
	if err := chromedp.Run(bctx, chromedp.Evaluate(`!document.getElementById("takeover").hidden`, &still)); err != nil || !still {
		t.Fatalf("the take-over panel closed before Continue (%v)", err)
	}
	if err := chromedp.Run(bctx, chromedp.Click("#takeover-continue", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, g, id, 3*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s", res.Status, res.Reason)
	}
	if !liveQuestion {
		t.Fatal("no question in the live stream")
	}

	// History: each action is a PersonAct run by the goal, by the person;
	// neither the password nor the code is anywhere in the goal's or its
	// todos' histories.
	h, err := history(env.Client, id)
	if err != nil {
		t.Fatal(err)
	}
	var did []string
	for _, ev := range h.Events {
		if ev.GetEventType() != enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED {
			continue
		}
		ps := ev.GetActivityTaskCompletedEventAttributes().GetResult().GetPayloads()
		var r activities.PersonActResult
		if len(ps) == 1 && json.Unmarshal(ps[0].GetData(), &r) == nil && r.By == "person" {
			did = append(did, r.Did)
		}
	}
	// Sign in (when the executor had not opened the form), the field,
	// the password, Continue, the code field, the code, Verify.
	if len(did) < 6 {
		t.Fatalf("history has the person's actions %q, want at least 6", did)
	}
	typed := 0
	for _, d := range did {
		if strings.HasPrefix(d, "typed ") {
			typed++
		}
	}
	if typed != 2 || !contains(did, "typed 11 characters") || !contains(did, "typed 6 characters") {
		t.Fatalf("history has the person's actions %q: want the password as typed 11 characters and the code as typed 6", did)
	}
	for _, wid := range append([]string{id}, todoIDs(res, id)...) {
		hh, err := history(env.Client, wid)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := protojson.Marshal(hh)
		for _, secret := range []string{password, code} {
			if strings.Contains(string(raw), secret) || strings.Contains(string(raw), jsonEscaped(secret)) {
				t.Errorf("history of %s holds typed text %q", wid, secret)
			}
		}
	}

	// The finished page lists the person's actions as the person's.
	var notes []string
	if err := chromedp.Run(bctx,
		chromedp.Navigate(page),
		chromedp.WaitVisible("#goal", chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll(".note.person")).map(function (n) { return n.textContent; })`, &notes),
	); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(notes, "\n")
	if len(notes) != len(did) || !strings.Contains(text, "the person typed 11 characters") || strings.Contains(text, password) {
		t.Fatalf("page shows the person's actions as\n%s\nwant %d of them, the password redacted", text, len(did))
	}

	// The stream, read in the page the whole time: every event of the
	// goal once, the person's included, and after it ended and the
	// browser reconnected with Last-Event-ID, nothing twice.
	if err := chromedp.Run(bctx,
		chromedp.Navigate(page),
		chromedp.WaitVisible("#goal", chromedp.ByQuery),
		chromedp.Evaluate(`window.got = []; window.opens = 0;
var es = new EventSource(location.pathname + "/events?follow=1");
es.onopen = function () { window.opens++; };
es.onmessage = function (m) { var e = JSON.parse(m.data); window.got.push({id: m.lastEventId, type: e.type, text: e.text || ""}); };
true`, nil),
		chromedp.Poll(`window.opens >= 2`, nil, chromedp.WithPollingTimeout(60*time.Second)),
	); err != nil {
		t.Fatalf("the browser did not reconnect to the ended stream: %v", err)
	}
	type got struct{ ID, Type, Text string }
	var evs []got
	if err := chromedp.Run(bctx, chromedp.Evaluate(`window.got`, &evs)); err != nil {
		t.Fatal(err)
	}
	gl, err := (&viewer.Reader{Client: env.Client}).Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	all := viewer.Events(gl, "")
	seen := map[string]int{}
	for _, e := range evs {
		seen[e.ID]++
	}
	for _, e := range all {
		if seen[e.ID()] != 1 {
			t.Errorf("event %s %q came %d times over the stream, want once", e.Type, e.Text, seen[e.ID()])
		}
	}
	if len(evs) != len(all) {
		t.Errorf("stream brought %d events, the goal has %d", len(evs), len(all))
	}
	persons := 0
	for _, e := range evs {
		if e.Type == "person" {
			persons++
		}
	}
	if persons != len(did) || evs[len(evs)-1].Type != workflows.GoalDone {
		t.Errorf("stream: %d person events (history %d), last event %q", persons, len(did), evs[len(evs)-1].Type)
	}
}

// checkNoErrors fails when the take-over panel reported an action it
// could not take.
func checkNoErrors(t *testing.T, bctx context.Context) {
	t.Helper()
	var msg string
	if err := chromedp.Run(bctx, chromedp.Evaluate(`document.getElementById("takeover").dataset.errors ? document.getElementById("takeover-log").textContent : ""`, &msg)); err != nil {
		t.Fatal(err)
	}
	if msg != "" {
		t.Fatalf("the step viewer refused the action: %s", msg)
	}
}

func byIDOn(env *demo.Env, id string) *uitree.Element {
	for _, e := range env.Phone.UITree() {
		if strings.HasSuffix(e.ResourceID, id) {
			return &e
		}
	}
	return nil
}

// bankCode reads the Bank's SMS code from the phone's notifications, as
// the person reads it on the phone.
func bankCode(t *testing.T, env *demo.Env) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := device.NewPool(adb.New(adb.Config{Addr: env.ADBAddr}), device.PoolOptions{}).Get(ctx, env.Serial)
	if err != nil {
		t.Fatal(err)
	}
	lister, ok := d.(interface {
		Notifications(context.Context) ([]device.Notification, error)
	})
	if !ok {
		t.Fatal("the phone lists no notifications")
	}
	ns, err := lister.Notifications(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(ns) - 1; i >= 0; i-- {
		if m := bankCodeRe.FindStringSubmatch(ns[i].Text); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no Bank code among the phone's notifications: %+v", ns)
	return ""
}

func todoIDs(res workflows.GoalResult, id string) []string {
	var out []string
	for _, todo := range res.Todos {
		out = append(out, fmt.Sprintf("%s/todo-%d", id, todo.Index))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonEscaped is s as it appears inside a JSON string.
func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}
