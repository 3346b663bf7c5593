package viewer

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/workflows"
)

// Goal is what the viewer shows of one goal.
type Goal struct {
	ID       string    `json:"id"`
	Text     string    `json:"goal"`
	Device   string    `json:"device"`
	Status   string    `json:"status"` // the phase while it runs (running, paused, waiting_user, …), the result's status once closed
	Running  bool      `json:"running"`
	Steps    int       `json:"steps"` // the goal's step count (docs/design.md §2), live
	MaxSteps int       `json:"max_steps"`
	Plan     []string  `json:"plan,omitempty"`
	Response string    `json:"response,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Started  time.Time `json:"started"`
	Closed   time.Time `json:"closed,omitzero"`
	// Waiting is what the running goal waits for, and until when ("" when
	// it waits for nothing or cannot be asked).
	Waiting string `json:"waiting,omitempty"`
	Todos   []Todo `json:"todos"`
	// Notes are the goal's own moments in time order: plans, replans,
	// questions, answers, pauses.
	Notes []Note `json:"notes,omitempty"`
}

// Todo is one todo run (a restart after being stuck is its own run).
type Todo struct {
	WorkflowID string `json:"workflow_id"`
	Index      int    `json:"index"`
	Text       string `json:"text"`
	// Phone is the phone the todo ran on when the goal leased another
	// phone for it (docs/design.md#goals-that-span-phones).
	Phone   string    `json:"phone,omitempty"`
	Status  string    `json:"status"` // running, or the todo result's status
	Result  string    `json:"result,omitempty"`
	Started time.Time `json:"started"`
	Closed  time.Time `json:"closed,omitzero"`
	Steps   []Step    `json:"steps"`
	Notes   []Note    `json:"notes,omitempty"` // questions, answers, approvals, pauses inside the todo
	// Checks are the planner's postconditions, with ✓/✗ once verified;
	// Refused counts commit actions the Step did not send
	// (docs/design.md §9).
	Checks  []string `json:"checks,omitempty"`
	Refused int      `json:"refused,omitempty"`
	// NotesAfter are the notes later than the todo's last step, shown
	// after its steps (the page places the others before the step that
	// followed them).
	NotesAfter []Note `json:"-"`
}

// Step is one Step activity of a todo: it applied the action decided
// before it (if any), observed the screen, and thought about it.
type Step struct {
	N       int    `json:"n"`       // 1-based order of the Step activity in its todo
	Summary string `json:"summary"` // the activity's summary, with budget step numbers
	// What it applied: the action decided by the step before, and what
	// happened.
	Applied     string `json:"applied,omitempty"`
	AppliedNote string `json:"applied_result,omitempty"`
	// What the executor saw and decided.
	ScreenRef string          `json:"screen_ref,omitempty"`
	Width     int             `json:"width,omitempty"`
	Height    int             `json:"height,omitempty"`
	App       string          `json:"app,omitempty"`
	Sensitive bool            `json:"sensitive,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`
	Action    string          `json:"action,omitempty"` // the decided action as written
	Decided   *autoglm.Action `json:"decided,omitempty"`
	Marks     []Mark          `json:"marks,omitempty"`
	ParseErr  string          `json:"parse_error,omitempty"`
	Result    string          `json:"result,omitempty"` // what the decided action did (from the next step), "" until known
	Model     string          `json:"model,omitempty"`
	ModelMS   int64           `json:"model_ms,omitempty"`
	Tokens    [2]int          `json:"tokens"` // prompt, completion
	Scheduled time.Time       `json:"scheduled"`
	// NotesBefore are the todo's notes between the step before and this
	// one, shown above it.
	NotesBefore []Note                 `json:"-"`
	Finished    time.Time              `json:"finished,omitzero"`
	Attempts    int                    `json:"attempts"`
	Failure     string                 `json:"failure,omitempty"`
	Flags       []string               `json:"flags,omitempty"` // retried, replayed, approved, denied, corrected, parse error
	Raw         *activities.StepResult `json:"-"`
}

// Mark is where an action lands on the screenshot, in percent of its width
// and height (the executor's 0–999 coordinates over 10).
type Mark struct {
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	Kind string  `json:"kind"` // tap, start, end
}

// Note is a moment that is not a step: a plan, a question, an answer, an
// approval, a pause.
type Note struct {
	Time time.Time `json:"time"`
	Kind string    `json:"kind"` // plan, replanned, unchanged, question, answer, approval, approved, denied, paused, resumed, inject, say
	Text string    `json:"text"`
	// Planner is the planner's decision when the note is its answer: one
	// of the Planner* values.
	Planner string `json:"planner,omitempty"`
}

// The planner's decisions, as notes and `planner` events name them.
const (
	PlannerPlan      = "plan"
	PlannerReplanned = "replanned"
	PlannerUnchanged = "unchanged" // a replan that kept the todos not yet started
	PlannerDone      = "done"
	PlannerAsk       = "ask_user"
	PlannerInvalid   = "invalid"
)

// retryIDRe is a todo's restart ("<goal>/todo-2-r1"), not the plan's next
// todo.
var retryIDRe = regexp.MustCompile(`/todo-\d+-r\d+$`)

// Flags of a step.
const (
	FlagRetried   = "retried"   // the activity needed more than one attempt
	FlagReplayed  = "replayed"  // a retried act found its action already applied
	FlagApproved  = "approved"  // the decided action waited for and got approval
	FlagDenied    = "denied"    // … and was refused
	FlagRefused   = "refused"   // a commit action was not sent: wrong target (docs/design.md §9) or already done (§9)
	FlagCorrected = "corrected" // the think carried a stuck correction
	FlagParse     = "unparsed"  // the executor's reply did not parse
)

// Reader reads goals from Temporal.
type Reader struct {
	Client client.Client
	// DataConverter decodes payloads (the one the workers use: with
	// encryption on, it decrypts with the configured keys); nil = default.
	DataConverter converter.DataConverter
	// HideReasoning keeps the executor's reasoning out of every step it
	// loads, so neither the page nor the event stream shows it
	// (viewer.show_reasoning false).
	HideReasoning bool
}

// ErrNotFound means no goal has that ID.
var ErrNotFound = errors.New("no such goal")

func (r *Reader) history(ctx context.Context, id string) ([]*historypb.HistoryEvent, error) {
	it := r.Client.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var out []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			var nf *serviceerror.NotFound
			if errors.As(err, &nf) {
				return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
			}
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func (r *Reader) dc() converter.DataConverter {
	if r.DataConverter == nil {
		return converter.GetDefaultDataConverter()
	}
	return r.DataConverter
}

// Load reads the goal id and its todos as they are now.
func (r *Reader) Load(ctx context.Context, id string) (Goal, error) {
	evs, err := r.history(ctx, id)
	if err != nil {
		return Goal{}, err
	}
	if len(evs) == 0 || evs[0].GetWorkflowExecutionStartedEventAttributes() == nil {
		return Goal{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	dc := r.dc()
	g := Goal{ID: id, Running: true, Status: workflows.GoalRunning}
	var in workflows.GoalInput
	st := evs[0].GetWorkflowExecutionStartedEventAttributes()
	if st.GetWorkflowType().GetName() != "GoalWorkflow" {
		return Goal{}, fmt.Errorf("%w: %s is a %s, not a goal", ErrNotFound, id, st.GetWorkflowType().GetName())
	}
	_ = dc.FromPayloads(st.GetInput(), &in)
	g.Text, g.Device, g.Started = in.Goal, in.Device, evs[0].GetEventTime().AsTime()
	g.MaxSteps = in.Options.WithDefaults().MaxSteps
	var children []string
	if s := in.State; s != nil {
		g.Steps = s.Steps
		for _, t := range s.Todos {
			for a := 1; a <= t.Attempts; a++ {
				children = append(children, todoID(id, t.Index, a))
			}
		}
	}
	acts := map[int64]string{} // scheduled event ID → activity type
	// A person's actions from the step viewer (docs/design.md §7), by
	// scheduled event ID: shown as the person's, never as a step.
	person := map[int64]activities.PersonAction{}
	// pending is the last plan's todos not yet started: a replan that
	// answers them again left the plan unchanged.
	var pending []string
	for _, ev := range evs {
		at := ev.GetEventTime().AsTime()
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			sa := ev.GetActivityTaskScheduledEventAttributes()
			acts[ev.GetEventId()] = sa.GetActivityType().GetName()
			if sa.GetActivityType().GetName() == activities.NamePersonAct {
				var in activities.PersonActInput
				if dc.FromPayloads(sa.GetInput(), &in) == nil {
					person[ev.GetEventId()] = in.Action
				}
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			a := ev.GetActivityTaskFailedEventAttributes()
			if p, ok := person[a.GetScheduledEventId()]; ok {
				g.Notes = append(g.Notes, Note{Time: at, Kind: "person", Text: "the person " + p.Describe() + ": not done: " + a.GetFailure().GetMessage()})
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			a := ev.GetActivityTaskCompletedEventAttributes()
			name := acts[a.GetScheduledEventId()]
			if p, ok := person[a.GetScheduledEventId()]; ok {
				var res activities.PersonActResult
				if dc.FromPayloads(a.GetResult(), &res) != nil || res.Did == "" {
					res.Did = p.Describe()
				}
				g.Notes = append(g.Notes, Note{Time: at, Kind: "person", Text: "the person " + res.Did})
				continue
			}
			if name != activities.NamePlanOnce && name != activities.NameReplan {
				continue
			}
			if name == activities.NameReplan {
				g.Steps++ // each replan attempt counts
			}
			var d activities.PlanDecision
			if dc.FromPayloads(a.GetResult(), &d) != nil {
				continue
			}
			switch {
			case d.Invalid != "":
				g.Notes = append(g.Notes, Note{Time: at, Kind: "invalid", Text: "the planner's answer was invalid: " + d.Invalid, Planner: PlannerInvalid})
			case d.Status == activities.PlanAskUser:
				g.Notes = append(g.Notes, Note{Time: at, Kind: "question", Text: d.Question, Planner: PlannerAsk})
			case d.Status == activities.PlanPlanned:
				g.Plan, pending = d.Plan, d.Plan
				g.Notes = append(g.Notes, Note{Time: at, Kind: "plan", Text: strings.Join(numbered(d.Plan), "\n"), Planner: PlannerPlan})
			case d.Status == activities.PlanReplanned:
				kind := "replanned"
				if slices.Equal(d.Plan, pending) {
					// The todos not yet started, as they were: the replan
					// kept the plan (docs/observability.md#event-stream).
					kind = PlannerUnchanged
				}
				g.Plan, pending = d.Plan, d.Plan
				g.Notes = append(g.Notes, Note{Time: at, Kind: kind, Text: strings.Join(numbered(d.Plan), "\n"), Planner: kind})
			case d.Status == activities.PlanDone:
				g.Notes = append(g.Notes, Note{Time: at, Kind: "done", Text: d.Response, Planner: PlannerDone})
			}
		case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
			cid := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes().GetWorkflowId()
			if !slices.Contains(children, cid) {
				children = append(children, cid)
				if !retryIDRe.MatchString(cid) && len(pending) > 0 {
					pending = pending[1:] // the plan's next todo started
				}
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			a := ev.GetWorkflowExecutionSignaledEventAttributes()
			if n, ok := steeringNote(dc, a.GetSignalName(), a.GetInput(), at); ok {
				g.Notes = append(g.Notes, n)
			}
			if a.GetSignalName() == workflows.SignalTodoEvent {
				var te workflows.TodoEvent
				if dc.FromPayloads(a.GetInput(), &te) == nil {
					switch te.Kind {
					case workflows.TodoEventQuestion:
						g.Notes = append(g.Notes, Note{Time: at, Kind: "question", Text: te.Text})
					case workflows.TodoEventApproval:
						g.Notes = append(g.Notes, Note{Time: at, Kind: "approval", Text: strings.TrimSpace(te.Action + " — " + te.Text)})
					}
				}
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
			a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetAcceptedRequest().GetInput()
			if n, ok := steeringNote(dc, a.GetName(), a.GetArgs(), at); ok {
				g.Notes = append(g.Notes, n)
			}
		case enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
			// The goal publishes its phase (paused, waiting for a
			// person, a model, a time) as it changes.
			if p := keyword(ev.GetUpsertWorkflowSearchAttributesEventAttributes().GetSearchAttributes().GetIndexedFields()[workflows.SearchAttrStatus]); p != "" && g.Running {
				g.Status = p
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
			var res workflows.GoalResult
			if dc.FromPayloads(ev.GetWorkflowExecutionCompletedEventAttributes().GetResult(), &res) == nil {
				g.Status, g.Response, g.Reason, g.Steps = res.Status, res.Response, res.Reason, res.Steps
			}
			g.Running, g.Closed = false, at
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
			g.Status, g.Running, g.Closed = workflows.GoalFailed, false, at
			// A goal that ended failed carries its result in the
			// failure's details (docs/design.md §6).
			if f := ev.GetWorkflowExecutionFailedEventAttributes().GetFailure(); f.GetApplicationFailureInfo().GetType() == workflows.ErrTypeGoalFailed {
				var res workflows.GoalResult
				if dc.FromPayloads(f.GetApplicationFailureInfo().GetDetails(), &res) == nil {
					g.Response, g.Reason, g.Steps = res.Response, res.Reason, res.Steps
				}
			}
			if a := ev.GetWorkflowExecutionTerminatedEventAttributes(); a != nil {
				g.Reason = "terminated: " + a.GetReason()
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
			g.Status, g.Running, g.Closed = workflows.GoalCancelled, false, at
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
			// Only the latest run is read; its input carries the state.
		}
	}
	counted := 0
	for _, cid := range children {
		t, err := r.loadTodo(ctx, cid)
		if errors.Is(err, ErrNotFound) {
			continue // initiated, not started yet
		}
		if err != nil {
			return g, err
		}
		if r.HideReasoning {
			for i := range t.Steps {
				t.Steps[i].Thinking = ""
			}
		}
		g.Todos = append(g.Todos, t)
		counted += t.BudgetSteps()
	}
	if g.Running {
		// The goal adds a todo's steps when it ends; count them live here.
		g.Steps = max(g.Steps, replanSteps(g)+counted)
	}
	slices.SortStableFunc(g.Notes, func(a, b Note) int { return a.Time.Compare(b.Time) })
	g.placeNotes()
	return g, nil
}

// replanSteps counts the replan notes of g (each replan attempt is a step).
func replanSteps(g Goal) int {
	n := 0
	for _, x := range g.Notes {
		switch x.Kind {
		case "replanned", PlannerUnchanged, "done", "invalid":
			n++
		}
	}
	return n
}

// BudgetSteps is how many budget steps the todo's Step activities took:
// each think and each device action (docs/design.md §2).
func (t Todo) BudgetSteps() int {
	n := 0
	for _, s := range t.Steps {
		if s.Raw == nil {
			continue
		}
		if s.Raw.Think != nil {
			n++
		}
		if s.Raw.Act != nil && s.Raw.Act.Touched {
			n++
		}
	}
	return n
}

// placeNotes moves goal notes that happened while a todo ran into that
// todo, so questions and answers show inline with its steps.
func (g *Goal) placeNotes() {
	var keep []Note
	for _, n := range g.Notes {
		placed := false
		for i := range g.Todos {
			t := &g.Todos[i]
			end := t.Closed
			if end.IsZero() {
				end = time.Now().Add(time.Hour)
			}
			if !n.Time.Before(t.Started) && !n.Time.After(end) && n.Kind != "plan" && n.Kind != "replanned" && n.Kind != PlannerUnchanged && n.Kind != "done" {
				t.Notes = append(t.Notes, n)
				placed = true
				break
			}
		}
		if !placed {
			keep = append(keep, n)
		}
	}
	g.Notes = keep
	for i := range g.Todos {
		slices.SortStableFunc(g.Todos[i].Notes, func(a, b Note) int { return a.Time.Compare(b.Time) })
		g.Todos[i].placeAmongSteps()
	}
}

func numbered(plan []string) []string {
	out := make([]string, len(plan))
	for i, p := range plan {
		out[i] = strconv.Itoa(i+1) + ". " + p
	}
	return out
}

func todoID(goal string, index, attempt int) string {
	id := fmt.Sprintf("%s/todo-%d", goal, index)
	if attempt > 1 {
		id += fmt.Sprintf("-r%d", attempt-1)
	}
	return id
}

// steeringNote turns a steering signal or update into a note.
func steeringNote(dc converter.DataConverter, name string, input *commonpb.Payloads, at time.Time) (Note, bool) {
	text := func() string {
		var v string
		if input == nil || dc.FromPayloads(input, &v) != nil {
			return ""
		}
		return v
	}
	switch name {
	case workflows.SignalClarify:
		return Note{Time: at, Kind: "answer", Text: text()}, true
	case workflows.SignalApprove:
		var a workflows.ApproveInput
		if input != nil {
			_ = dc.FromPayloads(input, &a)
		}
		k := "denied"
		if a.Approved {
			k = "approved"
		}
		return Note{Time: at, Kind: k, Text: a.Note}, true
	case workflows.SignalPause:
		return Note{Time: at, Kind: "paused"}, true
	case workflows.SignalResume:
		return Note{Time: at, Kind: "resumed"}, true
	case workflows.SignalInject:
		return Note{Time: at, Kind: "inject", Text: text()}, true
	case workflows.SignalUserInput:
		return Note{Time: at, Kind: "say", Text: text()}, true
	}
	return Note{}, false
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// cutNumber splits "3. text" into 3 and "text".
func cutNumber(l string) (int, string, bool) {
	num, rest, ok := strings.Cut(l, ". ")
	if !ok {
		return 0, l, false
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return 0, l, false
	}
	return n, rest, true
}

// StepAnchor is the HTML id of a step on the viewer page.
func StepAnchor(todoWorkflowID string, n int) string {
	id := todoWorkflowID
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	return fmt.Sprintf("%s-step-%d", id, n)
}

// placeAmongSteps puts each of the todo's notes before the first step that
// started after it, so a pause, a resume or an answer shows between the
// steps where it happened; notes after the last step go to NotesAfter.
func (t *Todo) placeAmongSteps() {
	for i := range t.Steps {
		t.Steps[i].NotesBefore = nil
	}
	t.NotesAfter = nil
	for _, n := range t.Notes {
		i := slices.IndexFunc(t.Steps, func(s Step) bool { return s.Scheduled.After(n.Time) })
		if i < 0 {
			t.NotesAfter = append(t.NotesAfter, n)
			continue
		}
		t.Steps[i].NotesBefore = append(t.Steps[i].NotesBefore, n)
	}
}
