package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/fleet"
)

// Phone record names on the wire. One PhoneRecordWorkflow per phone (ID
// PhoneRecordWorkflowID(serial), task queue TaskQueue) holds what the
// worker that serves the phone last published about it, in its memo
// (MemoPhone), so one visibility listing shows the whole fleet
// (docs/design.md#phone-fleet).
const (
	PhoneRecordWorkflowType     = fleet.RecordWorkflowType
	PhoneRecordWorkflowIDPrefix = "fleet-phone-" // + serial
	// SignalPhoneRecord carries a fleet.Phone: what the worker read now.
	SignalPhoneRecord = "phone_record"
	// QueryPhoneRecord answers the fleet.Phone held.
	QueryPhoneRecord = "phone_record"
	// MemoPhone is the memo key of the fleet.Phone.
	MemoPhone = fleet.MemoPhone
	// phoneRecordHistoryLimit continues the record as new past this many
	// events, so a phone whose worker restarts daily keeps a short history.
	phoneRecordHistoryLimit = 1000
)

// PhoneRecordWorkflowID returns the workflow ID of serial's record.
func PhoneRecordWorkflowID(serial string) string { return PhoneRecordWorkflowIDPrefix + serial }

// PhoneRecordWorkflow keeps one phone's fleet.Phone in its memo: each
// SignalPhoneRecord replaces it. It runs no activity and holds no timer;
// the worker starts it with its first signal (signal-with-start), so it
// exists exactly while some worker has published the phone. Whether a
// worker serves the phone now is the worker heartbeats' to tell, never
// the record's.
func PhoneRecordWorkflow(ctx workflow.Context, p fleet.Phone) error {
	if err := workflow.SetQueryHandler(ctx, QueryPhoneRecord, func() (fleet.Phone, error) { return p, nil }); err != nil {
		return err
	}
	ch := workflow.GetSignalChannel(ctx, SignalPhoneRecord)
	for {
		if err := workflow.UpsertMemo(ctx, map[string]any{MemoPhone: p}); err != nil {
			return err
		}
		info := workflow.GetInfo(ctx)
		if info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() >= phoneRecordHistoryLimit {
			// Signals that arrived meanwhile are read first: the newest wins.
			for ch.ReceiveAsync(&p) {
			}
			return workflow.NewContinueAsNewError(ctx, PhoneRecordWorkflowType, p)
		}
		ch.Receive(ctx, &p)
	}
}
