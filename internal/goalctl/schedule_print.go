package goalctl

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteSchedule prints s as `starter schedule describe` shows it.
func WriteSchedule(w io.Writer, s ScheduleInfo) {
	fmt.Fprintf(w, "schedule: %s\n", s.Name)
	fmt.Fprintf(w, "goal:     %s\n", s.Goal)
	fmt.Fprintf(w, "device:   %s\n", s.Device)
	fmt.Fprintf(w, "when:     %s\n", s.Spec)
	fmt.Fprintf(w, "overlap:  %s\n", s.Overlap)
	fmt.Fprintf(w, "paused:   %v\n", s.Paused)
	if s.Note != "" {
		fmt.Fprintf(w, "note:     %s\n", s.Note)
	}
	fmt.Fprintf(w, "runs:     %d\n", s.Actions)
	var next []string
	for i, t := range s.NextTimes {
		if i == 3 {
			next = append(next, "…")
			break
		}
		next = append(next, t.Local().Format("2006-01-02 15:04:05 MST"))
	}
	switch {
	case s.Paused && len(next) > 0:
		fmt.Fprintf(w, "next:     none while paused (unpaused, it would run at %s)\n", strings.Join(next, ", "))
	case len(next) > 0:
		fmt.Fprintf(w, "next:     %s\n", strings.Join(next, ", "))
	}
	for _, id := range s.Running {
		fmt.Fprintf(w, "running:  %s\n", id)
	}
	if s.Catchup > 0 {
		fmt.Fprintf(w, "catchup:  %s\n", s.Catchup)
	}
	if s.Jitter > 0 {
		fmt.Fprintf(w, "jitter:   %s\n", s.Jitter)
	}
	if s.RunTimeout > 0 {
		fmt.Fprintf(w, "timeout:  %s per run\n", s.RunTimeout)
	}
	if s.PauseOnFailure {
		fmt.Fprintf(w, "pauses on a failed run\n")
	}
	if c := s.Counts; c != nil {
		failed := strconv.Itoa(c.Failed)
		if c.Failed < 0 {
			failed = "unknown (visibility did not answer)"
		}
		fmt.Fprintf(w, "skipped:  %d (overlap), %d (later than the catch-up window)\n", c.SkippedOverlap, c.MissedCatchup)
		fmt.Fprintf(w, "buffered: %d of the recent runs waited for the previous one\n", c.Buffered)
		fmt.Fprintf(w, "failed:   %s\n", failed)
	}
	if len(s.Outcomes) == 0 {
		for _, r := range s.Recent {
			fmt.Fprintf(w, "recent:   %s  %s\n", r.At.Local().Format("2006-01-02 15:04:05"), r.WorkflowID)
		}
		return
	}
	fmt.Fprintln(w, "recent runs (newest first):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  STARTED\tOUTCOME\tMODEL CALLS\tTOKENS IN/OUT\tWORKFLOW")
	for _, o := range s.Outcomes {
		outcome := o.State
		if o.Status != "" {
			outcome = o.Status
		}
		if o.Buffered {
			outcome += fmt.Sprintf(" (waited %s)", o.Started.Sub(o.Scheduled).Round(time.Second))
		}
		u := o.Usage.Total()
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d/%d\t%s\n", o.Started.Local().Format("2006-01-02 15:04:05"), outcome,
			u.Calls, u.InputTokens, u.OutputTokens, o.WorkflowID)
	}
	tw.Flush()
	if s.Usage != nil {
		for _, l := range UsageLines(*s.Usage, Prices{}) {
			fmt.Fprintln(w, strings.Replace(l, "model usage:", "model usage of these runs:", 1))
		}
		if s.EstimatedCost != nil {
			fmt.Fprintf(w, "  estimated cost: %s\n", FormatCost(*s.EstimatedCost))
		}
	}
}
