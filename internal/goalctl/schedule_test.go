package goalctl

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/workflows"
)

func TestScheduleOptionsStartGoalOnTaskQueue(t *testing.T) {
	so, err := ScheduleOptions(ScheduleRequest{Name: "morning", Goal: "read the first alarm", Device: "emu1",
		Cron: "0 8 * * *", TimeZone: "Asia/Shanghai", Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	if so.ID != "morning" || so.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE || so.CatchupWindow != DefaultCatchup || !so.Paused {
		t.Fatalf("options = %+v", so)
	}
	if len(so.Spec.CronExpressions) != 1 || so.Spec.CronExpressions[0] != "0 8 * * *" || so.Spec.TimeZoneName != "Asia/Shanghai" || len(so.Spec.Intervals) != 0 {
		t.Fatalf("spec = %+v", so.Spec)
	}
	a := so.Action.(*client.ScheduleWorkflowAction)
	if a.Workflow != GoalWorkflowName || a.TaskQueue != workflows.TaskQueue || a.ID != "goal-sched-morning" {
		t.Fatalf("action = %+v", a)
	}
	in := a.Args[0].(workflows.GoalInput)
	if in.Goal != "read the first alarm" || in.Device != "emu1" {
		t.Fatalf("input = %+v", in)
	}
	if so.Memo[MemoSpec] != "cron 0 8 * * * (Asia/Shanghai)" {
		t.Errorf("spec memo = %v", so.Memo[MemoSpec])
	}
	so, err = ScheduleOptions(ScheduleRequest{Name: "hourly", Goal: "g", Device: "d", Every: time.Hour, Overlap: "buffer-one"})
	if err != nil {
		t.Fatal(err)
	}
	if len(so.Spec.Intervals) != 1 || so.Spec.Intervals[0].Every != time.Hour || so.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE {
		t.Fatalf("interval schedule = %+v %v", so.Spec, so.Overlap)
	}
}

func TestScheduleValidation(t *testing.T) {
	ok := ScheduleRequest{Name: "n", Goal: "g", Device: "d", Cron: "0 8 * * *"}
	cases := map[string]func(r *ScheduleRequest){
		"name":        func(r *ScheduleRequest) { r.Name = "has space" },
		"--goal":      func(r *ScheduleRequest) { r.Goal = "" },
		"--device":    func(r *ScheduleRequest) { r.Device = "" },
		"say when":    func(r *ScheduleRequest) { r.Cron = "" },
		"exclude":     func(r *ScheduleRequest) { r.Every = time.Hour },
		"five":        func(r *ScheduleRequest) { r.Cron = "8 * *" },
		"time zone":   func(r *ScheduleRequest) { r.TimeZone = "Mars/Olympus" },
		"buffer-one,": func(r *ScheduleRequest) { r.Overlap = "sometimes" },
	}
	for want, mut := range cases {
		r := ok
		mut(&r)
		err := r.Validate()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v", want, err)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if OverlapName(enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL) != "allow-all" {
		t.Error("overlap name")
	}
}

func TestScheduleCreateAndErrors(t *testing.T) {
	mc := mocks.NewClient(t)
	sc := &mocks.ScheduleClient{}
	sc.Test(t)
	mc.On("ScheduleClient").Return(sc)
	sc.On("Create", mock.Anything, mock.MatchedBy(func(o client.ScheduleOptions) bool { return o.ID == "a" })).Return(nil, nil)
	sc.On("Create", mock.Anything, mock.MatchedBy(func(o client.ScheduleOptions) bool { return o.ID == "b" })).Return(nil, temporal.ErrScheduleAlreadyRunning)
	h := &mocks.ScheduleHandle{}
	h.Test(t)
	sc.On("GetHandle", mock.Anything, "gone").Return(h)
	h.On("Describe", mock.Anything).Return(nil, serviceerror.NewNotFound("schedule not found"))
	h.On("Trigger", mock.Anything, mock.Anything).Return(serviceerror.NewNotFound("schedule not found"))
	g := New(mc, Options{})
	req := ScheduleRequest{Name: "a", Goal: "g", Device: "d", Every: time.Hour}
	if err := g.CreateSchedule(ctx, req); err != nil {
		t.Fatal(err)
	}
	req.Name = "b"
	if err := g.CreateSchedule(ctx, req); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("duplicate err = %v", err)
	}
	_, err := g.DescribeSchedule(ctx, "gone")
	var nf *NotFoundError
	if !errors.As(err, &nf) || err.Error() != "no schedule named gone (list schedules with `starter schedule list`)" {
		t.Fatalf("describe err = %v", err)
	}
	if err := g.TriggerSchedule(ctx, "gone"); !errors.As(err, &nf) {
		t.Fatalf("trigger err = %v", err)
	}
}

func TestDescribeSchedule(t *testing.T) {
	mc := mocks.NewClient(t)
	sc := &mocks.ScheduleClient{}
	h := &mocks.ScheduleHandle{}
	mc.On("ScheduleClient").Return(sc)
	sc.On("GetHandle", mock.Anything, "morning").Return(h)
	at := time.Date(2026, 1, 2, 8, 0, 0, 0, time.UTC)
	h.On("Describe", mock.Anything).Return(&client.ScheduleDescription{
		Schedule: client.Schedule{
			State:  &client.ScheduleState{Paused: true, Note: "holiday"},
			Policy: &client.SchedulePolicies{Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP},
		},
		Info: client.ScheduleInfo{NumActions: 4, NextActionTimes: []time.Time{at},
			RunningWorkflows: []client.ScheduleWorkflowExecution{{WorkflowID: "goal-sched-morning-2026"}},
			RecentActions:    []client.ScheduleActionResult{{ActualTime: at, StartWorkflowResult: &client.ScheduleWorkflowExecution{WorkflowID: "goal-sched-morning-2026"}}}},
		Memo: &commonpb.Memo{Fields: map[string]*commonpb.Payload{MemoGoal: payload(t, "read alarm"), MemoDevice: payload(t, "emu1"), MemoSpec: payload(t, "cron 0 8 * * *")}},
	}, nil)
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-sched-morning-2026", "").Return(nil, serviceerror.NewNotFound("gone"))
	mc.On("CountWorkflow", mock.Anything, mock.Anything).Return(nil, serviceerror.NewUnavailable("visibility down"))
	si, err := New(mc, Options{}).DescribeSchedule(ctx, "morning")
	if err != nil {
		t.Fatal(err)
	}
	if si.Goal != "read alarm" || si.Device != "emu1" || si.Spec != "cron 0 8 * * *" || !si.Paused || si.Note != "holiday" ||
		si.Overlap != "skip" || si.Actions != 4 || len(si.Running) != 1 || len(si.Recent) != 1 || si.Recent[0].WorkflowID != "goal-sched-morning-2026" {
		t.Fatalf("describe = %+v", si)
	}
	// A run past retention and an unanswered count are reported as unknown.
	if si.Counts == nil || si.Counts.Failed != -1 || len(si.Outcomes) != 1 || si.Outcomes[0].State != "unknown" {
		t.Fatalf("counts = %+v, outcomes = %+v", si.Counts, si.Outcomes)
	}
}

func TestCheckCronFields(t *testing.T) {
	for _, ok := range []string{"0 8 * * *", "*/15 9-17 * * MON-FRI", "0 0 1,15 * ?", "30 6 * JAN,JUL 0", "@daily", "@every 30m", "0 0 8 * * * 2027"} {
		if err := checkCron(ok); err != nil {
			t.Errorf("checkCron(%q) = %v", ok, err)
		}
	}
	for in, want := range map[string]string{
		"0 25 * * *":   "hour field",
		"a b c d e":    "minute field",
		"0 8 * 13 *":   "month field",
		"0 8 * * FUN":  "day-of-week field",
		"*/0 8 * * *":  "step",
		"0 8 10-2 * *": "ends before",
		"@often":       "macro",
		"@every soon":  "@every",
		"0 8 * *":      "has 4 fields",
	} {
		err := checkCron(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkCron(%q) = %v, want an error naming %q", in, err, want)
		}
	}
}

func TestScheduleRunsWaitForAnswersUntilTheNextRun(t *testing.T) {
	deadline := func(r ScheduleRequest) time.Duration {
		t.Helper()
		r.Name, r.Goal, r.Device = "s", "g", "d"
		r.Options.AnswerDeadline = 24 * time.Hour // the configured default
		so, err := ScheduleOptions(r)
		if err != nil {
			t.Fatal(err)
		}
		return so.Action.(*client.ScheduleWorkflowAction).Args[0].(workflows.GoalInput).Options.AnswerDeadline
	}
	for _, tc := range []struct {
		r    ScheduleRequest
		want time.Duration
	}{
		{ScheduleRequest{Every: time.Minute}, time.Minute},
		{ScheduleRequest{Every: 3 * time.Hour}, 3 * time.Hour},
		{ScheduleRequest{Every: time.Minute, AnswerDeadline: 10 * time.Minute}, 10 * time.Minute},
		{ScheduleRequest{Cron: "0 8 * * *", TimeZone: "Asia/Shanghai"}, 24 * time.Hour},
		{ScheduleRequest{Cron: "0 8,20 * * *"}, 12 * time.Hour},
		{ScheduleRequest{Cron: "*/10 * * * *"}, 10 * time.Minute},
		{ScheduleRequest{Cron: "30 9 * * 1-5"}, 24 * time.Hour},
		{ScheduleRequest{Cron: "@hourly"}, time.Hour},
		{ScheduleRequest{Cron: "@every 45m"}, 45 * time.Minute},
		// Forms this side does not read keep the configured deadline.
		{ScheduleRequest{Cron: "0 0 8 * * * *"}, 24 * time.Hour},
	} {
		if got := deadline(tc.r); got != tc.want {
			t.Errorf("%+v: answer deadline %s, want %s", tc.r, got, tc.want)
		}
	}
	err := ScheduleRequest{Name: "s", Goal: "g", Device: "d", Every: time.Hour, AnswerDeadline: -time.Minute}.Validate()
	if err == nil || !strings.Contains(err.Error(), "--answer-deadline -1m0s is negative") {
		t.Fatalf("negative deadline: %v", err)
	}
}

// A schedule over a label starts, per run, a goal that picks its phone,
// or with Each a fan-out over every phone of the label; list and
// describe name the label.
func TestScheduleOverALabel(t *testing.T) {
	on := &fleet.Selector{Label: "shop"}
	so, err := ScheduleOptions(ScheduleRequest{Name: "tidy", Goal: "Clear notifications", On: on, Every: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	a := so.Action.(*client.ScheduleWorkflowAction)
	in := a.Args[0].(workflows.GoalInput)
	if a.Workflow != GoalWorkflowName || a.ID != "goal-sched-tidy" || in.Device != "" || in.On == nil || in.On.Label != "shop" || so.Memo[MemoDevice] != "--on label=shop" {
		t.Fatalf("action = %+v, input %+v, memo %v", a, in, so.Memo)
	}
	so, err = ScheduleOptions(ScheduleRequest{Name: "tidy", Goal: "Clear notifications", On: on, Each: true, Parallel: 3, Every: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	a = so.Action.(*client.ScheduleWorkflowAction)
	fo := a.Args[0].(workflows.FanOutInput)
	if a.Workflow != workflows.FanOutWorkflowName || a.ID != "fanout-sched-tidy" || a.TaskQueue != workflows.TaskQueue || fo.On.Label != "shop" || fo.Parallel != 3 || !fo.Options.Resolved || so.Memo[MemoDevice] != "each label=shop" {
		t.Fatalf("action = %+v, input %+v, memo %v", a, fo, so.Memo)
	}
	if !IsFanOutID(a.ID) {
		t.Errorf("%s is not told a fan-out", a.ID)
	}
	for _, r := range []ScheduleRequest{
		{Name: "x", Goal: "g", Every: time.Hour, Each: true},
		{Name: "x", Goal: "g", Every: time.Hour, On: on, Device: "emu1"},
		{Name: "x", Goal: "g", Every: time.Hour},
	} {
		if r.Validate() == nil {
			t.Errorf("%+v validated", r)
		}
	}
}

// A schedule whose runs the planner places starts one goal per run; a
// fan-out over --on planner is refused, as `starter run --each` refuses it.
func TestScheduleRefusesAFanOutThePlannerPicks(t *testing.T) {
	on := &fleet.Selector{Planner: true}
	so, err := ScheduleOptions(ScheduleRequest{Name: "tidy", Goal: "Clear notifications on the phone labelled till", On: on, Every: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	in := so.Action.(*client.ScheduleWorkflowAction).Args[0].(workflows.GoalInput)
	if in.On == nil || !in.On.Planner || so.Memo[MemoDevice] != "--on planner" {
		t.Fatalf("input %+v, memo %v", in, so.Memo)
	}
	err = ScheduleRequest{Name: "x", Goal: "g", Every: time.Hour, On: on, Each: true}.Validate()
	if err == nil || !strings.Contains(err.Error(), "--on planner") || !strings.Contains(err.Error(), "label=shop") {
		t.Errorf("a fan-out over --on planner: %v, want refused naming the fix", err)
	}
	if _, err := (&Client{}).StartFanOut(context.Background(), "", workflows.FanOutInput{Goal: "g", On: *on}); err == nil || !strings.Contains(err.Error(), "--on planner") {
		t.Errorf("StartFanOut over --on planner: %v, want refused", err)
	}
}
