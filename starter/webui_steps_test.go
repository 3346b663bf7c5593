package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestStatusAndWebUIAgreeMidTodo runs a goal on the demo's embedded server
// and phone and, while its todo waits for an approval, then while it is
// paused, and once it has ended, reads the step count two ways: `starter
// status` as printed, and the goal's Current Details as the Web UI reads
// them (its server's metadata query). They must agree, with the running
// todo's steps counted (docs/design.md §2).
func TestStatusAndWebUIAgreeMidTodo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the embedded Temporal server; skipped with -short")
	}
	cfg := config.Default()
	cfg.Temporal.Embedded.Port = devserver.AnyPort // the Web UI gets a free port too
	logger := stacktest.Logger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	env, err := demo.Start(ctx, demo.Options{
		Config: cfg, DataDir: t.TempDir(), BuiltinADB: true, Logger: logger,
		Dial: app.Dialer(logger), Worker: app.WorkerRunner(logger),
	})
	if err != nil {
		t.Fatalf("start the demo: %v", err)
	}
	t.Cleanup(env.Stop)
	ns := env.Config.Temporal.Namespace
	goals := goalctl.New(env.Client, goalctl.Options{Namespace: ns, UIAddress: env.Server.UIURL()})
	// A tap the executor asks to approve holds the todo mid-way.
	id, _, err := goals.Start(ctx, goalctl.StartRequest{Goal: "Tap Sign in in the bank app", Device: env.Serial,
		Options: workflows.GoalOptions{Mode: workflows.ModeSingle}})
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // no phoneflow.yaml
	t.Setenv("HOME", t.TempDir())
	status := func() string {
		t.Helper()
		root := &cobra.Command{Use: "starter", SilenceUsage: true, SilenceErrors: true}
		root.AddCommand(newStatusCmd())
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs([]string{"status", id, "--temporal-address", env.Server.FrontendAddr(), "--namespace", ns})
		if err := root.ExecuteContext(ctx); err != nil {
			t.Fatalf("starter status: %v\n%s", err, out.String())
		}
		return out.String()
	}
	// agree waits until `starter status` and the Web UI show the same goal
	// counter and the same count on the todo's line, at least min, and
	// returns the counter.
	agree := func(what string, min int) int {
		t.Helper()
		var cli, web string
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			cli, web = status(), webUIDetails(t, env.Server.UIURL(), ns, id)
			cg, ct := count(cli, `step (\d+)/\d+`), count(cli, `\] 1\. .*\((\d+) steps?\)`)
			wg, wt := count(web, `· steps (\d+)/\d+`), count(web, `(?m)^- \[.\] 1\. .*, (\d+) steps?`)
			if cg >= min && cg == wg && ct == wt {
				t.Logf("%s: both show step %d, the todo at %d", what, cg, ct)
				return cg
			}
		}
		t.Fatalf("%s: `starter status` and the Web UI never agreed:\n--- starter status\n%s\n--- Web UI Current Details\n%s", what, cli, web)
		return 0
	}

	stacktest.WaitStatus(t, goals, id, 4*time.Minute, func(st workflows.Status) bool { return st.PendingApproval != nil })
	asked := agree("waiting for the approval", 1)
	// Paused as the approval comes: the approved tap counts, then the todo
	// holds before it reaches the phone.
	if err := goals.Send(ctx, id, workflows.SignalPause, nil, false); err != nil {
		t.Fatal(err)
	}
	if err := goals.Send(ctx, id, workflows.SignalApprove, workflows.ApproveInput{Approved: true}, false); err != nil {
		t.Fatal(err)
	}
	stacktest.WaitStatus(t, goals, id+"/todo-1", time.Minute, func(st workflows.Status) bool { return st.Paused && st.PendingApproval == nil })
	agree("paused after the approval", asked+1)
	if err := goals.Send(ctx, id, workflows.SignalResume, nil, false); err != nil {
		t.Fatal(err)
	}
	// The executor may ask for more taps; approve each until the goal ends.
	var res workflows.GoalResult
	for {
		rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
		res, err = goals.Result(rctx, id)
		rcancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the goal did not end: %v", err)
		}
		if st, err := goals.Status(ctx, id); err == nil && st.PendingApproval != nil {
			if err := goals.Send(ctx, id, workflows.SignalApprove, workflows.ApproveInput{Approved: true}, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := count(webUIDetails(t, env.Server.UIURL(), ns, id), `· steps (\d+)/\d+`); got != res.Steps {
		t.Fatalf("the ended goal's details show steps %d, its result %d", got, res.Steps)
	}
}

// count reads the first number the pattern's group matches in s, or -1.
func count(s, pattern string) int {
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// webUIDetails asks the Web UI's server for a workflow's metadata, as its
// User Metadata tab does, and returns the Current Details.
func webUIDetails(t *testing.T, uiURL, ns, id string) string {
	t.Helper()
	body := []byte(`{"execution":{"workflowId":` + strconv.Quote(id) + `},"query":{"queryType":"__temporal_workflow_metadata"}}`)
	u := uiURL + "/api/v1/namespaces/" + url.PathEscape(ns) + "/workflows/" + url.PathEscape(id) + "/query/__temporal_workflow_metadata"
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	// The UI's server wants its CSRF token as a cookie and a header.
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", "phoneflow-test")
	req.AddCookie(&http.Cookie{Name: "_csrf", Value: "phoneflow-test"})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the Web UI's metadata query: %s %v\n%s", resp.Status, err, raw)
	}
	var qr workflowservice.QueryWorkflowResponse
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(raw, &qr); err != nil {
		t.Fatalf("the Web UI's answer: %v\n%s", err, raw)
	}
	var md sdkpb.WorkflowMetadata
	if err := converter.GetDefaultDataConverter().FromPayloads(qr.GetQueryResult(), &md); err != nil {
		t.Fatalf("the Web UI's answer: %v\n%s", err, raw)
	}
	if !strings.Contains(md.GetCurrentDetails(), "steps ") {
		t.Fatalf("no step counter in the Web UI's details:\n%s", md.GetCurrentDetails())
	}
	return md.GetCurrentDetails()
}
