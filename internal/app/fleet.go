package app

import (
	"context"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/workflows"
)

// publish tells the fleet about a phone this worker has begun to serve:
// its labels (adb.labels) and the facts read from it, into the phone's
// record (docs/design.md#phone-fleet). A phone whose facts cannot be read
// is published with what was read; a record that cannot be written is
// logged and the phone served all the same: goals that name it by serial
// do not need it.
func (w *Worker) publish(ctx context.Context, serial, identity string) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	p := fleet.Phone{Serial: serial, Worker: identity, Labels: w.labels.LabelsOf(serial), Published: time.Now().UTC()}
	if d, err := w.acts.Devices.Get(ctx, serial); err == nil {
		if fr, ok := d.(device.FactReader); ok {
			f, err := fr.Facts(ctx)
			if err != nil {
				w.log.Warn("cannot read the phone's facts; publishing its labels only", "serial", serial, "error", err)
			}
			p.Facts = f
		}
	}
	_, err := w.c.SignalWithStartWorkflow(ctx, workflows.PhoneRecordWorkflowID(serial), workflows.SignalPhoneRecord, p,
		client.StartWorkflowOptions{
			TaskQueue:                workflows.TaskQueue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		}, workflows.PhoneRecordWorkflowType, p)
	if err != nil {
		w.log.Warn("cannot publish the phone to the fleet; `starter devices` shows no labels for it", "serial", serial, "error", err)
		return
	}
	w.log.Info("published phone", "serial", serial, "labels", p.Labels, "model", p.Facts.Model, "android", p.Facts.Android, "lock", p.Facts.Lock)
}
