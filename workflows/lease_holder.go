package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

func (l *lease) dropHolder(ctx workflow.Context, why string) {
	workflow.GetLogger(ctx).Warn("device lease: dropping holder", "serial", l.st.Serial, "goal", l.st.Holder, "reason", why)
	l.retire(l.st.HolderRequest)
	l.st.Holder, l.st.HolderRequest, l.st.HeldSince, l.st.HolderRevocable = "", "", time.Time{}, false
	l.grantNext(ctx)
	l.details(ctx)
}

// checkHolder frees the phone when its holder is no longer running. When
// the answer cannot be had the holder keeps the phone: never two goals on
// one phone.
func (l *lease) checkHolder(ctx workflow.Context) {
	holder := l.st.Holder
	hs, err := l.describe(ctx, holder)
	if err != nil {
		workflow.GetLogger(ctx).Warn("device lease: cannot tell whether the holder runs; keeping it", "serial", l.st.Serial, "goal", holder, "error", err)
		return
	}
	switch {
	case l.st.Holder != holder:
	case !hs.Running:
		l.dropHolder(ctx, "holder closed without releasing ("+hs.Status+")")
	case hs.Blocked && l.st.HolderRevocable:
		l.revokeBlocked(ctx, hs)
	}
}

// describe asks whether goal's workflow still runs, and whether its
// workflow task keeps failing (DescribeLeaseHolder).
func (l *lease) describe(ctx workflow.Context, goal string) (activities.HolderStatus, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
		Summary:             "Is " + clip(goal, 80) + " still running?",
	})
	var hs activities.HolderStatus
	err := workflow.ExecuteActivity(actx, activities.NameDescribeLeaseHolder, goal).Get(ctx, &hs)
	return hs, err
}

// closeDown tells every waiting goal that this lease is gone, so none
// waits forever on a cancelled lease.
func (l *lease) closeDown(ctx workflow.Context) {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	for _, w := range l.st.Queue {
		busy := activities.LeaseBusy{Serial: l.st.Serial, RequestID: w.RequestID}
		_ = workflow.SignalExternalWorkflow(dctx, w.GoalID, "", SignalLeaseBusy, busy).Get(dctx, nil)
	}
}

// details shows the holder and queue in the Web UI.
func (l *lease) details(ctx workflow.Context) {
	s := fmt.Sprintf("**Phone** %s\n\n**Holder** %s\n\n**Queue** %d", l.st.Serial, orNone(l.st.Holder), len(l.st.Queue))
	for i, g := range l.st.Queue {
		if i == 20 {
			s += "\n- …"
			break
		}
		s += "\n- " + g.GoalID
	}
	if n := len(l.st.Revoked); n > 0 {
		s += "\n\n**Taken from blocked goals** (their device actions are refused until they hold the phone again)"
		for _, r := range l.st.Revoked[max(0, n-5):] {
			s += "\n- " + r.Reason
		}
	}
	workflow.SetCurrentDetails(ctx, s)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
