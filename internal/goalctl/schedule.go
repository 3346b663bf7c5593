package goalctl

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/searchattr"
	"github.com/phoneflow/phoneflow/workflows"
)

// Memo keys of a schedule, so list and describe show what it does.
const (
	MemoDevice = "device"
	MemoSpec   = "spec"
)

// ScheduleRequest describes a schedule that starts a goal.
type ScheduleRequest struct {
	Name     string
	Goal     string
	Device   string
	Cron     string        // cron expression, e.g. "0 8 * * *"
	Every    time.Duration // or a fixed interval
	TimeZone string        // IANA name, e.g. "Asia/Shanghai"; empty = UTC
	Overlap  string        // buffer-one (default), skip, buffer-all, allow-all, cancel-other, terminate-other
	// Catchup is how late a run may still start after the server or the
	// schedule was unavailable; zero means DefaultCatchup.
	Catchup time.Duration
	// Jitter delays each run by a random time up to this long.
	Jitter time.Duration
	// RunTimeout ends a run that takes longer (timed out); zero = no limit.
	RunTimeout time.Duration
	// PauseOnFailure pauses the schedule when a run fails.
	PauseOnFailure bool
	Paused         bool
	Note           string
	// AnswerDeadline is how long a run's question or approval waits for a
	// person; zero = until the next run is due (docs/design.md §7).
	AnswerDeadline time.Duration
	Options        workflows.GoalOptions
	// On, instead of Device, lets each run pick a phone of the fleet;
	// with Each, each run is a fan-out over every phone of the kind, at
	// most Parallel goals at once (docs/design.md#phone-fleet).
	On       *fleet.Selector
	Each     bool
	Parallel int
}

// Where is the phone a schedule's runs drive as list and describe show
// it: the serial, "--on label=L" or "each label=L".
func (r ScheduleRequest) Where() string {
	switch {
	case r.On != nil && r.Each:
		return "each " + r.On.String()
	case r.On != nil:
		return "--on " + r.On.String()
	}
	return r.Device
}

// Schedule policy defaults (docs/design.md §13).
const (
	// DefaultOverlap makes a run that is due while the previous one still
	// holds the phone wait for it, instead of being skipped unseen.
	DefaultOverlap = "buffer-one"
	// DefaultCatchup starts runs missed during an outage only while they
	// are at most this late.
	DefaultCatchup = 10 * time.Minute
	// MinCatchup is the shortest catch-up window Temporal accepts.
	MinCatchup = 10 * time.Second
)

var scheduleName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$`)

// overlaps maps the CLI names to Temporal's overlap policies.
var overlaps = map[string]enumspb.ScheduleOverlapPolicy{
	"skip":            enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
	"buffer-one":      enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE,
	"buffer-all":      enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL,
	"allow-all":       enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL,
	"cancel-other":    enumspb.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER,
	"terminate-other": enumspb.SCHEDULE_OVERLAP_POLICY_TERMINATE_OTHER,
}

// ParseOverlap returns the overlap policy named s ("" = DefaultOverlap: a
// phone is never driven by two runs of one schedule at once, and a run due
// meanwhile waits rather than being skipped).
func ParseOverlap(s string) (enumspb.ScheduleOverlapPolicy, error) {
	if s == "" {
		s = DefaultOverlap
	}
	if p, ok := overlaps[s]; ok {
		return p, nil
	}
	return 0, fmt.Errorf("--overlap %q is not known: use skip, buffer-one, buffer-all, allow-all, cancel-other or terminate-other", s)
}

// OverlapName is the CLI name of an overlap policy.
func OverlapName(p enumspb.ScheduleOverlapPolicy) string {
	for k, v := range overlaps {
		if v == p {
			return k
		}
	}
	return "skip" // unspecified means skip on the server
}

// Validate checks the request before anything is sent.
func (r ScheduleRequest) Validate() error {
	if !scheduleName.MatchString(r.Name) {
		return fmt.Errorf("schedule name %q: use letters, digits, '.', '_' or '-' (up to 200), starting with a letter or digit", r.Name)
	}
	if strings.TrimSpace(r.Goal) == "" {
		return errors.New("--goal is required: the goal text each run starts")
	}
	switch {
	case r.On != nil && strings.TrimSpace(r.Device) != "":
		return errors.New("both --device and --on: name the phone, or say what kind of phone each run may pick, not both")
	case r.Each && r.On == nil:
		return errors.New("--each needs --on: say which phones each run goes over, e.g. --on label=shop")
	case r.Each && r.On.Planner:
		return errors.New("--each with --on planner: a fan-out runs on every phone of a kind, the planner chooses one; say which phones, e.g. --on label=shop")
	case r.On == nil && strings.TrimSpace(r.Device) == "":
		return errors.New("--device or --on is required: the phone each run drives (list phones with `starter devices`), or --on label=L to pick one")
	case r.Parallel < 0:
		return fmt.Errorf("--parallel %d: run at least one goal at once", r.Parallel)
	}
	switch {
	case r.Every < 0:
		return fmt.Errorf("--every %s is negative: give the time between runs, e.g. --every 30m or --every 1h", r.Every)
	case r.Cron == "" && r.Every == 0:
		return errors.New("say when to run: --cron \"0 8 * * *\" or --every 1h")
	case r.Cron != "" && r.Every > 0:
		return errors.New("--cron and --every exclude each other: pick one")
	case r.Every > 0 && r.Every < time.Second:
		return fmt.Errorf("--every %s is shorter than a second", r.Every)
	}
	if r.Cron != "" {
		if err := checkCron(r.Cron); err != nil {
			return err
		}
	}
	if r.TimeZone != "" {
		if _, err := time.LoadLocation(r.TimeZone); err != nil {
			return fmt.Errorf("--tz %q is not a known time zone: use an IANA name such as Asia/Shanghai or UTC", r.TimeZone)
		}
	}
	switch {
	case r.Catchup < 0 || (r.Catchup > 0 && r.Catchup < MinCatchup):
		return fmt.Errorf("--catchup %s: use at least %s (the shortest window Temporal keeps), e.g. 10m", r.Catchup, MinCatchup)
	case r.Jitter < 0:
		return fmt.Errorf("--jitter %s is negative: use 0 (no jitter) or a duration such as 30s", r.Jitter)
	case r.RunTimeout < 0:
		return fmt.Errorf("--run-timeout %s is negative: use 0 (no limit) or a duration such as 30m", r.RunTimeout)
	case r.AnswerDeadline < 0:
		return fmt.Errorf("--answer-deadline %s is negative: use a duration such as 30m, or leave it out to wait until the next run is due", r.AnswerDeadline)
	case r.Every > 0 && r.Jitter >= r.Every:
		return fmt.Errorf("--jitter %s is not shorter than --every %s: runs would pile up; use a jitter below the interval", r.Jitter, r.Every)
	}
	_, err := ParseOverlap(r.Overlap)
	return err
}

// checkCron accepts the forms Temporal does: five fields (minute hour
// day-of-month month day-of-week), six or seven with seconds/years, or an
// @-macro such as @daily or @every 30m.
func checkCron(c string) error {
	c = strings.TrimSpace(c)
	if strings.HasPrefix(c, "@") {
		macro, arg, _ := strings.Cut(c, " ")
		switch macro {
		case "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
			if arg == "" {
				return nil
			}
		case "@every":
			if d, err := time.ParseDuration(strings.TrimSpace(arg)); err == nil && d > 0 {
				return nil
			}
			return fmt.Errorf("--cron %q: @every needs a duration such as \"@every 30m\"", c)
		}
		return fmt.Errorf("--cron %q is not a known macro: use @hourly, @daily, @weekly, @monthly, @yearly or \"@every 30m\"", c)
	}
	fields := strings.Fields(c)
	n := len(fields)
	if n < 5 || n > 7 {
		return fmt.Errorf("--cron %q has %d fields: write five, \"minute hour day-of-month month day-of-week\", e.g. \"0 8 * * *\"", c, n)
	}
	if n == 6 {
		return sixFields(c, fields)
	}
	if n == 7 {
		return nil // second … year: the server checks this form
	}
	for i, f := range fields {
		if err := cronFields[i].check(f); err != nil {
			return fmt.Errorf("--cron %q: %s field %q: %v; e.g. \"0 8 * * *\" runs at 08:00 every day", c, cronFields[i].name, f, err)
		}
	}
	return nil
}

// sixFields refuses a six-field cron. Temporal reads the sixth field as the
// year, so a seconds-first expression written for other schedulers ("0 0 8
// * * *", 08:00 daily) would silently run on day 8 of every month.
func sixFields(c string, fields []string) error {
	msg := fmt.Sprintf("--cron %q has 6 fields, which Temporal reads as \"minute hour day-of-month month day-of-week year\", not seconds first: write five fields, \"minute hour day-of-month month day-of-week\"", c)
	if five := strings.Join(fields[1:], " "); checkCron(five) == nil {
		msg += fmt.Sprintf(", e.g. %q if the first field was seconds", five)
	} else {
		msg += `, e.g. "0 8 * * *" for 08:00 every day`
	}
	return errors.New(msg)
}

// cronField is one field of a five-field cron expression.
type cronField struct {
	name     string
	min, max int
	names    []string // names for min, min+1, … (months, weekdays)
}

var cronFields = []cronField{
	{name: "minute", min: 0, max: 59},
	{name: "hour", min: 0, max: 23},
	{name: "day-of-month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, names: strings.Fields("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC")},
	{name: "day-of-week", min: 0, max: 7, names: strings.Fields("SUN MON TUE WED THU FRI SAT")},
}

// check accepts comma lists of *, ?, a value, a range a-b, each with an
// optional /step.
func (f cronField) check(s string) error {
	for _, part := range strings.Split(s, ",") {
		base, step, hasStep := strings.Cut(part, "/")
		if hasStep {
			if n, err := strconv.Atoi(step); err != nil || n <= 0 {
				return fmt.Errorf("step %q is not a positive number", step)
			}
		}
		if base == "*" || base == "?" {
			continue
		}
		lo, hi, isRange := strings.Cut(base, "-")
		a, err := f.value(lo)
		if err != nil {
			return err
		}
		if isRange {
			b, err := f.value(hi)
			if err != nil {
				return err
			}
			if b < a {
				return fmt.Errorf("range %s ends before it starts", base)
			}
		}
	}
	return nil
}

func (f cronField) value(s string) (int, error) {
	for i, n := range f.names {
		if strings.EqualFold(s, n) {
			return f.min + i, nil
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < f.min || v > f.max {
		return 0, fmt.Errorf("%q is not a number from %d to %d", s, f.min, f.max)
	}
	return v, nil
}

// SpecText is how a schedule's timing reads in list and describe.
func (r ScheduleRequest) SpecText() string {
	s := "cron " + r.Cron
	if r.Every > 0 {
		s = "every " + r.Every.String()
	}
	if r.TimeZone != "" {
		s += " (" + r.TimeZone + ")"
	}
	return s
}

// ScheduleOptions returns the Temporal schedule of r: its action starts a
// GoalWorkflow with the goal and device on the goal task queue.
func ScheduleOptions(r ScheduleRequest) (client.ScheduleOptions, error) {
	if err := r.Validate(); err != nil {
		return client.ScheduleOptions{}, err
	}
	overlap, _ := ParseOverlap(r.Overlap)
	spec := client.ScheduleSpec{TimeZoneName: r.TimeZone, Jitter: r.Jitter}
	catchup := r.Catchup
	if catchup == 0 {
		catchup = DefaultCatchup
	}
	if r.Cron != "" {
		spec.CronExpressions = []string{r.Cron}
	} else {
		spec.Intervals = []client.ScheduleIntervalSpec{{Every: r.Every}}
	}
	so := StartOptions("goal-sched-"+r.Name, r.Goal, r.Device)
	opts := r.Options
	if r.TimeZone != "" {
		opts.TimeZone = r.TimeZone // the schedule's zone reads its goals' times of day too
	}
	switch {
	case r.AnswerDeadline > 0:
		opts.AnswerDeadline = r.AnswerDeadline
	case r.Every > 0:
		opts.AnswerDeadline = r.Every
	default:
		if gap, ok := cronGap(r.Cron, r.TimeZone); ok {
			opts.AnswerDeadline = gap
		}
	}
	// Built from the config of whoever made the schedule: its runs take
	// no defaults from the worker (docs/design.md §2).
	opts.Resolved = true
	workflowType, arg := GoalWorkflowName, any(workflows.GoalInput{Goal: r.Goal, Device: r.Device, On: r.On, Options: opts})
	if r.Each {
		in := workflows.FanOutInput{Goal: r.Goal, On: *r.On, Options: opts, Parallel: r.Parallel}
		so = FanOutOptions("fanout-sched-"+r.Name, in)
		workflowType, arg = workflows.FanOutWorkflowName, in
	} else if r.On != nil {
		so = StartOptions("goal-sched-"+r.Name, r.Goal, r.Where())
	}
	return client.ScheduleOptions{
		ID:             r.Name,
		Spec:           spec,
		Overlap:        overlap,
		CatchupWindow:  catchup,
		PauseOnFailure: r.PauseOnFailure,
		Paused:         r.Paused,
		Note:           r.Note,
		Memo:           map[string]any{MemoGoal: r.Goal, MemoDevice: r.Where(), MemoSpec: r.SpecText()},
		Action: &client.ScheduleWorkflowAction{
			ID:       so.ID, // the server appends the scheduled time
			Workflow: workflowType,
			Args:     []any{arg},
			// The goal continues as new between todos: the execution
			// timeout bounds the whole run, the run timeout only one part.
			WorkflowExecutionTimeout: r.RunTimeout,
			TaskQueue:                so.TaskQueue,
			Memo:                     so.Memo,
			TypedSearchAttributes:    so.TypedSearchAttributes,
			StaticSummary:            so.StaticSummary,
		},
	}, nil
}

// CreateSchedule creates the schedule.
func (g *Client) CreateSchedule(ctx context.Context, r ScheduleRequest) error {
	opts, err := ScheduleOptions(r)
	if err != nil {
		return err
	}
	began := time.Now()
	_, err = g.c.ScheduleClient().Create(ctx, opts)
	for searchattr.Unmapped(err) && time.Since(began) < unmappedFor && ctx.Err() == nil {
		// The attributes its goals start with were registered moments
		// ago: the frontend serves them from its next namespace refresh.
		select {
		case <-ctx.Done():
		case <-time.After(busyRetryFirst):
		}
		_, err = g.c.ScheduleClient().Create(ctx, opts)
	}
	if err != nil {
		if searchattr.Unmapped(err) {
			return fmt.Errorf("create schedule %s: %w", r.Name, g.unmappedError(err))
		}
		if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
			return fmt.Errorf("a schedule named %s already exists: pick another name, or delete it first with `starter schedule delete %s`", r.Name, r.Name)
		}
		return fmt.Errorf("create schedule %s: %w", r.Name, err)
	}
	return nil
}

// ScheduleRun is one start a schedule made.
type ScheduleRun struct {
	At         time.Time `json:"at"`
	Scheduled  time.Time `json:"scheduled"`
	WorkflowID string    `json:"workflow_id"`
}

// ScheduleInfo is a schedule as list and describe show it.
type ScheduleInfo struct {
	Name      string        `json:"name"`
	Goal      string        `json:"goal,omitempty"`
	Device    string        `json:"device,omitempty"`
	Spec      string        `json:"spec,omitempty"`
	Overlap   string        `json:"overlap,omitempty"`
	Paused    bool          `json:"paused"`
	Note      string        `json:"note,omitempty"`
	Actions   int           `json:"actions"`
	Running   []string      `json:"running,omitempty"`
	NextTimes []time.Time   `json:"next_times,omitempty"`
	Recent    []ScheduleRun `json:"recent,omitempty"`
	// Policies and run figures; describe fills them, list does not.
	Catchup        time.Duration `json:"catchup,omitempty"`
	Jitter         time.Duration `json:"jitter,omitempty"`
	RunTimeout     time.Duration `json:"run_timeout,omitempty"`
	PauseOnFailure bool          `json:"pause_on_failure,omitempty"`
	Counts         *RunCounts    `json:"counts,omitempty"`
	Outcomes       []RunOutcome  `json:"outcomes,omitempty"`
	// Usage sums the model calls of the runs in Outcomes.
	Usage         *llm.RoleUsage `json:"usage,omitempty"`
	EstimatedCost *float64       `json:"estimated_cost,omitempty"`
}

func recent(rs []client.ScheduleActionResult) []ScheduleRun {
	var out []ScheduleRun
	for _, a := range rs {
		run := ScheduleRun{At: a.ActualTime, Scheduled: a.ScheduleTime}
		if a.StartWorkflowResult != nil {
			run.WorkflowID = a.StartWorkflowResult.WorkflowID
		}
		out = append(out, run)
	}
	return out
}

// ListSchedules returns every schedule of the namespace.
func (g *Client) ListSchedules(ctx context.Context) ([]ScheduleInfo, error) {
	it, err := g.c.ScheduleClient().List(ctx, client.ScheduleListOptions{PageSize: 100})
	if err != nil {
		return nil, fmt.Errorf("list schedules: %w", err)
	}
	var out []ScheduleInfo
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("list schedules: %w", err)
		}
		fields := e.Memo.GetFields()
		out = append(out, ScheduleInfo{
			Name:      e.ID,
			Goal:      g.decodeString(fields[MemoGoal]),
			Device:    g.decodeString(fields[MemoDevice]),
			Spec:      g.decodeString(fields[MemoSpec]),
			Paused:    e.Paused,
			Note:      e.Note,
			NextTimes: e.NextActionTimes,
			Recent:    recent(e.RecentActions),
		})
	}
	return out, nil
}

func (g *Client) scheduleErr(name, op string, err error) error {
	if err == nil {
		return nil
	}
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return &NotFoundError{Kind: "schedule", ID: name}
	}
	return fmt.Errorf("%s schedule %s: %w", op, name, err)
}

// DescribeSchedule returns one schedule.
func (g *Client) DescribeSchedule(ctx context.Context, name string) (ScheduleInfo, error) {
	d, err := g.c.ScheduleClient().GetHandle(ctx, name).Describe(ctx)
	if err != nil {
		return ScheduleInfo{}, g.scheduleErr(name, "describe", err)
	}
	fields := d.Memo.GetFields()
	si := ScheduleInfo{
		Name:      name,
		Goal:      g.decodeString(fields[MemoGoal]),
		Device:    g.decodeString(fields[MemoDevice]),
		Spec:      g.decodeString(fields[MemoSpec]),
		Actions:   d.Info.NumActions,
		NextTimes: d.Info.NextActionTimes,
		Recent:    recent(d.Info.RecentActions),
	}
	for _, r := range d.Info.RunningWorkflows {
		si.Running = append(si.Running, r.WorkflowID)
	}
	if st := d.Schedule.State; st != nil {
		si.Paused, si.Note = st.Paused, st.Note
	}
	if p := d.Schedule.Policy; p != nil {
		si.Overlap = OverlapName(p.Overlap)
		si.Catchup, si.PauseOnFailure = p.CatchupWindow, p.PauseOnFailure
	}
	if sp := d.Schedule.Spec; sp != nil {
		si.Jitter = sp.Jitter
	}
	if a, ok := d.Schedule.Action.(*client.ScheduleWorkflowAction); ok {
		si.RunTimeout = a.WorkflowExecutionTimeout
	}
	counts := RunCounts{SkippedOverlap: d.Info.NumActionsSkippedOverlap, MissedCatchup: d.Info.NumActionsMissedCatchupWindow}
	var usage llm.RoleUsage
	si.Outcomes, usage = g.RecentOutcomes(ctx, si, si.Jitter)
	for _, o := range si.Outcomes {
		if o.Buffered {
			counts.Buffered++
		}
	}
	if n, err := g.CountFailedRuns(ctx, name); err == nil {
		counts.Failed = n
	} else {
		counts.Failed = -1 // unknown: visibility did not answer
	}
	si.Counts, si.Usage = &counts, &usage
	if c, ok := g.opts.Prices.Estimate(usage); ok {
		si.EstimatedCost = &c
	}
	return si, nil
}

// PauseSchedule stops a schedule from starting goals until unpaused.
func (g *Client) PauseSchedule(ctx context.Context, name, note string) error {
	err := g.c.ScheduleClient().GetHandle(ctx, name).Pause(ctx, client.SchedulePauseOptions{Note: note})
	return g.scheduleErr(name, "pause", err)
}

// UnpauseSchedule resumes a paused schedule.
func (g *Client) UnpauseSchedule(ctx context.Context, name, note string) error {
	err := g.c.ScheduleClient().GetHandle(ctx, name).Unpause(ctx, client.ScheduleUnpauseOptions{Note: note})
	return g.scheduleErr(name, "unpause", err)
}

// TriggerSchedule starts the schedule's goal now, under its overlap policy.
func (g *Client) TriggerSchedule(ctx context.Context, name string) error {
	err := g.c.ScheduleClient().GetHandle(ctx, name).Trigger(ctx, client.ScheduleTriggerOptions{})
	return g.scheduleErr(name, "trigger", err)
}

// TriggerScheduleGoal triggers the schedule like TriggerSchedule and returns
// the ID of the goal the trigger started, read from the schedule's recent
// and running actions, or "" when none appeared within wait: under the
// overlap policy the run may wait behind one still going.
func (g *Client) TriggerScheduleGoal(ctx context.Context, name string, wait time.Duration) (string, error) {
	h := g.c.ScheduleClient().GetHandle(ctx, name)
	seen := map[string]bool{}
	if d, err := h.Describe(ctx); err == nil {
		for _, id := range startedBy(d) {
			seen[id] = true
		}
	}
	if err := h.Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
		return "", g.scheduleErr(name, "trigger", err)
	}
	deadline := time.Now().Add(wait)
	for {
		if d, err := h.Describe(ctx); err == nil {
			for _, id := range startedBy(d) {
				if !seen[id] {
					return id, nil
				}
			}
		}
		if !time.Now().Before(deadline) {
			return "", nil
		}
		select {
		case <-ctx.Done():
			return "", nil
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// startedBy lists the goals a schedule has started that it still shows.
func startedBy(d *client.ScheduleDescription) []string {
	var ids []string
	for _, a := range d.Info.RecentActions {
		if a.StartWorkflowResult != nil {
			ids = append(ids, a.StartWorkflowResult.WorkflowID)
		}
	}
	for _, r := range d.Info.RunningWorkflows {
		ids = append(ids, r.WorkflowID)
	}
	return ids
}

// DeleteSchedule deletes a schedule; goals it already started keep running.
func (g *Client) DeleteSchedule(ctx context.Context, name string) error {
	err := g.c.ScheduleClient().GetHandle(ctx, name).Delete(ctx)
	return g.scheduleErr(name, "delete", err)
}

// cronGap is the shortest time between two of the next runs of a cron
// schedule, its answer deadline when none is given: a question is not
// left waiting past the next run. It reads the five-field and @-macro
// forms; for the others (seconds, years) it reports false and the
// configured deadline stays.
func cronGap(expr, tz string) (time.Duration, bool) {
	sched, err := cron.ParseStandard(strings.TrimSpace(expr))
	if err != nil {
		return 0, false
	}
	loc := time.UTC
	if tz != "" {
		if loc, err = time.LoadLocation(tz); err != nil {
			return 0, false
		}
	}
	// A fixed start keeps the answer the same for the same schedule; a
	// year of runs covers every calendar pattern short of leap days.
	t := sched.Next(time.Date(2026, 1, 1, 0, 0, 0, 0, loc))
	var gap time.Duration
	for range 400 {
		n := sched.Next(t)
		if n.IsZero() {
			break
		}
		if d := n.Sub(t); gap == 0 || d < gap {
			gap = d
		}
		t = n
	}
	return gap, gap > 0
}
