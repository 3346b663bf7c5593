package goalctl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/progress"
	"github.com/phoneflow/phoneflow/workflows"
)

// GoalWorkflowName is the registered type name of workflows.GoalWorkflow.
// Goals are started by name so this package does not depend on the
// workflow code itself.
const GoalWorkflowName = "GoalWorkflow"

// MemoGoal is the memo key holding the goal text, so `list` can show it
// without querying every workflow.
const MemoGoal = "goal"

var (
	statusKey = temporal.NewSearchAttributeKeyKeyword(workflows.SearchAttrStatus)
	deviceKey = temporal.NewSearchAttributeKeyKeyword(workflows.SearchAttrDevice)
)

// Options configure a Client.
type Options struct {
	// Namespace is used in Web UI links; empty = "default".
	Namespace string
	// UIAddress is the Temporal Web UI, as host:port or a URL; empty = no
	// links.
	UIAddress string
	// DataConverter decodes memos and search attributes in list results;
	// nil = the SDK default.
	DataConverter converter.DataConverter
	// Prices estimate the cost of schedules' runs; zero = no estimate.
	Prices Prices
}

// Client runs goal operations against a Temporal cluster.
type Client struct {
	c    client.Client
	opts Options
}

// New returns a Client using c.
func New(c client.Client, opts Options) *Client {
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	if opts.DataConverter == nil {
		opts.DataConverter = converter.GetDefaultDataConverter()
	}
	return &Client{c: c, opts: opts}
}

// NotFoundError says a goal or schedule does not exist, or that no worker
// serves a device.
type NotFoundError struct {
	Kind string // "goal", "schedule" or "device"
	ID   string
}

func (e *NotFoundError) Error() string {
	switch e.Kind {
	case "schedule":
		return fmt.Sprintf("no schedule named %s (list schedules with `starter schedule list`)", e.ID)
	case "device":
		return fmt.Sprintf("no worker serves device %s (task queue %s has no pollers): check the serial with `starter devices` "+
			"and that a worker runs on the host the phone is plugged into (`go run ./worker`)", e.ID, workflows.DeviceTaskQueue(e.ID))
	}
	return fmt.Sprintf("no goal with id %s (list goals with `starter list`)", e.ID)
}

// ErrFinished means the goal has already ended, so it cannot take signals
// or updates any more.
var ErrFinished = errors.New("goal has already finished")

// wrap turns Temporal's service errors into this package's errors.
func wrap(id, op string, err error) error {
	if err == nil {
		return nil
	}
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		if strings.Contains(strings.ToLower(nf.Error()), "already completed") {
			return fmt.Errorf("%s %s: %w (see its outcome with `starter status %s`)", op, id, ErrFinished, id)
		}
		return &NotFoundError{Kind: "goal", ID: id}
	}
	if strings.Contains(strings.ToLower(err.Error()), "workflow execution already completed") {
		return fmt.Errorf("%s %s: %w (see its outcome with `starter status %s`)", op, id, ErrFinished, id)
	}
	return fmt.Errorf("%s %s: %w", op, id, err)
}

// NewGoalID returns a fresh goal workflow ID, "goal-" and 8 hex digits.
func NewGoalID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "goal-" + hex.EncodeToString(b[:])
}

// StartRequest describes a goal to start.
type StartRequest struct {
	ID      string // workflow ID; empty = NewGoalID()
	Goal    string
	Device  string
	Options workflows.GoalOptions
}

// Validate checks the request before anything is sent.
func (r StartRequest) Validate() error {
	if strings.TrimSpace(r.Goal) == "" {
		return errors.New("the goal is empty: say what the phone should do, e.g. `starter run \"turn on Wi-Fi\"`")
	}
	if strings.TrimSpace(r.Device) == "" {
		return errors.New("no device: pass --device SERIAL (list phones with `starter devices`)")
	}
	if r.ID != "" {
		if err := CheckGoalID(r.ID); err != nil {
			return err
		}
	}
	switch r.Options.Mode {
	case "", workflows.ModeLayered, workflows.ModeSingle:
	default:
		return fmt.Errorf("mode %q is not known: use %q or %q", r.Options.Mode, workflows.ModeLayered, workflows.ModeSingle)
	}
	return nil
}

// CheckGoalText refuses a goal text longer than max bytes
// (limits.max_goal_text), before anything is started: a planner would spend
// its attempts reading it and the goal would sit in planning out of sight.
func CheckGoalText(goal string, max int) error {
	if max <= 0 || len(goal) <= max {
		return nil
	}
	return fmt.Errorf("the goal is %d bytes, over the limit of %d (limits.max_goal_text): say in a few sentences what the phone should do, "+
		"or raise the limit with PHONEFLOW_LIMITS_MAX_GOAL_TEXT=%d or limits.max_goal_text in phoneflow.yaml", len(goal), max, len(goal))
}

// goalID is what a goal ID given by a person may hold: no spaces, and no
// '/', which separates a goal's ID from its todos' (`<goal id>/todo-<n>`).
var goalID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$`)

// CheckGoalID checks a goal ID chosen by a person (`run --id`).
func CheckGoalID(id string) error {
	if goalID.MatchString(id) {
		return nil
	}
	why := "use letters, digits, '.', '_' or '-' (up to 200), starting with a letter or digit"
	switch {
	case strings.Contains(id, "/"):
		why = "'/' separates a goal's ID from its todos' IDs; " + why
	case strings.ContainsFunc(id, unicode.IsSpace):
		why = "it holds a space; " + why
	}
	return fmt.Errorf("goal id %q: %s, e.g. goal-morning", id, why)
}

// IDTakenError says a goal ID has been used: goal IDs are never reused, so
// a goal's history and result stay its own.
type IDTakenError struct {
	ID      string
	Running bool
	Status  string // the finished goal's status: done, failed, cancelled, …
}

func (e *IDTakenError) Error() string {
	if e.Running {
		return fmt.Sprintf("a goal with id %s is already running: pick another --id (or leave it out for a fresh one), or watch it with `starter status -f %s`", e.ID, e.ID)
	}
	return fmt.Sprintf("a goal with id %s already ran (%s) and goal IDs are not reused: pick another --id (or leave it out for a fresh one); its outcome: `starter status %s`", e.ID, e.Status, e.ID)
}

// StartOptions returns the Temporal start options of a goal: its ID, the
// goal task queue, the goal text as the Web UI summary and memo, and the
// search attributes `list` filters on.
func StartOptions(id, goal, device string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID:            id,
		TaskQueue:     workflows.TaskQueue,
		StaticSummary: summary(goal),
		Memo:          map[string]any{MemoGoal: goal},
		TypedSearchAttributes: temporal.NewSearchAttributes(
			statusKey.ValueSet(workflows.GoalPlanning),
			deviceKey.ValueSet(device),
		),
	}
}

// summary bounds the Web UI summary (the server limits it to 400 bytes).
func summary(s string) string {
	if len(s) <= 400 {
		return s
	}
	cut := 397
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Start starts a goal and returns its workflow ID and run ID.
func (g *Client) Start(ctx context.Context, req StartRequest) (id, runID string, err error) {
	if err := req.Validate(); err != nil {
		return "", "", err
	}
	id = req.ID
	if id == "" {
		id = NewGoalID()
	}
	in := workflows.GoalInput{Goal: req.Goal, Device: req.Device, Options: req.Options}
	so := StartOptions(id, req.Goal, req.Device)
	// A finished goal's ID is not silently taken over by a new goal: its
	// history, result and step viewer page stay its own.
	so.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	runID, err = g.StartGoal(ctx, so, in)
	if err != nil {
		return "", "", err
	}
	return id, runID, nil
}

// StartGoal starts the goal in under the start options so (whose ID must be
// set) and returns its run ID; a goal already started under that ID by
// someone else is an *IDTakenError.
func (g *Client) StartGoal(ctx context.Context, so client.StartWorkflowOptions, in workflows.GoalInput) (runID string, err error) {
	id := so.ID
	// The caller built these options (from its config, or as a test or
	// benchmark wants them): the worker adds no defaults of its own
	// (docs/design.md §2).
	in.Options.Resolved = true
	// A start the server did not answer may still have started the goal,
	// so it is sent again with the same ID: a goal already running under
	// that ID with this text on this phone is the one started before
	// (docs/design.md §12).
	began, wait, unanswered := time.Now(), busyRetryFirst, false
	for {
		run, err := g.c.ExecuteWorkflow(ctx, so, GoalWorkflowName, in)
		if err == nil {
			return run.GetRunID(), nil
		}
		startUnanswered := serverBusy(ctx, err)
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if errors.As(err, &started) {
			info, derr := g.Describe(ctx, id)
			if derr == nil && unanswered && info.Goal == in.Goal && info.Device == in.Device && !info.Start.Before(began.Add(-time.Minute)) {
				return info.RunID, nil
			}
			if derr == nil || !serverBusy(ctx, derr) {
				taken := &IDTakenError{ID: id, Running: true}
				if derr == nil && info.State != "running" {
					taken.Running, taken.Status = false, info.Status
				}
				return "", taken
			}
			err = derr
		}
		if !serverBusy(ctx, err) || time.Since(began) > startBusyFor {
			return "", fmt.Errorf("start goal %s: %w", id, err)
		}
		unanswered = unanswered || startUnanswered
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("start goal %s: %w", id, err)
		case <-time.After(wait):
		}
		wait = min(2*wait, busyRetryMax)
	}
}

// How StartGoal and Result try again while the server does not answer:
// first after busyRetryFirst, doubling up to busyRetryMax; StartGoal gives
// up after startBusyFor, Result only when its context ends (a goal may run
// for hours).
const (
	busyRetryFirst = 500 * time.Millisecond
	busyRetryMax   = 5 * time.Second
	startBusyFor   = 2 * time.Minute
)

// serverBusy reports a call the server did not answer, or refused while
// too busy, with ctx itself still live: the call says nothing about the
// goal and may be sent again. A loaded server also answers "namespace not
// found" when it cannot read its namespace store in time (a namespace that
// is really missing fails the checks before a goal starts, such as
// CheckDevice, at once).
func serverBusy(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	var nf *serviceerror.NamespaceNotFound
	return transient(err) || errors.As(err, &nf) || errors.Is(err, context.DeadlineExceeded)
}

// WebURL returns the Web UI page of a workflow, or "" when no UI address
// is configured.
func (g *Client) WebURL(id string) string {
	ui := strings.TrimRight(g.opts.UIAddress, "/")
	if ui == "" {
		return ""
	}
	if !strings.Contains(ui, "://") {
		ui = "http://" + ui
	}
	return fmt.Sprintf("%s/namespaces/%s/workflows/%s", ui, g.opts.Namespace, escapeID(id))
}

// escapeID escapes the characters of a workflow ID that cannot appear in a
// URL path segment (child IDs contain "/").
func escapeID(id string) string {
	r := strings.NewReplacer("%", "%25", "/", "%2F", " ", "%20", "?", "%3F", "#", "%23")
	return r.Replace(id)
}

// Status runs the goal's status query.
func (g *Client) Status(ctx context.Context, id string) (workflows.Status, error) {
	var st workflows.Status
	v, err := g.c.QueryWorkflow(ctx, id, "", workflows.QueryStatus)
	if err != nil {
		return st, wrap(id, "status", err)
	}
	if err := v.Get(&st); err != nil {
		return st, fmt.Errorf("status %s: decode query answer: %w", id, err)
	}
	return st, nil
}

// Todos runs the goal's todos query.
func (g *Client) Todos(ctx context.Context, id string) ([]workflows.TodoState, error) {
	var todos []workflows.TodoState
	v, err := g.c.QueryWorkflow(ctx, id, "", workflows.QueryTodos)
	if err != nil {
		return nil, wrap(id, "todos", err)
	}
	if err := v.Get(&todos); err != nil {
		return nil, fmt.Errorf("todos %s: decode query answer: %w", id, err)
	}
	return todos, nil
}

// LiveTodos is Todos with the running todo's step count read from its own
// workflow: the goal only counts a todo's steps when the todo ends.
func (g *Client) LiveTodos(ctx context.Context, id string) ([]workflows.TodoState, error) {
	todos, err := g.Todos(ctx, id)
	if err != nil || !slices.ContainsFunc(todos, func(t workflows.TodoState) bool { return t.Status == workflows.TodoRunning }) {
		return todos, err
	}
	st, err := g.Status(ctx, id)
	if err != nil {
		return todos, nil // the list itself is right; only the live count is missing
	}
	if child := runningChild(id, st, todos); child != "" {
		if ts, err := g.Status(ctx, child); err == nil {
			_, todos[st.CurrentTodo-1].Steps = workflows.RunningCount(st.Steps, todos[st.CurrentTodo-1], ts.Steps)
		}
	}
	return todos, nil
}

// Snapshot reads both queries and returns the progress view of the goal.
func (g *Client) Snapshot(ctx context.Context, id string) (progress.Snapshot, error) {
	st, err := g.Status(ctx, id)
	if err != nil {
		return progress.Snapshot{}, err
	}
	// The status answer carries the todos of the same moment; a second
	// query could pair counters of one todo with the list of the next.
	todos := st.Todos
	if todos == nil {
		if todos, err = g.Todos(ctx, id); err != nil { // a worker that predates Status.Todos
			return progress.Snapshot{}, err
		}
	}
	return g.SnapshotOf(ctx, id, st, todos), nil
}

// SnapshotOf builds the progress view from query answers already read,
// adding the running todo's live step count and latest action when its
// workflow answers.
func (g *Client) SnapshotOf(ctx context.Context, id string, st workflows.Status, todos []workflows.TodoState) progress.Snapshot {
	s := ToSnapshot(id, st, todos)
	// The goal adds a todo's steps to its own when the todo ends; the
	// running todo workflow knows them live, and they join the goal's as
	// in the goal's details (docs/design.md §7).
	if child := runningChild(id, st, todos); child != "" {
		if ts, err := g.Status(ctx, child); err == nil {
			s.Steps, s.Todos[st.CurrentTodo-1].Steps = workflows.RunningCount(st.Steps, todos[st.CurrentTodo-1], ts.Steps)
			s.Action, s.Thinking, s.Routine = ActionLine(ts), ts.Thinking, ts.Routine
		}
	}
	return s
}

// ActionLine is a todo's latest action and its result ("Tap [500,212] →
// ok"), or its latest feedback item from a worker that predates
// Status.LastAction.
func ActionLine(ts workflows.Status) string {
	if ts.LastAction != "" {
		r := ts.LastResult
		if r == "" {
			r = "ok"
		}
		return ts.LastAction + " → " + r
	}
	if n := len(ts.Feedback); n > 0 {
		return ts.Feedback[n-1]
	}
	return ""
}

// runningChild returns the workflow ID of the goal's running todo
// (`<goal id>/todo-<n>`, `-r<k>` for its k-th restart), or "".
func runningChild(id string, st workflows.Status, todos []workflows.TodoState) string {
	n := st.CurrentTodo
	if n <= 0 || n > len(todos) || todos[n-1].Status != workflows.TodoRunning {
		return ""
	}
	child := fmt.Sprintf("%s/todo-%d", id, n)
	if a := todos[n-1].Attempts; a > 1 {
		child += fmt.Sprintf("-r%d", a-1)
	}
	return child
}

// ToSnapshot converts the goal's query answers into the progress view. The
// goal's own feedback items (todo outcomes) are already in the checklist, so
// Action is left for the running todo's status to fill.
func ToSnapshot(id string, st workflows.Status, todos []workflows.TodoState) progress.Snapshot {
	s := progress.Snapshot{
		GoalID:      id,
		Phase:       st.Phase,
		Steps:       st.Steps,
		MaxSteps:    st.MaxSteps,
		CurrentTodo: st.CurrentTodo,
		Question:    st.PendingQuestion,
		WaitingFor:  st.WaitingFor,
		Todos:       ToTodos(todos),
	}
	if w := workflows.WaitLine(st, time.Now()); w != "" {
		s.WaitingFor = w // counted from now: the goal's own line is from when the wait began
	}
	if st.Paused && s.Phase != workflows.GoalPaused {
		s.Phase += " (paused)"
	}
	if a := st.PendingApproval; a != nil {
		s.Approval = a.Action
		if a.Reason != "" {
			s.Approval += " — " + a.Reason
		}
	}
	if by := st.AnswerBy; !by.IsZero() {
		// Past this the goal fails (docs/design.md §17).
		suffix := " (answer by " + by.UTC().Format("2006-01-02 15:04 UTC") + ")"
		if s.Question != "" {
			s.Question += suffix
		}
		if s.Approval != "" {
			s.Approval += suffix
		}
	}
	return s
}

// ToTodos converts todo states into checklist lines.
func ToTodos(todos []workflows.TodoState) []progress.Todo {
	out := make([]progress.Todo, 0, len(todos))
	for _, t := range todos {
		out = append(out, progress.Todo{Text: t.Text, Status: t.Status, Steps: t.Steps, Result: t.Result})
	}
	return out
}

// ToResult converts a goal's result into the printed outcome.
func ToResult(id string, r workflows.GoalResult) progress.Result {
	return progress.Result{
		GoalID: id, Status: r.Status, Steps: r.Steps, Todos: ToTodos(r.Todos),
		Response: r.Response, Reason: r.Reason, NextStep: r.NextStep,
	}
}

// Send delivers a signal-or-update name with its argument (nil for none).
// By default it runs the update and waits for it to complete, so a
// validator rejection comes back as the error; with asSignal it sends a
// plain signal, which is accepted even when the goal will ignore it.
//
// The update carries an update ID (WithUpdateID's, else a fresh one) and
// is retried with that same ID while the frontend is unreachable, so a
// retried update is applied once: Temporal returns the first outcome of an
// ID instead of running the handler again.
func (g *Client) Send(ctx context.Context, id, name string, arg any, asSignal bool) error {
	if asSignal {
		return wrap(id, name, g.c.SignalWorkflow(ctx, id, "", name, arg))
	}
	return g.update(ctx, id, name, arg, nil)
}

// PersonAction sends a person's action on the goal's phone (the step
// viewer's take-over, docs/design.md §17) and returns what the phone did.
func (g *Client) PersonAction(ctx context.Context, id string, a workflows.PersonAction) (activities.PersonActResult, error) {
	var res activities.PersonActResult
	err := g.update(ctx, id, workflows.UpdatePersonAction, a, &res)
	return res, err
}

// update sends update name and decodes its result into out (nil: none),
// as Send describes.
func (g *Client) update(ctx context.Context, id, name string, arg, out any) error {
	var args []any
	if arg != nil {
		args = []any{arg}
	}
	updateID := updateIDFrom(ctx)
	if updateID == "" {
		updateID = NewUpdateID(name)
	}
	var err error
	for try, wait := 1, updateRetryFirst; ; try, wait = try+1, 2*wait {
		var h client.WorkflowUpdateHandle
		h, err = g.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
			WorkflowID:   id,
			UpdateID:     updateID,
			UpdateName:   name,
			Args:         args,
			WaitForStage: client.WorkflowUpdateStageCompleted,
		})
		if err == nil {
			err = h.Get(ctx, out)
		}
		if err == nil || try >= updateTries || !transient(err) {
			break
		}
		select {
		case <-ctx.Done():
			return wrap(id, name, err)
		case <-time.After(wait):
		}
	}
	if err == nil {
		return nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		// The workflow's validator or handler refused: its message is the
		// answer ("resume: goal is not paused").
		return &RejectedError{Name: name, Message: app.Message()}
	}
	var nr *serviceerror.WorkflowNotReady
	if errors.As(err, &nr) {
		// The server refuses updates to a workflow whose workflow task keeps
		// failing (a deploy it cannot replay, or a bug), but still takes
		// signals: they wait in its history until it runs again.
		return fmt.Errorf("%s %s: the goal cannot take updates while its workflow task keeps failing (see why with `starter status %s`); "+
			"send it as a plain signal with --signal, which the goal applies once it runs again: %w", name, id, id, err)
	}
	return wrap(id, name, err)
}

// How often Send tries an update while the frontend does not answer.
const (
	updateTries      = 4
	updateRetryFirst = 500 * time.Millisecond
)

// transient reports errors after which the same update may be sent again:
// the frontend was unreachable or busy, or the call timed out.
func transient(err error) bool {
	var un *serviceerror.Unavailable
	var re *serviceerror.ResourceExhausted
	var de *serviceerror.DeadlineExceeded
	return errors.As(err, &un) || errors.As(err, &re) || errors.As(err, &de)
}

type updateIDKey struct{}

// WithUpdateID makes Send use updateID for its update: a command retried
// with the same ID (a script that re-runs `starter inject --update-id X`
// after a timeout) is applied once.
func WithUpdateID(ctx context.Context, updateID string) context.Context {
	return context.WithValue(ctx, updateIDKey{}, updateID)
}

func updateIDFrom(ctx context.Context) string {
	s, _ := ctx.Value(updateIDKey{}).(string)
	return s
}

// NewUpdateID returns a fresh update ID, the update's name and 16 hex digits.
func NewUpdateID(name string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return name + "-" + hex.EncodeToString(b[:])
}

// RejectedError is an update the goal refused.
type RejectedError struct {
	Name    string
	Message string
}

func (e *RejectedError) Error() string {
	if strings.HasPrefix(e.Message, e.Name+":") {
		return e.Message
	}
	return e.Name + ": " + e.Message
}

// Clarify answers the goal's pending question.
func (g *Client) Clarify(ctx context.Context, id, text string, asSignal bool) error {
	if err := checkText("clarify", text); err != nil {
		return err
	}
	return g.Send(ctx, id, workflows.SignalClarify, text, asSignal)
}

// Approve approves (or, with approved false, denies) the pending sensitive
// action.
func (g *Client) Approve(ctx context.Context, id string, approved bool, note string, asSignal bool) error {
	return g.Send(ctx, id, workflows.SignalApprove, workflows.ApproveInput{Approved: approved, Note: note}, asSignal)
}

// checkText applies the size rules the workflow's validators apply, so a
// plain signal is not silently dropped for them.
func checkText(name, text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%s: the text is empty", name)
	}
	if len(text) > workflows.MaxSignalText {
		return fmt.Errorf("%s: the text is %d bytes, over the limit of %d: shorten it", name, len(text), workflows.MaxSignalText)
	}
	return nil
}

// SendText sends one of the text-carrying names (clarify, inject,
// user_input) after checking the text.
func (g *Client) SendText(ctx context.Context, id, name, text string, asSignal bool) error {
	if err := checkText(name, text); err != nil {
		return err
	}
	return g.Send(ctx, id, name, text, asSignal)
}

// Cancel requests cancellation of a goal; the workflow cancels its running
// todo and returns with status cancelled.
// A goal that has already ended is reported with ErrFinished: the server
// accepts a cancel request for it and does nothing.
func (g *Client) Cancel(ctx context.Context, id string) error {
	info, err := g.Describe(ctx, id)
	if err != nil {
		return err
	}
	if info.State != "running" {
		return fmt.Errorf("cancel %s: %w (%s): nothing to cancel; see its outcome with `starter status %s`", id, ErrFinished, info.Status, id)
	}
	return wrap(id, "cancel", g.c.CancelWorkflow(ctx, id, ""))
}

// Result waits for the goal to end and returns its result, also when it
// closed as Failed or Canceled with its result in the details. A goal that
// failed as a workflow without a result (it broke, timed out, was
// terminated) returns the error.
func (g *Client) Result(ctx context.Context, id string) (workflows.GoalResult, error) {
	var r workflows.GoalResult
	err := g.c.GetWorkflow(ctx, id, "").Get(ctx, &r)
	// A wait the server did not answer is not the goal's end: the goal
	// runs on (docs/design.md §12).
	for wait := busyRetryFirst; serverBusy(ctx, err); wait = min(2*wait, busyRetryMax) {
		select {
		case <-ctx.Done():
			return r, wrap(id, "result", err)
		case <-time.After(wait):
		}
		r = workflows.GoalResult{}
		err = g.c.GetWorkflow(ctx, id, "").Get(ctx, &r)
	}
	if err != nil {
		// A goal that ended failed closes as Failed with its result as
		// the failure's details (docs/design.md §20).
		if workflows.FailedResult(err, &r) {
			return r, nil
		}
		var canceled *temporal.CanceledError
		if errors.As(err, &canceled) {
			// A goal closed as Canceled carries its partial result.
			r = workflows.GoalResult{}
			if !workflows.CanceledResult(err, &r) || r.Status == "" {
				r = workflows.GoalResult{Status: workflows.GoalCancelled, Reason: "cancelled"}
			}
			return r, nil
		}
		return r, wrap(id, "result", err)
	}
	return r, nil
}

// CheckDevice reports a *NotFoundError when no worker polls the task queue
// of the phone serial, so a goal for a phone nobody drives fails at once
// instead of waiting forever. Workers stay listed for a few minutes after
// they stop, so a restarting worker does not fail the check.
func (g *Client) CheckDevice(ctx context.Context, serial string) error {
	resp, err := g.c.DescribeTaskQueue(ctx, workflows.DeviceTaskQueue(serial), enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		return fmt.Errorf("check device %s: %w", serial, err)
	}
	if len(resp.GetPollers()) == 0 {
		return &NotFoundError{Kind: "device", ID: serial}
	}
	return nil
}
