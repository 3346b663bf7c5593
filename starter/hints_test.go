package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/workflows"
)

// runDialing runs the CLI like main and returns its output and the
// configuration each command dialed Temporal with.
func runDialing(t *testing.T, mc *mocks.Client, dialed *[]config.Config, args ...string) string {
	t.Helper()
	old := dialTemporal
	dialTemporal = func(_ context.Context, cfg config.Config) (client.Client, error) {
		*dialed = append(*dialed, cfg)
		return mc, nil
	}
	t.Cleanup(func() { dialTemporal = old })
	root := &cobra.Command{Use: "starter", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(newRunCmd(), newStatusCmd(), newCancelCmd())
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%q: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// The commands run --detach prints reach the cluster the goal was started
// on when they are pasted: each is run here as printed and dials the same
// address and namespace.
func TestPrintedHintsReachTheSameCluster(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, flags := range [][]string{
		{"--temporal-port", "7999"},
		{"--temporal-port", "7999", "--temporal-ui-port", "9123"},
		{"--temporal-address", "10.1.2.3:7233", "--namespace", "phones"},
	} {
		mc := mocks.NewClient(t)
		mc.On("Close").Return().Maybe()
		servedPhones(mc)
		emptyFleet(mc)
		// The goal's ID is the one run chose and printed; the hints must
		// reach it, whatever it is.
		run := mocks.NewWorkflowRun(t)
		run.On("GetID").Return("goal-1").Maybe()
		run.On("GetRunID").Return("r").Maybe()
		mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, mock.Anything, mock.Anything).Return(run, nil)
		mc.On("DescribeWorkflowExecution", mock.Anything, mock.Anything, "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
			WorkflowExecutionInfo: execInfo(t, "goal-1", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, "running")}, nil).Maybe()
		mc.On("CancelWorkflow", mock.Anything, mock.Anything, "").Return(nil).Maybe()
		mc.On("QueryWorkflow", mock.Anything, mock.Anything, "", workflows.QueryStatus).Return(value(t, workflows.Status{Phase: "running", MaxSteps: 100}), nil).Maybe()
		mc.On("QueryWorkflow", mock.Anything, mock.Anything, "", workflows.QueryTodos).Return(value(t, []workflows.TodoState{}), nil).Maybe()
		var dialed []config.Config
		out := runDialing(t, mc, &dialed, append([]string{"run", "--detach", "--device", "d", "Turn on Wi-Fi"}, flags...)...)
		hints := regexp.MustCompile("`starter ([^`]+)`").FindAllStringSubmatch(out, -1)
		if len(hints) != 2 {
			t.Fatalf("%q: want the follow and cancel hints:\n%s", flags, out)
		}
		for _, h := range hints {
			args := strings.Fields(h[1])
			if args[0] == "status" {
				// -f would follow the mock forever; the connection is what
				// is checked.
				args = slices.DeleteFunc(args, func(a string) bool { return a == "-f" })
			}
			runDialing(t, mc, &dialed, args...)
			first, last := dialed[0], dialed[len(dialed)-1]
			if uiAddress(last, "") != uiAddress(first, "") {
				t.Errorf("%q: `starter %s` links the Web UI at %s, the goal's is at %s", flags, h[1], uiAddress(last, ""), uiAddress(first, ""))
			}
			if temporalAddress(last) != temporalAddress(first) || last.Temporal.Namespace != first.Temporal.Namespace {
				t.Errorf("%q: `starter %s` dials %s/%s, the goal was started on %s/%s", flags, h[1],
					temporalAddress(last), last.Temporal.Namespace, temporalAddress(first), first.Temporal.Namespace)
			}
		}
	}
}

// With no worker answering, the step viewer line names no address: the
// viewer is the one of the worker that serves the phone, not this host's.
func TestViewerLineGuessesNoAddress(t *testing.T) {
	for _, c := range []struct {
		link     string
		answered bool
		want     string
	}{
		{"http://10.0.0.9:9500/goals/g", true, "Step viewer: http://10.0.0.9:9500/goals/g"},
		{"", true, "serves no viewer"},
		{"", false, "no worker answered"},
	} {
		got := viewerLine(c.link, c.answered)
		if !strings.Contains(got, c.want) || (c.link == "" && strings.Contains(got, "http")) {
			t.Errorf("viewerLine(%q, %v) = %q, want %q and no guessed link", c.link, c.answered, got, c.want)
		}
	}
}
