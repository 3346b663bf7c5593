package bench

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	"github.com/phoneflow/phoneflow/activities"
)

// HistoryStats is what a goal's histories (the goal's and its children's)
// hold.
type HistoryStats struct {
	Workflows int // executions read (goal plus child todos)
	Events    int
	Bytes     int // protobuf size of all events
	// ChildEvents and ChildBytes count the child (todo) histories only.
	ChildEvents int
	ChildBytes  int
	// Steps is the number of Step activities scheduled: one per executor
	// step (act and/or think).
	Steps int
	// ImageHits counts PNG or JPEG signatures, raw or base64, in any event.
	ImageHits int
	// StepLatency holds, per completed Step activity, the time from
	// scheduled to completed as the server recorded it.
	StepLatency []time.Duration
	// ByType counts events per event type ("ActivityTaskScheduled", ...).
	ByType map[string]int
	// Versions counts version markers (workflow.GetVersion) per change ID.
	// VersionEvents and VersionBytes count those markers together with
	// the SDK's upserts of the TemporalChangeVersion search attribute
	// that go with them.
	Versions      map[string]int
	VersionEvents int
	VersionBytes  int
}

// imageMarks are the starts of PNG and JPEG files, raw and base64-encoded.
var imageMarks = [][]byte{
	{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'},
	{0xff, 0xd8, 0xff},
	[]byte("iVBORw0KGgo"), // base64 of the PNG signature
	[]byte("/9j/"),        // base64 of the JPEG start
	[]byte("data:image/"),
}

// CountImages counts image signatures in data.
func CountImages(data []byte) int {
	n := 0
	for _, m := range imageMarks {
		n += bytes.Count(data, m)
	}
	return n
}

// ReadHistory reads the history of workflow id (latest run) and of every
// child it started, recursively.
func ReadHistory(ctx context.Context, c client.Client, id string) (HistoryStats, error) {
	st := HistoryStats{ByType: map[string]int{}, Versions: map[string]int{}}
	seen := map[string]bool{}
	queue := [][2]string{{id, ""}}
	for len(queue) > 0 {
		wid, rid := queue[0][0], queue[0][1]
		queue = queue[1:]
		if seen[wid+"/"+rid] {
			continue
		}
		seen[wid+"/"+rid] = true
		st.Workflows++
		scheduled := map[int64]time.Time{}
		it := c.GetWorkflowHistory(ctx, wid, rid, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return st, fmt.Errorf("bench: read the history of %s: %w", wid, err)
			}
			raw, err := proto.Marshal(ev)
			if err != nil {
				return st, err
			}
			st.Events++
			st.Bytes += len(raw)
			if wid != id {
				st.ChildEvents++
				st.ChildBytes += len(raw)
			}
			st.ImageHits += CountImages(raw)
			st.ByType[strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_")]++
			if id, ok := versionMarker(ev); ok {
				st.Versions[id]++
				st.VersionEvents++
				st.VersionBytes += len(raw)
			} else if changeVersionUpsert(ev) {
				st.VersionEvents++
				st.VersionBytes += len(raw)
			}
			foldEvent(ev, &st, scheduled, &queue)
		}
	}
	return st, nil
}

// versionMarker returns the change ID of a version marker (the SDK's
// "Version" marker, its "change-id" detail).
func versionMarker(ev *historypb.HistoryEvent) (string, bool) {
	m := ev.GetMarkerRecordedEventAttributes()
	if m.GetMarkerName() != "Version" {
		return "", false
	}
	var id string
	if err := converter.GetDefaultDataConverter().FromPayloads(m.GetDetails()["change-id"], &id); err != nil || id == "" {
		return "?", true
	}
	return id, true
}

// changeVersionUpsert reports whether ev is the SDK's upsert of the
// TemporalChangeVersion search attribute that follows a version marker.
func changeVersionUpsert(ev *historypb.HistoryEvent) bool {
	_, ok := ev.GetUpsertWorkflowSearchAttributesEventAttributes().GetSearchAttributes().GetIndexedFields()["TemporalChangeVersion"]
	return ok
}

func foldEvent(ev *historypb.HistoryEvent, st *HistoryStats, scheduled map[int64]time.Time, queue *[][2]string) {
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		if ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() == activities.NameStep {
			st.Steps++
			scheduled[ev.GetEventId()] = ev.GetEventTime().AsTime()
		}
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
		a := ev.GetActivityTaskCompletedEventAttributes()
		if t, ok := scheduled[a.GetScheduledEventId()]; ok {
			st.StepLatency = append(st.StepLatency, ev.GetEventTime().AsTime().Sub(t))
		}
	case enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
		we := ev.GetChildWorkflowExecutionStartedEventAttributes().GetWorkflowExecution()
		*queue = append(*queue, [2]string{we.GetWorkflowId(), we.GetRunId()})
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		// The next run is read when the id is queued without a run id.
	}
}
