package goalctl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/workflows"
)

// NewFanOutID returns a fresh fan-out ID, fanout-<8 hex digits>.
func NewFanOutID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "fanout-" + hex.EncodeToString(b[:])
}

// IsFanOutID reports whether id names a fan-out rather than a goal.
func IsFanOutID(id string) bool { return strings.HasPrefix(id, "fanout-") }

// FanOutOptions are the start options of a fan-out: the goal task queue,
// "each <selector>: goal" as its summary, the goal text as its memo, and
// the selector as its device search attribute, so `starter list` shows it
// beside its goals.
func FanOutOptions(id string, in workflows.FanOutInput) client.StartWorkflowOptions {
	so := StartOptions(id, in.Goal, "each "+in.On.String())
	so.StaticSummary = summary("each " + in.On.String() + ": " + in.Goal)
	return so
}

// StartFanOut starts in as fan-out id ("" = NewFanOutID()) and returns its ID.
func (g *Client) StartFanOut(ctx context.Context, id string, in workflows.FanOutInput) (string, error) {
	if in.On.Planner {
		return "", errors.New("a fan-out with --on planner: a fan-out runs on every phone of a kind, the planner chooses one; say which phones, e.g. --on label=shop")
	}
	if id == "" {
		id = NewFanOutID()
	}
	in.Options.Resolved = true
	so := FanOutOptions(id, in)
	so.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	so.WorkflowExecutionErrorWhenAlreadyStarted = true
	if _, err := g.c.ExecuteWorkflow(ctx, so, workflows.FanOutWorkflowName, in); err != nil {
		return "", fmt.Errorf("start fan-out %s: %w", id, err)
	}
	return id, nil
}

// FanOut returns a fan-out's status: its query while it runs, its result
// once it has ended; ended says which.
func (g *Client) FanOut(ctx context.Context, id string) (st workflows.FanOutStatus, ended bool, err error) {
	info, err := g.Describe(ctx, id)
	if err != nil {
		return st, false, err
	}
	if info.State == "running" {
		v, err := g.c.QueryWorkflow(ctx, id, "", workflows.QueryFanOut)
		if err != nil {
			return st, false, wrap(id, "fan-out status", err)
		}
		return st, false, v.Get(&st)
	}
	st, err = g.FanOutResult(ctx, id)
	return st, true, err
}

// FanOutResult waits for a fan-out to end and returns its summary, also
// of one that closed as Failed (its failure's details).
func (g *Client) FanOutResult(ctx context.Context, id string) (workflows.FanOutStatus, error) {
	var st workflows.FanOutStatus
	err := g.c.GetWorkflow(ctx, id, "").Get(ctx, &st)
	if st, err = workflows.FanOutOutcome(st, err); err != nil {
		return st, wrap(id, "fan-out result", err)
	}
	return st, nil
}

// RetryFailed starts a fan-out of the phones of ended fan-out id that did
// not end done, with the same goal and options, and returns its ID.
func (g *Client) RetryFailed(ctx context.Context, id string, parallel int) (string, workflows.FanOutInput, error) {
	st, ended, err := g.FanOut(ctx, id)
	if err != nil {
		return "", workflows.FanOutInput{}, err
	}
	if !ended {
		return "", workflows.FanOutInput{}, fmt.Errorf("fan-out %s is still running: retry its failed phones once it has ended (`starter status %s`)", id, id)
	}
	in := st.Input
	in.Serials, in.RetryOf = nil, id
	for _, p := range st.Phones {
		if p.Retry() {
			in.Serials = append(in.Serials, p.Serial)
		}
	}
	if len(in.Serials) == 0 {
		return "", in, errors.New("every phone of fan-out " + id + " ended done: nothing to retry")
	}
	if parallel > 0 {
		in.Parallel = parallel
	}
	nid, err := g.StartFanOut(ctx, "", in)
	return nid, in, err
}

// WriteFanOut prints a fan-out's status: one line per phone, a question
// or approval its goal waits for (asked of each running goal when live),
// and the counts.
func (g *Client) WriteFanOut(ctx context.Context, w io.Writer, id string, st workflows.FanOutStatus, live bool) {
	head := fmt.Sprintf("fan-out %s: %q on each %s, %s", id, st.Input.Goal, st.Input.On.Kind(), st.Phase)
	if st.Input.RetryOf != "" {
		head += " (a retry of " + st.Input.RetryOf + ")"
	}
	fmt.Fprintln(w, head)
	if st.Why != "" {
		fmt.Fprintln(w, "  "+st.Why)
	}
	for _, p := range st.Phones {
		line := "  " + p.String()
		if p.GoalID != "" {
			line += "  [" + p.GoalID + "]"
		}
		fmt.Fprintln(w, line)
		if p.Status == workflows.PhoneRunning && live {
			if s, err := g.Status(ctx, p.GoalID); err == nil {
				switch {
				case s.PendingQuestion != "":
					fmt.Fprintf(w, "    asks: %s (answer with `starter clarify %s \"…\"`)\n", s.PendingQuestion, p.GoalID)
				case s.PendingApproval != nil:
					fmt.Fprintf(w, "    waits for approval of %s (`starter approve %s`)\n", s.PendingApproval.Action, p.GoalID)
				case s.WaitingFor != "":
					fmt.Fprintf(w, "    %s\n", s.WaitingFor)
				}
			}
		}
	}
	fmt.Fprintf(w, "%s: %d done, %d failed, %d asked, %d unserved, %d cancelled, %d running, %d pending\n",
		phonesWord(len(st.Phones)), st.Count(workflows.PhoneDone), st.Count(workflows.PhoneFailed), st.Count(workflows.PhoneAsked),
		st.Count(workflows.PhoneUnserved), st.Count(workflows.PhoneCancelled), st.Count(workflows.PhoneRunning), st.Count(workflows.PhonePending))
	if st.Phase != "running" && st.Phase != "listing" && st.Phase != workflows.PhoneDone && len(st.Phones) > 0 {
		fmt.Fprintf(w, "retry the phones not done with `starter run --retry-failed %s`\n", id)
	}
}

// phonesWord is "1 phone" or "N phones".
func phonesWord(n int) string {
	if n == 1 {
		return "1 phone"
	}
	return fmt.Sprintf("%d phones", n)
}
