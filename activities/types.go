package activities

import (
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/routine"
)

// Activity names as registered from the methods of Activities. Workflows
// schedule activities by these names so workflow code never needs a live
// Activities value.
const (
	NamePlanOnce       = "PlanOnce"
	NameReplan         = "Replan"
	NameObserve        = "Observe"
	NameThink          = "Think"
	NameAct            = "Act"
	NameStep           = "Step"
	NameOptimizePrompt = "OptimizePrompt"
	NameListDevices    = "ListDevices"
)

// ActAlreadyApplied is the Act result when a retried attempt finds the screen
// changed since the decision: the first attempt's input reached the phone,
// so the action is not sent twice.
const ActAlreadyApplied = "already applied"

// QA is a question the planner or executor asked and the user's answer.
type QA struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// DoneTodo is a finished todo as the replanner sees it.
type DoneTodo struct {
	Todo   string `json:"todo"`
	Status string `json:"status"` // done | failed | skipped
	Result string `json:"result,omitempty"`
	Steps  int    `json:"steps"`
	// Evidence is the verification's evidence (docs/design.md §9): what
	// showed the todo done, or what was missing.
	Evidence string `json:"evidence,omitempty"`
	// Committed lists the commit actions the todo applied on the phone
	// (a message sent, a record saved), so a retry does not repeat them.
	Committed []string `json:"committed,omitempty"`
	// Repeated says the todo failed twice in a row the same way without
	// changing the phone, so it is not run again as written.
	Repeated string `json:"repeated,omitempty"`
	// Verified says the verification showed the todo done: only such
	// todos teach later goals (docs/design.md §8).
	Verified bool `json:"verified,omitempty"`
	// Answered are the executor's questions about what the todo left out
	// and the answers it was given (docs/design.md#executor-questions).
	Answered []QA `json:"answered,omitempty"`
}

// Dropped is a todo the planner left out on purpose when it answered done,
// with its reason.
type Dropped struct {
	Todo   string `json:"todo"`
	Reason string `json:"reason"`
}

// PlanInput is the input of PlanOnce.
type PlanInput struct {
	Goal         string   `json:"goal"`
	Answers      []QA     `json:"answers,omitempty"`
	UserMessages []string `json:"user_messages,omitempty"`
	// Invalid is the validation feedback on the previous attempt's answer
	// and Rejected that answer (clipped), fed back so the model can correct
	// itself.
	Invalid  string `json:"invalid,omitempty"`
	Rejected string `json:"rejected,omitempty"`
	// HandBackOutages: see StepInput.HandBackOutages.
	HandBackOutages bool `json:"hand_back_outages,omitempty"`
	// Situation: the time and the step budget (docs/design.md §3).
	Situation Situation `json:"situation,omitzero"`
	// Device is the goal's phone: the scope of what goals remember
	// (docs/design.md §8). Empty in inputs recorded before memory.
	Device string `json:"device,omitempty"`
	// Phones is the fleet a todo may name in its "phone"
	// (docs/design.md#goals-that-span-phones); empty for a goal that
	// does not span phones.
	Phones []FleetPhone `json:"phones,omitempty"`
}

// Situation is what the planner is told at every call besides the goal:
// the current time in the user's zone and the step budget (docs/design.md
// §3). Zero in inputs recorded before it: nothing is added.
type Situation struct {
	Now          time.Time `json:"now,omitzero"`
	TimeZone     string    `json:"time_zone,omitempty"`
	StepsUsed    int       `json:"steps_used,omitempty"`
	MaxSteps     int       `json:"max_steps,omitempty"`
	TodoMaxSteps int       `json:"todo_max_steps,omitempty"`
}

// ReplanInput is the input of Replan.
type ReplanInput struct {
	Goal         string     `json:"goal"`
	TodoIndex    int        `json:"todo_index"` // 1-based index of the todo just finished, for the summary
	Done         []DoneTodo `json:"done,omitempty"`
	Remaining    []string   `json:"remaining,omitempty"`
	Feedback     []string   `json:"feedback,omitempty"` // last N executor feedback items only
	Answers      []QA       `json:"answers,omitempty"`
	UserMessages []string   `json:"user_messages,omitempty"`
	Invalid      string     `json:"invalid,omitempty"`
	Rejected     string     `json:"rejected,omitempty"`
	// HandBackOutages: see StepInput.HandBackOutages.
	HandBackOutages bool `json:"hand_back_outages,omitempty"`
	// Situation: the time and the step budget; LastActions the last device
	// actions of the todo that just ended, with their results
	// (docs/design.md §3).
	Situation   Situation `json:"situation,omitzero"`
	LastActions []string  `json:"last_actions,omitempty"`
	// Device: see PlanInput.Device.
	Device string `json:"device,omitempty"`
	// Phones: see PlanInput.Phones.
	Phones []FleetPhone `json:"phones,omitempty"`
}

// PlanDecision is the planner's answer (docs/design.md §3). When the answer could
// not be parsed or failed validation, Invalid holds the feedback and the other
// fields are empty: the workflow counts the attempt and asks again.
type PlanDecision struct {
	Status string   `json:"status,omitempty"` // planned | replanned | done | ask_user
	Plan   []string `json:"plan,omitempty"`
	// Expect holds each todo's postconditions, aligned with Plan; nil
	// when the planner wrote none (docs/design.md §9).
	Expect [][]postcond.Check `json:"expect,omitempty"`
	// Phones holds the phone each todo names, aligned with Plan ("" for
	// the goal's own phone; nil when none names one).
	Phones   []string  `json:"phones,omitempty"`
	TaskType string    `json:"task_type,omitempty"`
	Question string    `json:"question,omitempty"`
	Response string    `json:"response,omitempty"`
	Dropped  []Dropped `json:"dropped,omitempty"` // done: todos left out on purpose
	Invalid  string    `json:"invalid,omitempty"`
	Raw      string    `json:"raw,omitempty"` // the invalid answer, clipped
	// Usage is the planner call's tokens and latency, invalid answers too.
	Usage llm.Usage `json:"usage,omitzero"`
	// Memory is what earlier goals taught that the planner was shown
	// (docs/design.md §8), kept in history as the record of the read.
	Memory []string `json:"memory,omitempty"`
}

// Planner decision statuses.
const (
	PlanPlanned   = "planned"
	PlanReplanned = "replanned"
	PlanDone      = "done"
	PlanAskUser   = "ask_user"
)

// Observation is what history keeps of a screen: blob references and a few
// facts, never the image or the tree themselves.
type Observation struct {
	ScreenRef string `json:"screen_ref,omitempty"` // blob ref of the PNG; empty when Sensitive
	TreeRef   string `json:"tree_ref,omitempty"`   // blob ref of the UI tree JSON; empty when disabled
	Hash      string `json:"hash"`                 // coarse screen hash for stuck detection and act dedup
	// TextHash digests what the app's elements say and whether they are
	// checked, from the UI tree; empty without one. A value label that
	// changes ("Brightness 40%" → "30%") is too small for Hash to see.
	TextHash        string `json:"text_hash,omitempty"`
	App             string `json:"app,omitempty"`
	AppPackage      string `json:"app_package,omitempty"`
	Width           int    `json:"width"`
	Height          int    `json:"height"`
	Sensitive       bool   `json:"sensitive,omitempty"`
	SensitiveReason string `json:"sensitive_reason,omitempty"`
}

// ObserveInput is the input of Observe.
type ObserveInput struct {
	Serial string `json:"serial"`
	UITree bool   `json:"ui_tree"`
}

// Turn is one earlier executor exchange, text only and trimmed.
type Turn struct {
	User      string `json:"user"`
	Assistant string `json:"assistant"`
	// Info is the turn's screen-info object in the autoglm layout, from
	// which later requests rebuild the turn (docs/design.md §3).
	Info string `json:"info,omitempty"`
	// CutOff marks an answer the max-tokens limit cut off: the next
	// request asks for fewer tokens (docs/models.md#cut-off-answers).
	CutOff bool `json:"cut_off,omitempty"`
}

// ThinkInput is the input of Think: the executor request, built inside the
// activity from the blobs Observation refers to.
type ThinkInput struct {
	Task           string      `json:"task"`
	TaskType       string      `json:"task_type,omitempty"`
	Screen         Observation `json:"screen"`
	PreviousAction string      `json:"previous_action,omitempty"`
	PreviousResult string      `json:"previous_result,omitempty"`
	Notes          []string    `json:"notes,omitempty"`
	// HistoryRef is the blob holding the todo's earlier turns (JSON
	// []Turn); History is used instead when it is empty.
	HistoryRef string `json:"history_ref,omitempty"`
	History    []Turn `json:"history,omitempty"`
	// Guidance is the todo type's guidance version the todo uses (its
	// first think's); 0 means the version in force (docs/design.md §2 Guards).
	Guidance int `json:"guidance,omitempty"`
}

// ThinkResult is the executor's decision. A reply that does not parse is a
// result, not an error: ParseError says why, and the workflow counts the
// step and feeds the error back next turn.
type ThinkResult struct {
	Response   *autoglm.Response `json:"response,omitempty"`
	Action     string            `json:"action,omitempty"` // the action as written, for history and summaries
	ParseError string            `json:"parse_error,omitempty"`
	// Turn is this exchange, trimmed; its User text and Info stay in the
	// history blob only, to keep the result small.
	Turn Turn `json:"turn"`
	// HistoryRef is the blob of the todo's turns including this one, for
	// the next Think.
	HistoryRef string `json:"history_ref,omitempty"`
	Model      string `json:"model,omitempty"`
	TotalMS    int64  `json:"total_ms,omitempty"`
	// Usage is the executor call's tokens and latency.
	Usage llm.Usage `json:"usage,omitzero"`
	// Guidance is the guidance version the request carried; 0 when none
	// (docs/design.md §2 Guards).
	Guidance int `json:"guidance,omitempty"`
	// Replayed is set when the decision came from the todo's routine, not
	// from the model (no call, no usage); ReplayMiss says why the model
	// decided although the step asked for a replay (docs/design.md §8).
	Replayed   bool   `json:"replayed,omitempty"`
	ReplayMiss string `json:"replay_miss,omitempty"`
	// ReplaySkipped counts the optional routine steps passed over
	// because the screen they handled was not there.
	ReplaySkipped int `json:"replay_skipped,omitempty"`
}

// ActInput is the input of Act.
type ActInput struct {
	Serial string         `json:"serial"`
	Action autoglm.Action `json:"action"`
	// ScreenHash is the hash of the screen the decision was based on. A
	// retried attempt compares it with the current screen and reports
	// ActAlreadyApplied instead of acting twice when they differ.
	ScreenHash string `json:"screen_hash"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
}

// ActResult says how an action went. Errors the model can react to (app not
// found, bad coordinates) are results, not activity errors.
type ActResult struct {
	Result  string `json:"result"` // "ok", ActAlreadyApplied, or an error text for the model
	Touched bool   `json:"touched"`
	// NeedsHuman is set when the action failed for a reason only a person
	// can fix (the ADB Keyboard is not installed); it says what to do.
	NeedsHuman string `json:"needs_human,omitempty"`
	// Recovered says why an action whose result a crash kept from the
	// journal was judged applied from the screen (docs/design.md §4).
	Recovered string `json:"recovered,omitempty"`
	// Uncertain is the question for the user when the screen could not
	// tell whether such an action was applied (Result is ActUncertain).
	Uncertain string `json:"uncertain,omitempty"`
	// Refused says why a commit action was not sent: the screen
	// contradicts the todo (docs/design.md §9) or its effect is already on
	// the phone (§9). Committed describes a commit action that was sent,
	// for the replanner; Commit keys it for the todo's StepInput.Commits.
	Refused string `json:"refused,omitempty"`
	// Vetoed says why a before-action hook kept the action from the
	// phone (docs/design.md §10), or why a todo that only looks did
	// (StepInput.LookOnly): fed back to the executor, no one asked.
	Vetoed    string `json:"vetoed,omitempty"`
	Committed string `json:"committed,omitempty"`
	Commit    string `json:"commit,omitempty"`
}

// StepInput is the input of Step, the activity a todo runs once per loop
// iteration: perform the action the workflow already approved (if any), let
// the screen settle, observe, and think the next action (if asked to). One
// activity per iteration keeps a step at about six history events.
type StepInput struct {
	Serial   string `json:"serial"`
	Task     string `json:"task"`
	TaskType string `json:"task_type,omitempty"`
	UITree   bool   `json:"ui_tree"`
	// LookOnly: the todo only looks (docs/design.md §9, A todo that only looks);
	// an action that could change the phone is not sent.
	LookOnly bool `json:"look_only,omitempty"`
	// Act, when set, runs first; ScreenHash/Width/Height (and the Screen*
	// fields below) are from the observation the decision was based on.
	Act        *autoglm.Action `json:"act,omitempty"`
	ScreenHash string          `json:"screen_hash,omitempty"`
	Width      int             `json:"width,omitempty"`
	Height     int             `json:"height,omitempty"`
	// ActionID names Act for the phone's action journal: the same ID is
	// applied at most once, whatever retries and re-runs happen
	// (docs/design.md §4). Empty in runs from before the journal, which
	// keep the screen-hash guard.
	ActionID        string `json:"action_id,omitempty"`
	ScreenTreeRef   string `json:"screen_tree_ref,omitempty"`
	ScreenApp       string `json:"screen_app,omitempty"`
	ScreenSensitive bool   `json:"screen_sensitive,omitempty"`
	// Think asks for the next decision after observing. False when the step
	// budget only allows the action.
	Think bool `json:"think"`
	// PreviousAction/PreviousResult describe the last action when Act is nil
	// (a rejected approval, a user answer, a parse error).
	PreviousAction string   `json:"previous_action,omitempty"`
	PreviousResult string   `json:"previous_result,omitempty"`
	Notes          []string `json:"notes,omitempty"`
	HistoryRef     string   `json:"history_ref,omitempty"` // blob of the todo's earlier turns
	// HandBackOutages asks for a model that keeps failing with a retryable
	// error to be handed back to the workflow as a ModelUnavailable error
	// (details: ModelOutage) instead of being retried here, so the
	// workflow can wait out the outage visibly (docs/design.md §9).
	HandBackOutages bool `json:"hand_back_outages,omitempty"`
	// Replay, when set with Think, is the routine step to replay: its
	// action is decided without the model when the observed screen matches
	// the recorded one (docs/design.md §8).
	Replay *routine.ReplayStep `json:"replay,omitempty"`
	// Expect are the todo's postconditions: a commit action whose screen
	// contradicts them is not sent (docs/design.md §9).
	Expect []postcond.Check `json:"expect,omitempty"`
	// Commits are the commits this todo's earlier steps made
	// (ActResult.Commit): the same one again is refused unless the task
	// asks for several (docs/design.md §9).
	Commits []string `json:"commits,omitempty"`
	// LeaseToken is the fencing token of the lease grant the goal holds
	// (docs/design.md §5), and GoalID the goal. The phone's journal,
	// under the lock the action holds, refuses an action whose token is
	// lower than the highest it has recorded for the phone: a
	// PhoneLeaseLost error, and nothing reaches the phone. Zero in todos
	// of goals granted the phone before fencing tokens.
	LeaseToken int64  `json:"lease_token,omitempty"`
	GoalID     string `json:"goal_id,omitempty"`
	// Todo and StepNo number the step for hooks (docs/design.md §10):
	// the todo's 1-based index and the todo's steps before this one.
	Todo   int `json:"todo,omitempty"`
	StepNo int `json:"step_no,omitempty"`
	// Guidance: see ThinkInput.Guidance.
	Guidance int `json:"guidance,omitempty"`
	// VerifyFinish asks for a finish this Step's think decides to be
	// verified here, on the screen the Step observed, as the Verify
	// activity would verify it (docs/design.md §9): one activity less at
	// the end of a todo. The workflow takes the verdict only when the
	// Verify it would run has the same input; otherwise, and when the
	// verifier could not give a verdict, it runs Verify.
	VerifyFinish bool `json:"verify_finish,omitempty"`
	// Answered: see VerifyInput.Answered, for the finish verified here.
	Answered []QA `json:"answered,omitempty"`
	// Established are the states earlier todos of the goal established,
	// rechecked with a finish verified here (VerifyInput.Established).
	Established []postcond.Check `json:"established,omitempty"`
	// SentChecked: see VerifyInput.SentChecked; with it Commits are all
	// the commits the todo made, for the finish verified here.
	SentChecked bool `json:"sent_checked,omitempty"`
	// KeepApplied asks for any error the Step ends with after its action
	// reached the phone to come back as an ActionApplied error carrying
	// the action's result (details: StepApplied), so the todo records the
	// action (a commit made) before it goes on or fails (docs/design.md §4).
	KeepApplied bool `json:"keep_applied,omitempty"`
}

// ModelOutage is the detail of a ModelUnavailable error: which model does
// not answer, at which endpoint, with what error, and what the step did
// before its model call failed (its action applied and the screen after
// it), so a retry does not apply the action again.
type ModelOutage struct {
	Role     string      `json:"role"`     // planner | executor
	Endpoint string      `json:"endpoint"` // chat completions URL, no credentials
	Error    string      `json:"error"`
	Applied  *StepResult `json:"applied,omitempty"`
}

// StepResult is what one Step did and saw.
type StepResult struct {
	Act    *ActResult   `json:"act,omitempty"`
	Screen Observation  `json:"screen"`
	Think  *ThinkResult `json:"think,omitempty"`
	// Locked is the question for the person when the phone's lock screen
	// could not be passed: the Step sent nothing, looked at nothing and
	// called no model (docs/design.md §15). It never holds the PIN.
	Locked string `json:"locked,omitempty"`
	// Verdict is the verification of the think's finish when the input
	// asked for it (VerifyFinish) and the verifier gave one: the verdict
	// Verify gives for the todo's task, the finish's message, Screen and
	// the input's Expect (docs/design.md §9).
	Verdict *VerifyResult `json:"verdict,omitempty"`
}

// OptimizeInput is the input of OptimizePrompt.
type OptimizeInput struct {
	TaskType string   `json:"task_type"` // the goal's; may be empty
	Todo     string   `json:"todo"`
	Success  bool     `json:"success"`
	Lessons  []string `json:"lessons,omitempty"` // short lessons from failures and corrections
	// Reason is why the todo was not done (the verdict, the guard), or
	// what it did; Guidance the guidance version it used (0: none seen).
	Reason   string `json:"reason,omitempty"`
	Guidance int    `json:"guidance,omitempty"`
}

// OptimizeResult says whether the todo type's guidance is due for a
// rewrite (docs/design.md §2 Guards); zero in histories from before it.
type OptimizeResult struct {
	Rewrite  *RewriteInput `json:"rewrite,omitempty"`
	TodoType string        `json:"todo_type,omitempty"`
	Note     string        `json:"note,omitempty"` // a trial kept or rolled back
}

// RewriteInput asks the planner to rewrite a todo type's guidance.
type RewriteInput struct {
	TodoType string `json:"todo_type"`
	From     int    `json:"from"` // the version in force when it was asked
	Why      string `json:"why"`
	// HandBackOutages: see StepInput.HandBackOutages.
	HandBackOutages bool `json:"hand_back_outages,omitempty"`
}

// RewriteResult is the new version on trial, or why there is none.
type RewriteResult struct {
	Version int       `json:"version,omitempty"`
	Invalid string    `json:"invalid,omitempty"`
	Usage   llm.Usage `json:"usage,omitzero"`
}
