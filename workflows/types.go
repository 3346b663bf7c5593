package workflows

import (
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// Goal modes.
const (
	ModeLayered = "layered" // planner plans todos, executor runs each, planner replans
	ModeSingle  = "single"  // no planner: the executor runs the whole goal as one todo
	// ModeBare is the single loop without the stuck guard and without
	// verifying the finish: the plain thought-act-observe loop of the
	// reference phone agents, kept to measure what the guards add
	// (`starter eval --mode bare`, docs/design.md §9). Its done is the
	// executor's word, so goals cannot be started in it from the CLI.
	ModeBare = "bare"
)

// Device wait policies when the phone is held by another goal.
const (
	DeviceWaitWait = "wait"
	DeviceWaitFail = "fail"
)

// Defaults applied by GoalOptions.WithDefaults.
const (
	DefaultMaxSteps          = 100
	DefaultTodoMaxSteps      = 30
	DefaultFailureThreshold  = 3
	DefaultStuckThreshold    = 3
	DefaultMaxStuckRetries   = 2
	DefaultFeedbackHistory   = 2
	DefaultHistoryEventLimit = 5000
	// DefaultDeviceWaitDeadline is how long a todo waits for a phone that
	// stopped answering before it asks the user.
	DefaultDeviceWaitDeadline = 2 * time.Minute
	// DefaultModelOutageWait is how long a goal waits out a planner or
	// executor model that does not answer before it fails.
	DefaultModelOutageWait = 6 * time.Hour
	// DefaultAnswerDeadline is how long a question or an approval waits
	// for a person before the goal gives up on it (docs/design.md §7).
	DefaultAnswerDeadline = 24 * time.Hour
	// DefaultDurableWaitAfter: a Wait action longer than this is a
	// workflow timer instead of a sleep inside the Step activity.
	DefaultDurableWaitAfter = 30 * time.Second
	// DefaultReleasePhoneAfter: a question or approval that has waited this
	// long gives the phone back until it is answered.
	DefaultReleasePhoneAfter = 5 * time.Minute
	// DefaultMaxGoalText is the longest goal text in bytes a goal takes
	// when its MaxGoalText option is unset (the default of
	// limits.max_goal_text).
	DefaultMaxGoalText = 4000
	// MaxTodoRestarts is how often a stuck todo is restarted with a fresh
	// executor context before it is failed and left to the replanner.
	MaxTodoRestarts = 1
)

// GoalOptions tune a goal. Zero values mean "use the default".
type GoalOptions struct {
	MaxSteps     int `json:"max_steps,omitempty"`
	TodoMaxSteps int `json:"todo_max_steps,omitempty"`
	// ReviewEvery: every this many executor turns the planner looks in
	// on a running todo (docs/design.md#planner-review); zero takes the
	// worker's default when the options are not resolved, negative is off.
	ReviewEvery      int      `json:"review_every,omitempty"`
	Mode             string   `json:"mode,omitempty"`
	Plan             []string `json:"plan,omitempty"` // given plan: PlanOnce is skipped
	TaskType         string   `json:"task_type,omitempty"`
	AutoApprove      bool     `json:"auto_approve,omitempty"`
	FailureThreshold int      `json:"failure_threshold,omitempty"`
	StuckThreshold   int      `json:"stuck_threshold,omitempty"`
	MaxStuckRetries  int      `json:"max_stuck_retries,omitempty"`
	FeedbackHistory  int      `json:"feedback_history,omitempty"`
	// UITree sends the UI element list to the executor. A nil pointer means
	// the default (true); JSON "ui_tree": false turns it off.
	UITree         *bool  `json:"ui_tree,omitempty"`
	DeviceWait     string `json:"device_wait,omitempty"`
	OptimizePrompt bool   `json:"optimize_prompt,omitempty"`
	// Routines replays a todo's learned routine before asking the executor
	// model, and records routines from todos verified done
	// (docs/design.md §8).
	Routines bool `json:"routines,omitempty"`
	// HistoryEventLimit continues a run as new once its history reaches this
	// many events, even before the server suggests it.
	HistoryEventLimit int `json:"history_event_limit,omitempty"`
	// DeviceWaitDeadline is how long a todo keeps retrying a phone that does
	// not answer (disconnected, offline) before it asks the user to
	// reconnect it, and how long the goal waits for a worker to serve its
	// phone before it fails (docs/design.md §5). Zero means
	// DefaultDeviceWaitDeadline.
	DeviceWaitDeadline time.Duration `json:"device_wait_deadline,omitempty"`
	// ModelOutageWait is how long a model that keeps failing with a
	// retryable error (unreachable, 5xx, 429, timeouts) is waited for
	// before the goal fails. Zero means DefaultModelOutageWait.
	ModelOutageWait time.Duration `json:"model_outage_wait,omitempty"`
	// AnswerDeadline is how long a question or an approval waits for a
	// person; past it the goal fails with the question in its reason, or
	// a question takes DefaultAnswer. Zero means DefaultAnswerDeadline.
	AnswerDeadline time.Duration `json:"answer_deadline,omitempty"`
	// DefaultAnswer, when set, answers a question nobody answered by its
	// deadline. Approvals never take it: an unapproved action is not run.
	DefaultAnswer string `json:"default_answer,omitempty"`
	// DurableWaitAfter: a Wait action longer than this waits as a workflow
	// timer, not inside an activity. Zero means DefaultDurableWaitAfter.
	DurableWaitAfter time.Duration `json:"durable_wait_after,omitempty"`
	// KeepPhoneDuringWaits keeps the phone leased while the goal waits for
	// a time or a person; by default it is given back (docs/design.md §7).
	KeepPhoneDuringWaits bool `json:"keep_phone_during_waits,omitempty"`
	// ReleasePhoneAfter is how long a question or approval waits before the
	// phone is given back. Zero means DefaultReleasePhoneAfter.
	ReleasePhoneAfter time.Duration `json:"release_phone_after,omitempty"`
	// TimeZone is the user's time zone for waits until a time of day: an
	// IANA name or an offset such as "+08:00"; empty means UTC.
	TimeZone string `json:"time_zone,omitempty"`
	// MaxGoalText is the longest goal text in bytes this goal takes; a
	// longer one ends failed before planning (docs/design.md §2). Zero
	// means DefaultMaxGoalText.
	MaxGoalText int `json:"max_goal_text,omitempty"`
	// Resolved says whoever started the goal filled these options from its
	// own config (`starter run`, `starter schedule`, goalctl): the worker
	// adds nothing. Without it — a goal started with `temporal workflow
	// start`, the Web UI's Start Workflow or a hand-made Temporal Schedule —
	// every option the input leaves out is taken from the config of the
	// worker that starts the goal (docs/design.md §2).
	Resolved bool `json:"resolved,omitempty"`

	// given are the keys the JSON input held; nil for options built in Go.
	given map[string]bool
}

// singleLoop reports whether the executor runs the whole goal as one todo.
func (o GoalOptions) singleLoop() bool { return o.Mode == ModeSingle || o.Mode == ModeBare }

// UseUITree reports the effective UITree setting.
func (o GoalOptions) UseUITree() bool { return o.UITree == nil || *o.UITree }

// WithDefaults returns o with every unset field filled with its default.
func (o GoalOptions) WithDefaults() GoalOptions {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxSteps, DefaultMaxSteps)
	def(&o.TodoMaxSteps, DefaultTodoMaxSteps)
	def(&o.FailureThreshold, DefaultFailureThreshold)
	def(&o.StuckThreshold, DefaultStuckThreshold)
	def(&o.MaxStuckRetries, DefaultMaxStuckRetries)
	def(&o.FeedbackHistory, DefaultFeedbackHistory)
	def(&o.HistoryEventLimit, DefaultHistoryEventLimit)
	def(&o.MaxGoalText, DefaultMaxGoalText)
	if o.DeviceWaitDeadline <= 0 {
		o.DeviceWaitDeadline = DefaultDeviceWaitDeadline
	}
	if o.ModelOutageWait <= 0 {
		o.ModelOutageWait = DefaultModelOutageWait
	}
	if o.AnswerDeadline <= 0 {
		o.AnswerDeadline = DefaultAnswerDeadline
	}
	if o.DurableWaitAfter <= 0 {
		o.DurableWaitAfter = DefaultDurableWaitAfter
	}
	if o.ReleasePhoneAfter <= 0 {
		o.ReleasePhoneAfter = DefaultReleasePhoneAfter
	}
	if o.Mode == "" {
		o.Mode = ModeLayered
	}
	if o.DeviceWait == "" {
		o.DeviceWait = DeviceWaitWait
	}
	if o.UITree == nil {
		t := true
		o.UITree = &t
	}
	return o
}

// GoalInput starts a GoalWorkflow.
type GoalInput struct {
	Goal    string      `json:"goal"`
	Device  string      `json:"device"`
	Options GoalOptions `json:"options"`
	// On, with Device empty, says what phone the goal may run on: the
	// goal picks one (pickPhone) and sets Device and Picked
	// (docs/design.md#phone-fleet).
	On     *fleet.Selector `json:"on,omitempty"`
	Picked string          `json:"picked,omitempty"` // "on phone X (label shop)"
	// State is set only when a run continues as new: everything the goal
	// had done and queued so far.
	State *GoalState `json:"state,omitempty"`
}

// TodoState is one todo and its outcome.
type TodoState struct {
	Index    int    `json:"index"` // 1-based
	Text     string `json:"text"`
	Status   string `json:"status"`
	Steps    int    `json:"steps"`
	Result   string `json:"result,omitempty"`
	Attempts int    `json:"attempts,omitempty"` // child runs started (restarts after being stuck add one)
	// Usage is the todo's model calls (docs/design.md §9).
	Usage llm.RoleUsage `json:"usage,omitzero"`
	// Verified and Evidence: the verification of the todo's last run
	// (docs/design.md §9).
	Verified bool   `json:"verified,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// Guidance is the executor guidance version its last run used
	// (docs/design.md §2 Guards).
	Guidance int `json:"guidance,omitempty"`
	// Dropped is the planner's reason for leaving the todo out on purpose.
	Dropped string `json:"dropped,omitempty"`
	// Expect are the postconditions the planner wrote for the todo and
	// Checks which of them held at its last verification; Committed the
	// commit actions it applied (docs/design.md §9).
	Expect    []postcond.Check  `json:"expect,omitempty"`
	Checks    []postcond.Result `json:"checks,omitempty"`
	Committed []string          `json:"committed,omitempty"`
	Refused   int               `json:"refused,omitempty"`
	// Repeated says the todo failed twice in a row the same way without
	// changing the phone: it is not run again (docs/design.md §9).
	Repeated string `json:"repeated,omitempty"`
	// CommitKeys key the commit actions its runs applied (TodoInput.Prior).
	CommitKeys []string `json:"commit_keys,omitempty"`
	// Phone is the phone the planner named for the todo (a serial or
	// "label=L"; "" for the goal's own phone) and Device the phone it
	// ran on, once chosen (docs/design.md#goals-that-span-phones).
	Phone  string `json:"phone,omitempty"`
	Device string `json:"device,omitempty"`
	// Answered are the executor's questions about what the todo left out
	// and their answers, from its last run (TodoResult.Answered).
	Answered []activities.QA `json:"answered,omitempty"`
	// Look marks a todo the goal added to look again, changing nothing,
	// at a state an earlier todo set that no screen showed since a later
	// todo ran (docs/design.md §9, A todo that only looks).
	Look bool `json:"look,omitempty"`
}

// GoalResult is what a GoalWorkflow returns.
type GoalResult struct {
	Status   string      `json:"status"` // done | failed | cancelled
	Todos    []TodoState `json:"todos"`
	Steps    int         `json:"steps"`
	Response string      `json:"response,omitempty"`  // the planner's (or executor's) final answer
	Reason   string      `json:"reason,omitempty"`    // why the goal stopped unfinished
	NextStep string      `json:"next_step,omitempty"` // a suggested next step when unfinished
	// Usage is every model call of the goal, planner and todos.
	Usage llm.RoleUsage `json:"usage,omitzero"`
	// Unused is inject text that was still waiting for a todo when the
	// goal ended (the step budget ran out, say): shown, never dropped
	// silently (docs/design.md §6).
	Unused []string `json:"unused,omitempty"`
	// Unanswered is the question or approval nobody answered by its
	// deadline when that ended the goal (failed): a fan-out counts the
	// phone as asked (docs/design.md#phone-fleet).
	Unanswered string `json:"unanswered,omitempty"`
	// Picked is Status.Picked: how a goal started without a device chose
	// its phone.
	Picked string `json:"picked,omitempty"`
}

// Approval is a sensitive action waiting for a human.
type Approval struct {
	Action string `json:"action"` // the action as written
	Reason string `json:"reason"` // the executor's message on the tap
}

// Status is the answer of the status query.
type Status struct {
	Phase           string `json:"phase"`
	CurrentTodo     int    `json:"current_todo"` // 1-based; 0 before the first todo
	Steps           int    `json:"steps"`
	MaxSteps        int    `json:"max_steps"`
	TodoSteps       int    `json:"todo_steps"`
	Paused          bool   `json:"paused"`
	PendingQuestion string `json:"pending_question,omitempty"`
	// Replans counts the replanner's new plans so far and ReplanKept says
	// the last one left the plan unchanged, for a live view's line
	// (the todo list alone does not change).
	Replans    int  `json:"replans,omitempty"`
	ReplanKept bool `json:"replan_kept,omitempty"`
	// QuestionKind says what the pending question asks of the person
	// (QuestionClarify, QuestionTakeOver; "" from a todo of a worker
	// before the kinds, to be taken as QuestionClarify).
	QuestionKind    string    `json:"question_kind,omitempty"`
	PendingApproval *Approval `json:"pending_approval,omitempty"`
	Feedback        []string  `json:"feedback,omitempty"` // last N executor feedback items
	Device          string    `json:"device"`
	// Picked says how a goal started with --on chose its phone: "on
	// phone X (label shop) for --on label=shop", "on phone X, chosen by
	// the planner: …".
	Picked     string `json:"picked,omitempty"`
	WaitingFor string `json:"waiting_for,omitempty"`
	// LastAction and LastResult are the todo's latest action and what it
	// did; Thinking is the first line of the executor's latest reasoning
	// and NextAction the action it decided on, not yet run. A todo fills
	// them; a goal leaves them empty (its running todo knows them).
	LastAction string `json:"last_action,omitempty"`
	LastResult string `json:"last_result,omitempty"`
	Thinking   string `json:"thinking,omitempty"`
	NextAction string `json:"next_action,omitempty"`
	// Todos is the goal's todo list at the same moment as the counters
	// above, so a reader never pairs counters and todos from different
	// moments. Empty in a todo's answer.
	Todos []TodoState `json:"todos,omitempty"`
	// Usage is the model calls so far: a goal's covers its plans and
	// finished todos, a todo's its own calls.
	Usage llm.RoleUsage `json:"usage,omitzero"`
	// ViewerURL is the goal's step viewer page, when its worker serves one.
	ViewerURL string `json:"viewer_url,omitempty"`
	// Verdict is the last verification: "failed (model): no travel app".
	Verdict string `json:"verdict,omitempty"`
	// AnswerBy is when the pending question or approval stops waiting
	// (docs/design.md §7); zero when nothing is pending or no deadline.
	AnswerBy time.Time `json:"answer_by,omitzero"`
	// WaitUntil is when the goal's wait for a time ends (docs/design.md
	// §7); zero when it does not wait for one. PhoneReleased says the
	// phone was given back meanwhile.
	WaitUntil     time.Time `json:"wait_until,omitzero"`
	PhoneReleased bool      `json:"phone_released,omitempty"`
	// WaitLabel is WaitUntil as the user reads it ("21:00 CST").
	WaitLabel string `json:"wait_label,omitempty"`
	// SteerSeq is the last steering command taken (a goal) or applied
	// (its todo), in runs with ordered steering (docs/design.md §6): when
	// the two are equal the todo has every command the goal took.
	SteerSeq int `json:"steer_seq,omitempty"`
	// Routine is where a todo's learned routine stands: "replayed step
	// 4/9 of routine r-… \"send {1} a message: {2}\"" (docs/design.md §8).
	Routine string `json:"routine,omitempty"`
}

// GoalState is the goal's carried state across continue-as-new.
type GoalState struct {
	Todos      []TodoState `json:"todos"`
	NeedReplan bool        `json:"need_replan,omitempty"` // a todo ended; the replanner has not run yet
	// Replans counts the replanner's new plans; ReplanKept says the last
	// one answered the todos not yet started as they were.
	Replans      int             `json:"replans,omitempty"`
	ReplanKept   bool            `json:"replan_kept,omitempty"`
	Planned      bool            `json:"planned"`
	TaskType     string          `json:"task_type,omitempty"`
	Steps        int             `json:"steps"`
	Answers      []activities.QA `json:"answers,omitempty"`
	UserMessages []string        `json:"user_messages,omitempty"` // queued for the next replan
	Feedback     []string        `json:"feedback,omitempty"`
	Notes        []string        `json:"notes,omitempty"` // inject text waiting for the next todo
	Paused       bool            `json:"paused,omitempty"`
	Failures     int             `json:"failures,omitempty"` // consecutive planner failures
	Runs         int             `json:"runs,omitempty"`     // continue-as-new count
	// Turns are the executor think turns of the goal's todos so far.
	Turns int `json:"turns,omitempty"`
	// LastRecent are the last actions of the todo that ended last, with
	// their results, shown to the replanner (docs/design.md §3).
	LastRecent []string `json:"last_recent,omitempty"`
	// SteerSeq is the sequence number of the last steering command the
	// goal took (docs/design.md §6).
	SteerSeq int           `json:"steer_seq,omitempty"`
	Usage    llm.RoleUsage `json:"usage,omitzero"`
	// Repeats are the latest failures of the goal's todos, to see one
	// that hits the same wall twice (docs/design.md §9).
	Repeats repeats `json:"repeats,omitzero"`
	// Established are the states the done todos set, rechecked by later
	// todos (docs/design.md §9).
	Established established `json:"established,omitzero"`
	// Closing is the replanner's done kept while the goal's look todos
	// run; the goal then ends on it without asking the replanner again
	// (docs/design.md §9, A todo that only looks).
	Closing *closingDone `json:"closing,omitempty"`
	// Span is the fleet a goal that spans phones showed its planner
	// (docs/design.md#goals-that-span-phones).
	Span spanPhones `json:"span,omitzero"`
}

// TodoInput starts a TodoWorkflow.
type TodoInput struct {
	GoalID     string `json:"goal_id,omitempty"`
	Index      int    `json:"index"` // 1-based todo number
	Task       string `json:"task"`
	Device     string `json:"device"`
	TaskType   string `json:"task_type,omitempty"`
	StepBudget int    `json:"step_budget"` // steps left in the goal's budget
	MaxSteps   int    `json:"max_steps"`   // per-todo cap
	// GoalTurns are the executor turns the goal's earlier todos took: the
	// note to finish or ask comes at the goal's 30th (docs/design.md §2).
	GoalTurns   int  `json:"goal_turns,omitempty"`
	AutoApprove bool `json:"auto_approve,omitempty"`
	UITree      bool `json:"ui_tree"`
	Paused      bool `json:"paused,omitempty"`
	// OptimizePrompt records the todo's outcome and lessons in prompt
	// memory for TaskType when the todo ends.
	OptimizePrompt bool     `json:"optimize_prompt,omitempty"`
	Notes          []string `json:"notes,omitempty"`
	// SteerSeq is the goal's last steering command when the todo started:
	// Paused and Notes already hold everything up to it (docs/design.md §6).
	SteerSeq int `json:"steer_seq,omitempty"`
	// Routines: see GoalOptions.Routines.
	Routines bool `json:"routines,omitempty"`
	// Expect are the todo's postconditions, written by the planner
	// (docs/design.md §9).
	Expect []postcond.Check `json:"expect,omitempty"`
	// Established are the states earlier todos of the goal set, rechecked
	// on this todo's final screen (VerifyInput.Established).
	Established []postcond.Check `json:"established,omitempty"`
	// LookOnly: the todo only looks; its Steps send nothing that could
	// change the phone (StepInput.LookOnly).
	LookOnly bool `json:"look_only,omitempty"`
	// Prior are the commits (ActResult.Commit) earlier runs of this todo
	// applied: a run after a failed verification starts from what the
	// phone shows and does not apply them again (docs/design.md §9).
	Prior []string `json:"prior,omitempty"`

	FailureThreshold  int `json:"failure_threshold"`
	StuckThreshold    int `json:"stuck_threshold"`
	MaxStuckRetries   int `json:"max_stuck_retries"`
	HistoryEventLimit int `json:"history_event_limit"`
	// DeviceWaitDeadline: see GoalOptions.DeviceWaitDeadline.
	DeviceWaitDeadline time.Duration `json:"device_wait_deadline,omitempty"`
	// ModelOutageWait: see GoalOptions.ModelOutageWait.
	ModelOutageWait time.Duration `json:"model_outage_wait,omitempty"`
	// AnswerDeadline and DefaultAnswer: see GoalOptions.
	AnswerDeadline time.Duration `json:"answer_deadline,omitempty"`
	DefaultAnswer  string        `json:"default_answer,omitempty"`
	// Unguarded turns the stuck guard and the finish verification off
	// (ModeBare).
	Unguarded bool `json:"unguarded,omitempty"`
	// DurableWaitAfter: see GoalOptions. Zero keeps every Wait inside the
	// Step activity (todos started before durable waits).
	DurableWaitAfter time.Duration `json:"durable_wait_after,omitempty"`
	// ReleasePhone says the goal holds a phone lease it gives back while
	// the todo waits (for a time, or for ReleasePhoneAfter for a person).
	ReleasePhone      bool          `json:"release_phone,omitempty"`
	ReleasePhoneAfter time.Duration `json:"release_phone_after,omitempty"`
	// DeviceQueue, when set, is the phone's task queue: the todo runs on
	// the goal's queue and sends only its phone-bound activities there,
	// with a schedule-to-start bound (ChangeTodoOnSharedQueue). Empty: the
	// todo runs on the phone's queue and its activities inherit it.
	DeviceQueue string `json:"device_queue,omitempty"`
	// LeaseToken is the fencing token of the lease grant the goal holds
	// (docs/design.md §5), sent with every Step that acts; the goal's phone_held
	// answer brings the token of a grant it got again. A step the phone's
	// journal refuses (a later grant's token acted there) asks the goal
	// for the phone again and runs once it holds it. Zero: the goal holds
	// no grant with a token (no lease, or granted before fencing tokens).
	LeaseToken int64 `json:"lease_token,omitempty"`
	// OtherPhone says the todo runs on a phone the goal leased for this
	// todo alone (docs/design.md#goals-that-span-phones): a refused
	// action fails the todo instead of asking the goal for its own phone.
	OtherPhone bool `json:"other_phone,omitempty"`

	// The planner in the loop (docs/design.md#executor-questions,
	// docs/design.md#planner-review): AskPlanner sends the executor's
	// questions to the planner first, with the goal, the earlier todos'
	// results and the person's answers; ReviewEvery > 0 has the planner
	// look in every that many executor turns.
	Goal        string          `json:"goal,omitempty"`
	Earlier     []string        `json:"earlier,omitempty"`
	Answers     []activities.QA `json:"answers,omitempty"`
	AskPlanner  bool            `json:"ask_planner,omitempty"`
	ReviewEvery int             `json:"review_every,omitempty"`

	// State is set only when a run continues as new.
	State *TodoRunState `json:"state,omitempty"`
}

// TodoRunState is the executor context a TodoWorkflow carries across
// continue-as-new.
type TodoRunState struct {
	// LookFrom is the app a look todo's first screen showed, which it
	// returns to when it ends elsewhere (ChangeLookReturns).
	LookFrom       lookFrom               `json:"look_from,omitzero"`
	Steps          int                    `json:"steps"` // steps counted so far (goal budget and todo cap)
	Turns          int                    `json:"turns"` // executor think turns
	Screen         activities.Observation `json:"screen"`
	Next           *autoglm.Action        `json:"next,omitempty"` // decided, not yet run
	NextText       string                 `json:"next_text,omitempty"`
	PreviousAction string                 `json:"previous_action,omitempty"`
	PreviousResult string                 `json:"previous_result,omitempty"`
	Notes          []string               `json:"notes,omitempty"`
	// Unseen are injected notes no think has been sent with yet; the
	// todo's result hands them back to the goal for the next todo.
	Unseen     []string `json:"unseen,omitempty"`
	HistoryRef string   `json:"history_ref,omitempty"` // blob of the executor turns so far
	Failures   int      `json:"failures"`
	SameScreen int      `json:"same_screen"`
	SameAction int      `json:"same_action"`
	// Repeat is the screens the current run of one decided action was
	// decided on (docs/design.md §2 Guards).
	Repeat      repeatRun `json:"repeat,omitzero"`
	Corrections int       `json:"corrections"`
	// Recent are the latest device actions with their results, for the
	// planner's correction (docs/design.md §2).
	Recent []string `json:"recent,omitempty"`
	Paused bool     `json:"paused,omitempty"`
	// Reset: a person asked to start the todo again (UpdateReset).
	Reset   bool          `json:"reset,omitempty"`
	Lessons []string      `json:"lessons,omitempty"`
	Usage   llm.RoleUsage `json:"usage,omitzero"`
	// SteerSeq is the last steering command from the goal applied.
	SteerSeq int `json:"steer_seq,omitempty"`
	// Routine is the todo's routine replay and trace (docs/design.md §8).
	Routine *RoutineState `json:"routine,omitempty"`
	// Checks: screens seen, commits, refusals and questions
	// (docs/design.md §9).
	Checks todoChecks `json:"checks,omitzero"`
	// Commits is what the todo committed, for the look before
	// committing again (docs/design.md §9).
	Commits commitLog `json:"commits,omitzero"`
	// Guidance is the executor guidance version the todo uses
	// (docs/design.md §2 Guards).
	Guidance guidancePin `json:"guidance,omitzero"`
	// ReviewedAt is the turn of the planner's last review, Hints the
	// hints it gave (docs/design.md#planner-review).
	ReviewedAt int      `json:"reviewed_at,omitempty"`
	Hints      []string `json:"hints,omitempty"`
	// Answered are the executor's questions about what the todo left out,
	// with the answers it was given (docs/design.md#executor-questions).
	Answered answeredQuestions `json:"answered,omitempty"`
}

// Todo outcomes returned by TodoWorkflow, beyond the todo statuses.
const (
	// TodoStuck: the executor stayed stuck after every correction; the goal
	// restarts the todo with a fresh context or fails it.
	TodoStuck = "stuck"
	// TodoOutOfBudget: the goal's step budget ran out inside the todo.
	TodoOutOfBudget = "out_of_budget"
	// TodoReset: a person reset the todo; the goal runs it again with a
	// fresh executor context.
	TodoReset = "reset"
)

// TodoResult is what a TodoWorkflow returns.
type TodoResult struct {
	Status  string   `json:"status"` // done | failed | cancelled | stuck | out_of_budget
	Result  string   `json:"result,omitempty"`
	Steps   int      `json:"steps"` // steps counted in this todo
	Lessons []string `json:"lessons,omitempty"`
	// Verified is true when the executor finished and the verification
	// (docs/design.md §9) found the todo done; Evidence says what showed
	// it, or what was missing, and VerifiedBy who judged (message, ui_tree,
	// model). A todo that never finished is not verified.
	Verified   bool   `json:"verified,omitempty"`
	Evidence   string `json:"evidence,omitempty"`
	VerifiedBy string `json:"verified_by,omitempty"`
	// Notes are inject texts the todo received but never used.
	Notes []string `json:"notes,omitempty"`
	// Unanswered is the question or approval nobody answered by the
	// answer deadline; the goal fails with it (docs/design.md §7).
	Unanswered string        `json:"unanswered,omitempty"`
	Usage      llm.RoleUsage `json:"usage,omitzero"`
	// SteerSeq is the last steering command from the goal the todo
	// applied; the goal takes back the commands after it.
	SteerSeq int `json:"steer_seq,omitempty"`
	// Checks are the todo's postconditions and whether each held;
	// Committed the commit actions it applied and Refused how many it
	// refused; Asked the questions the executor put to the person, with
	// the answers, for the replanner (docs/design.md §7).
	Checks    []postcond.Result `json:"checks,omitempty"`
	Committed []string          `json:"committed,omitempty"`
	Refused   int               `json:"refused,omitempty"`
	Asked     []activities.QA   `json:"asked,omitempty"`
	// Answered are the executor's questions about what the todo left out
	// with the answers it was given, by the planner or the person; its
	// finish was verified with them (docs/design.md#executor-questions).
	Answered []activities.QA `json:"answered,omitempty"`
	// Rechecked is what the todo's final screen showed of the states
	// earlier todos set (VerifyResult.Rechecked).
	Rechecked []postcond.Result `json:"rechecked,omitempty"`
	// Screen is the hash of the last screen the todo saw, to tell two
	// failures on the same screen (docs/design.md §9).
	Screen string `json:"screen,omitempty"`
	// CommitKeys key the commits it applied, for a later run's Prior.
	CommitKeys []string `json:"commit_keys,omitempty"`
	// Guidance is the version of its todo type's executor guidance the
	// todo ran with; 0 when no think carried one (docs/design.md §2 Guards).
	Guidance int `json:"guidance,omitempty"`
	// Recent are the todo's last device actions with their results, for
	// the replanner (docs/design.md §3).
	Recent []string `json:"recent,omitempty"`
	// Turns are the executor think turns the todo took.
	Turns int `json:"turns,omitempty"`
	// App is the app the todo left its work in (workedIn): where a look
	// todo finds again a state it set (ChangeLookNamesApp).
	App string `json:"app,omitempty"`
}

// TodoEvent is what a TodoWorkflow tells its parent goal through the
// SignalTodoEvent signal: it needs a human, or no longer does.
type TodoEvent struct {
	Kind   string `json:"kind"` // one of the TodoEvent kinds below
	Todo   int    `json:"todo"`
	Text   string `json:"text,omitempty"`
	Action string `json:"action,omitempty"`
	Steps  int    `json:"steps"`
	// AnswerBy is when a question or an approval stops waiting (zero:
	// no deadline).
	AnswerBy time.Time `json:"answer_by,omitzero"`
	// Until is when a TodoEventSleep ends; Seq numbers the todo's phone
	// requests (TodoEventNeedPhone), echoed by SignalPhoneHeld.
	Until time.Time `json:"until,omitzero"`
	Seq   int       `json:"seq,omitempty"`
	// Lost marks a TodoEventNeedPhone sent because the lease refused a
	// device action: the goal no longer holds the phone (docs/design.md §5).
	Lost bool `json:"lost,omitempty"`
	// QuestionKind is what a TodoEventQuestion asks of the person
	// (QuestionClarify, QuestionTakeOver).
	QuestionKind string `json:"question_kind,omitempty"`
	// From is the sending todo's workflow ID, set by todos that tell
	// their steps (docs/design.md §2): the goal takes Steps as the running
	// todo's count only from the attempt it runs now.
	From string `json:"from,omitempty"`
}

// What a question asks of the person (Status.QuestionKind): the step
// viewer offers Continue only for work on the phone; any other question is
// answered in words (docs/design.md#waiting-for-people-and-telling-them).
const (
	// QuestionClarify asks for words the goal uses: the planner's
	// ask_user, Interact's choice, whether an action reached the phone,
	// whether a todo is done, what to do after a refusal.
	QuestionClarify = "clarify"
	// QuestionTakeOver asks for work on the phone itself (Take_over,
	// unlocking it, installing what it lacks, reconnecting it): the
	// answer only says it is done.
	QuestionTakeOver = "take_over"
)

// TodoEvent kinds.
const (
	TodoEventQuestion = "question" // Take_over / Interact: the user must act or answer (clarify)
	TodoEventApproval = "approval" // a sensitive tap waits for approve
	TodoEventResolved = "resolved" // the question or approval was answered
	TodoEventWaiting  = "waiting"  // the todo waits for something other than a human (Text says what; "" when it no longer does)
	// Durable waits and phone release (docs/design.md §7).
	TodoEventSleep        = "sleep"         // a long Wait: the todo sleeps until Until (Text says so)
	TodoEventReleasePhone = "release_phone" // give the phone back: the todo waits without it
	TodoEventNeedPhone    = "need_phone"    // the todo needs the phone again: answer SignalPhoneHeld with Seq
	// TodoEventSteps tells the goal the todo's step count (Steps) while it
	// runs (docs/design.md §2).
	TodoEventSteps = "step_notice"
)
