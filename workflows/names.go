package workflows

import "github.com/phoneflow/phoneflow/internal/fleet"

// Task queues. Goal and todo workflows and the planner's activities run on
// TaskQueue; a todo's phone-bound activities run on the queue of the worker
// that owns the phone, so a phone is only ever driven from the host it is
// plugged into (docs/design.md §5; todos started before that change run
// wholly on the phone's queue).
const (
	TaskQueue             = "phoneflow"
	DeviceTaskQueuePrefix = "phoneflow-device-"
)

// DeviceTaskQueue returns the task queue of the worker that owns serial.
func DeviceTaskQueue(serial string) string {
	return DeviceTaskQueuePrefix + fleet.QueueSafe(serial)
}

// Signal and update names. Each exists both as a signal (fire and forget,
// usable from `temporal workflow signal`) and as an update with a validator
// (the caller gets a clear rejection).
const (
	SignalClarify   = "clarify"    // answer text to a pending question
	SignalApprove   = "approve"    // ApproveInput for a pending sensitive action
	SignalPause     = "pause"      // no payload
	SignalResume    = "resume"     // no payload
	SignalInject    = "inject"     // extra instruction text for the executor
	SignalUserInput = "user_input" // new user message for the planner queue
)

// UpdateReset restarts the running todo with a fresh executor context, as
// the stuck guard's restart does (docs/design.md §6). An update only: the
// caller learns at once when there is nothing to reset.
const UpdateReset = "reset"

// Query names.
const (
	QueryStatus = "status"
	QueryTodos  = "todos"
)

// Search attributes, registered on the namespace before use: the status
// and the phone's serial are keywords, the phone's labels (adb.labels) a
// keyword list.
const (
	SearchAttrStatus = "PhoneflowStatus"
	SearchAttrDevice = "PhoneflowDevice"
	SearchAttrLabels = "PhoneflowLabels"
)

// Goal statuses, as written to SearchAttrStatus.
const (
	GoalPlanning    = "planning"
	GoalRunning     = "running"
	GoalPaused      = "paused"
	GoalWaitingUser = "waiting_user"
	// GoalWaitingModel: the planner or executor model does not answer and
	// the goal waits it out (status waiting_for says which and since when).
	GoalWaitingModel = "waiting_model"
	// GoalWaitingUntil: the goal waits for a time (a wait todo or a long
	// Wait action, docs/design.md §5); status waiting_for and wait_until
	// say until when.
	GoalWaitingUntil = "waiting_until"
	GoalDone         = "done"
	GoalFailed       = "failed"
	GoalCancelled    = "cancelled"
)

// Todo statuses.
const (
	TodoPending   = "pending"
	TodoRunning   = "running"
	TodoDone      = "done"
	TodoFailed    = "failed"
	TodoSkipped   = "skipped"
	TodoCancelled = "cancelled"
)

// ApproveInput is the payload of the approve signal and update.
type ApproveInput struct {
	Approved bool   `json:"approved"`
	Note     string `json:"note,omitempty"`
}

// MaxSignalText bounds clarify, inject and user_input payloads.
const MaxSignalText = 4096

// SignalTodoEvent is the internal signal a TodoWorkflow sends its parent goal
// when it needs a human (question, approval) or no longer does. Its payload
// is a TodoEvent.
const SignalTodoEvent = "todo_event"

// SignalPhoneHeld is the internal signal a goal sends its running todo once
// it holds the phone again after the todo asked for it back
// (TodoEventNeedPhone). Its payload is the event's Seq and the lease token
// the goal holds (ChangeLeaseToken; the bare Seq before it).
const SignalPhoneHeld = "phone_held"
