package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// browser starts a headless Chromium with a fresh profile, or skips the
// test when none is installed (fails instead under
// PHONEFLOW_REQUIRE_BROWSER=1, which CI sets).
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		msg := "no Chromium found (apt-get install chromium): skipping the step viewer's browser test"
		if os.Getenv("PHONEFLOW_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg + ", but PHONEFLOW_REQUIRE_BROWSER=1 requires it")
		}
		t.Skip(msg)
	}
	// The profile is not a t.TempDir: Chromium's helper processes may still
	// write into it for a moment after the browser is stopped, and a
	// TempDir that cannot be removed fails the test.
	profile, err := os.MkdirTemp("", "phoneflow-browser-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1300, 1400),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("browser profile %s left behind: still in use", profile)
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// historyThinking lists, per todo workflow, the thinking and action of
// each Step activity as history records them.
func historyThinking(t *testing.T, env *demo.Env, ids []string) map[string][][2]string {
	t.Helper()
	out := map[string][][2]string{}
	dc := converter.GetDefaultDataConverter()
	for _, id := range ids {
		h, err := history(env.Client, id)
		if err != nil {
			t.Fatal(err)
		}
		steps := map[int64]bool{}
		for _, ev := range h.Events {
			switch ev.GetEventType() {
			case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
				steps[ev.GetEventId()] = ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() == activities.NameStep
			case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
				a := ev.GetActivityTaskCompletedEventAttributes()
				if !steps[a.GetScheduledEventId()] {
					continue
				}
				var res activities.StepResult
				if err := dc.FromPayloads(a.GetResult(), &res); err != nil {
					t.Fatal(err)
				}
				var th, act string
				if res.Think != nil && res.Think.Response != nil {
					th, act = res.Think.Response.Thinking, res.Think.Action
				}
				out[id] = append(out[id], [2]string{th, act})
			}
		}
	}
	return out
}

// stepCheck is what the page says about its steps, read in the browser.
type stepCheck struct {
	Todo     string  `json:"todo"`
	Thinking string  `json:"thinking"`
	Action   string  `json:"action"`
	Width    float64 `json:"width"` // natural width of the screenshot
	Marks    int     `json:"marks"`
	Inside   int     `json:"inside"` // markers whose centre lies inside the image
}

const readSteps = `Array.from(document.querySelectorAll("article.step")).map(function (a) {
  var img = a.querySelector(".shot img"), r = img ? img.getBoundingClientRect() : null;
  var marks = Array.from(a.querySelectorAll(".mark")), inside = 0;
  marks.forEach(function (m) {
    var b = m.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
    if (r && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) inside++;
  });
  var text = function (sel) { var e = a.querySelector(sel); return e ? e.textContent : ""; };
  return {todo: a.closest("section").dataset.todo, thinking: text(".thinking"), action: text("code.action"),
    width: img && img.complete ? img.naturalWidth : 0, marks: marks.length, inside: inside};
})`

// The viewer in a real browser: a running goal's page gains steps without
// a reload; on the finished page every step's screenshot loads, every tap
// marker lies on its screenshot, and the thinking and actions are the ones
// in history. The Web UI's details of the goal link to the page.
func TestViewerInBrowser(t *testing.T) {
	bctx := browser(t)
	env, g := stack(t, "")
	base := serveViewer(t, env, g)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: demo.Showcase, Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	// Paused before its first device action, the goal shows few steps.
	if err := g.Send(ctx, id, workflows.SignalPause, nil, false); err != nil {
		t.Fatal(err)
	}
	page := viewer.URL(base, id)
	bctx, bcancel := context.WithTimeout(bctx, 4*time.Minute)
	defer bcancel()
	var before int
	if err := chromedp.Run(bctx,
		chromedp.Navigate(page),
		chromedp.WaitVisible("#goal", chromedp.ByQuery),
		chromedp.Evaluate(`window.notReloaded = true; document.querySelectorAll("article.step").length`, &before),
	); err != nil {
		t.Fatal(err)
	}
	if err := g.Send(ctx, id, workflows.SignalResume, nil, false); err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, g, id, 4*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s", res.Status, res.Reason)
	}
	// The open page picks the rest up by itself.
	var live string
	var after int
	var kept bool
	if err := chromedp.Run(bctx,
		chromedp.Poll(`document.body.dataset.live === "0"`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Evaluate(`document.querySelectorAll("article.step").length`, &after),
		chromedp.Evaluate(`window.notReloaded === true`, &kept),
		chromedp.Evaluate(`document.getElementById("goal-status").textContent`, &live),
	); err != nil {
		t.Fatal(err)
	}
	if after <= before || !kept || live != workflows.GoalDone {
		t.Fatalf("running page: %d steps before, %d after, not reloaded %v, status %q", before, after, kept, live)
	}

	// The finished page, loaded afresh.
	var steps []stepCheck
	if err := chromedp.Run(bctx,
		chromedp.Navigate(page),
		chromedp.WaitVisible("article.step", chromedp.ByQuery),
		chromedp.Poll(`Array.from(document.images).every(function (i) { return i.complete; })`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Evaluate(readSteps, &steps),
	); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, todo := range res.Todos {
		ids = append(ids, fmt.Sprintf("%s/todo-%d", id, todo.Index))
	}
	want := historyThinking(t, env, ids)
	n := 0
	for _, id := range ids {
		n += len(want[id])
	}
	if len(steps) != n || after != n {
		t.Fatalf("page shows %d steps (live page %d), history has %d Step activities", len(steps), after, n)
	}
	seen := map[string]int{}
	marks := 0
	for _, s := range steps {
		i := seen[s.Todo]
		seen[s.Todo]++
		if s.Width <= 0 {
			t.Errorf("%s step %d: screenshot did not load", s.Todo, i+1)
		}
		if s.Inside != s.Marks {
			t.Errorf("%s step %d: %d of %d markers inside the screenshot", s.Todo, i+1, s.Inside, s.Marks)
		}
		marks += s.Marks
		if w := want[s.Todo]; i >= len(w) || w[i][0] != s.Thinking || w[i][1] != s.Action {
			t.Errorf("%s step %d: page says %q / %q, history %v", s.Todo, i+1, s.Thinking, s.Action, want[s.Todo])
		}
	}
	if marks == 0 {
		t.Error("no tap markers on the page")
	}
	if out := os.Getenv("PHONEFLOW_VIEWER_SCREENSHOT"); out != "" {
		var png []byte
		if err := chromedp.Run(bctx, chromedp.FullScreenshot(&png, 100)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The Web UI: the goal's User Metadata tab carries the link.
	var href string
	err = chromedp.Run(bctx,
		chromedp.Navigate(g.WebURL(id)),
		chromedp.Poll(`(function () {
  var tab = Array.from(document.querySelectorAll("a,button")).find(function (e) { return /User Metadata/i.test(e.textContent); });
  if (tab && !window.clickedMeta) { tab.click(); window.clickedMeta = true; }
  // The details markdown may be rendered inside a sandboxed frame.
  var docs = [document];
  Array.from(document.querySelectorAll("iframe")).forEach(function (f) {
    try { if (f.contentDocument) docs.push(f.contentDocument); } catch (e) {}
    if (f.srcdoc) docs.push(new DOMParser().parseFromString(f.srcdoc, "text/html"));
  });
  for (var i = 0; i < docs.length; i++) {
    var a = Array.from(docs[i].querySelectorAll("a")).find(function (e) { return (e.getAttribute("href") || "").indexOf("/goals/") >= 0; });
    if (a) return a.getAttribute("href");
  }
  return false;
})()`, &href, chromedp.WithPollingTimeout(90*time.Second)),
	)
	if err != nil {
		var body string
		_ = chromedp.Run(bctx, chromedp.Evaluate(`document.body.innerText.slice(0, 1500) + "\n--- frames: " + Array.from(document.querySelectorAll("iframe")).map(function (f) { return (f.srcdoc || f.src).slice(0, 500); }).join(" | ")`, &body))
		t.Fatalf("no step viewer link in the Web UI's details: %v\n%s", err, body)
	}
	if !strings.HasPrefix(href, page) {
		t.Fatalf("Web UI links to %q, want the viewer page %s", href, page)
	}
}
