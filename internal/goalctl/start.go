package goalctl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/searchattr"
	"github.com/phoneflow/phoneflow/workflows"
)

// NewGoalID returns a fresh goal workflow ID, "goal-" and 8 hex digits.
func NewGoalID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "goal-" + hex.EncodeToString(b[:])
}

// StartRequest describes a goal to start.
type StartRequest struct {
	ID     string // workflow ID; empty = NewGoalID()
	Goal   string
	Device string
	// On, instead of Device, lets the goal pick its phone of the fleet
	// (docs/design.md#phone-fleet).
	On      *fleet.Selector
	Options workflows.GoalOptions
}

// Validate checks the request before anything is sent.
func (r StartRequest) Validate() error {
	if strings.TrimSpace(r.Goal) == "" {
		return errors.New("the goal is empty: say what the phone should do, e.g. `starter run \"turn on Wi-Fi\"`")
	}
	switch {
	case r.On != nil && strings.TrimSpace(r.Device) != "":
		return errors.New("both --device and --on: name the phone, or say what kind of phone the goal may pick, not both")
	case r.On == nil && strings.TrimSpace(r.Device) == "":
		return errors.New("no device: pass --device SERIAL (list phones with `starter devices`), or --on label=LABEL, --on any or --on planner to let the goal pick one")
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
	return workflows.CheckDeviceWait(r.Options.DeviceWait)
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
	in := workflows.GoalInput{Goal: req.Goal, Device: req.Device, On: req.On, Options: req.Options}
	so := StartOptions(id, req.Goal, req.Device)
	if labels := g.phoneLabels(ctx, req.Device); len(labels) > 0 {
		so.TypedSearchAttributes = temporal.NewSearchAttributes(
			statusKey.ValueSet(workflows.GoalPlanning), deviceKey.ValueSet(req.Device), labelsKey.ValueSet(labels))
	}
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
	// A goal running under this ID is not this start's: without this the
	// SDK hands back that run as if it had been started, and the new goal
	// is dropped while the caller says it started.
	so.WorkflowExecutionErrorWhenAlreadyStarted = true
	// A start the server did not answer may still have started the goal,
	// so it is sent again with the same ID: a goal already running under
	// that ID with this text on this phone is the one started before
	// (docs/design.md §16).
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
		if searchattr.Unmapped(err) {
			// Registered moments ago (a worker starting beside this
			// start), the attributes are served from the frontend's next
			// namespace refresh; never registered, they never will be.
			if time.Since(began) > unmappedFor || ctx.Err() != nil {
				return "", fmt.Errorf("start goal %s: %w", id, g.unmappedError(err))
			}
		} else if !serverBusy(ctx, err) || time.Since(began) > startBusyFor {
			return "", fmt.Errorf("start goal %s: %w", id, err)
		}
		unanswered = unanswered || startUnanswered
		select {
		case <-ctx.Done():
			if searchattr.Unmapped(err) {
				err = g.unmappedError(err)
			}
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

// unmappedFor is how long StartGoal tries again while the frontend refuses
// phoneflow's search attributes: longer than a frontend's namespace refresh
// (seconds), short enough that a namespace nobody registered them on says
// so soon.
const unmappedFor = 30 * time.Second

// UnmappedError says the namespace's frontend does not serve phoneflow's
// search attributes, and what to do.
type UnmappedError struct {
	Namespace string
	Err       error
}

func (e *UnmappedError) Error() string {
	return fmt.Sprintf("namespace %s does not serve phoneflow's search attributes (%v): a phoneflow worker registers them when it starts "+
		"(start one on this namespace and wait for it to say it is ready), or register them as an operator: `%s`; "+
		"registered moments ago, they are served within seconds", e.Namespace, e.Err, searchattr.RegisterCommand(e.Namespace))
}

func (e *UnmappedError) Unwrap() error { return e.Err }

func (g *Client) unmappedError(err error) error {
	return &UnmappedError{Namespace: g.opts.Namespace, Err: err}
}

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

// phoneLabels are the labels the fleet's record of phone serial carries,
// for the goal's PhoneflowLabels search attribute (nil for no serial, an
// unlabelled or unpublished phone, or a fleet that cannot be read: the
// labels only show and filter the goal, they decide nothing).
func (g *Client) phoneLabels(ctx context.Context, serial string) []string {
	if serial == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	phones, err := g.Fleet(ctx)
	if err != nil {
		return nil
	}
	for _, p := range phones {
		if p.Serial == serial {
			return p.Labels
		}
	}
	return nil
}
