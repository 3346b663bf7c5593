package goalctl

import (
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workerpb "go.temporal.io/api/worker/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/workflows"
)

var devNow = time.Date(2026, 1, 2, 9, 12, 0, 0, time.UTC)

func poller(id string, ago time.Duration) *taskqueuepb.PollerInfo {
	return &taskqueuepb.PollerInfo{Identity: id, LastAccessTime: timestamppb.New(devNow.Add(-ago))}
}

// hb is a heartbeat of a worker of process pid on task queue q, sent ago
// before devNow, every (0: the process's first heartbeat) apart.
func hb(pid, q string, ago, every time.Duration) *workerpb.WorkerHeartbeat {
	h := &workerpb.WorkerHeartbeat{
		WorkerInstanceKey: pid + "/" + q,
		WorkerIdentity:    pid + "@host",
		HostInfo:          &workerpb.WorkerHostInfo{HostName: "host", ProcessId: pid, WorkerGroupingKey: "k" + pid},
		TaskQueue:         q,
		Status:            enumspb.WORKER_STATUS_RUNNING,
		HeartbeatTime:     timestamppb.New(devNow.Add(-ago)),
	}
	if every > 0 {
		h.ElapsedSinceLastHeartbeat = durationpb.New(every)
	}
	return h
}

func TestHeartbeatServiceFollowsTheWorkersInterval(t *testing.T) {
	q := workflows.DeviceTaskQueue("emu-1")
	shared := workflows.TaskQueue
	for _, c := range []struct {
		name    string
		pollers []*taskqueuepb.PollerInfo
		hbs     []*workerpb.WorkerHeartbeat
		served  bool
		want    string
	}{
		{"fresh heartbeat while its idle poll is 50 s old",
			[]*taskqueuepb.PollerInfo{poller("1@host", 50*time.Second)},
			[]*workerpb.WorkerHeartbeat{hb("1", q, 4*time.Second, 5*time.Second)},
			true, "served by 1@host (heartbeat 4s ago)"},
		{"silent for three 5 s intervals: gone",
			[]*taskqueuepb.PollerInfo{poller("1@host", 20*time.Second)},
			[]*workerpb.WorkerHeartbeat{hb("1", q, 16*time.Second, 5*time.Second)},
			false, "no worker serves phone emu-1 since 09:11:44 (last heartbeat from 1@host)"},
		{"the same silence on a 60 s interval is one late heartbeat",
			[]*taskqueuepb.PollerInfo{poller("1@host", 20*time.Second)},
			[]*workerpb.WorkerHeartbeat{hb("1", q, 16*time.Second, time.Minute)},
			true, "served by 1@host"},
		{"the phone's worker has no heartbeat yet; its process's other worker vouches",
			[]*taskqueuepb.PollerInfo{poller("1@host", time.Second)},
			[]*workerpb.WorkerHeartbeat{hb("1", shared, 2*time.Second, 5*time.Second)},
			true, "served by 1@host"},
		{"the interval of a process is read from any of its workers",
			[]*taskqueuepb.PollerInfo{poller("1@host", 30*time.Second)},
			[]*workerpb.WorkerHeartbeat{hb("1", q, 20*time.Second, 0), hb("1", shared, 20*time.Second, 5*time.Second)},
			false, "no worker serves phone emu-1 since 09:11:40"},
		{"a single heartbeat is given the SDK's longest interval",
			[]*taskqueuepb.PollerInfo{poller("1@host", 30*time.Second)},
			[]*workerpb.WorkerHeartbeat{hb("1", q, 100*time.Second, 0)},
			true, "served by 1@host"},
		{"a dead process beside a restarted one",
			[]*taskqueuepb.PollerInfo{poller("1@host", 40*time.Second), poller("2@host", 3*time.Second)},
			[]*workerpb.WorkerHeartbeat{hb("1", q, 40*time.Second, 5*time.Second), hb("2", q, time.Second, 5*time.Second)},
			true, "served by 2@host (heartbeat 1s ago)"},
		{"a process that serves only the shared queue does not serve the phone",
			nil,
			[]*workerpb.WorkerHeartbeat{hb("3", shared, time.Second, 5*time.Second)},
			false, "none polled its task queue"},
		{"a worker that stopped cleanly left only its poll behind",
			[]*taskqueuepb.PollerInfo{poller("1@host", 10*time.Second)},
			nil,
			false, "no worker serves phone emu-1 since 09:11:50 (last poll by 1@host, which sends no heartbeats any more)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := heartbeatService("emu-1", c.pollers, c.hbs, devNow)
			if s.Served != c.served || !strings.Contains(s.Text, c.want) || s.Basis != "heartbeat" || s.Note != "" {
				t.Errorf("got %+v\nwant served=%v, text containing %q", s, c.served, c.want)
			}
		})
	}
	stopping := hb("1", q, 10*time.Second, 5*time.Second)
	stopping.Status = enumspb.WORKER_STATUS_SHUTTING_DOWN
	alive := hb("1", shared, time.Second, 5*time.Second)
	polls := []*taskqueuepb.PollerInfo{poller("1@host", 12*time.Second)}
	if s := heartbeatService("emu-1", polls, []*workerpb.WorkerHeartbeat{stopping, alive}, devNow); s.Served || !strings.Contains(s.Text, "shutting down") {
		t.Errorf("the phone's worker stopped in a process that goes on: %+v", s)
	}
	again := hb("1", q, time.Second, 5*time.Second)
	again.WorkerInstanceKey += "/2"
	if s := heartbeatService("emu-1", polls, []*workerpb.WorkerHeartbeat{stopping, alive, again}, devNow); !s.Served {
		t.Errorf("the phone's worker started again in the same process: %+v", s)
	}
}

func TestPollServiceSaysWhatItCannotSee(t *testing.T) {
	s := pollService("emu-1", []*taskqueuepb.PollerInfo{poller("1@host", 50*time.Second)}, devNow)
	if !s.Served || s.Basis != "poll" || !strings.Contains(s.Note, "frontend.WorkerHeartbeatsEnabled") {
		t.Errorf("idle poll within PollStale: %+v", s)
	}
	s = pollService("emu-1", []*taskqueuepb.PollerInfo{poller("1@host", PollStale+time.Second)}, devNow)
	if s.Served || !strings.Contains(s.Text, "no worker serves phone emu-1 since 09:10:44") {
		t.Errorf("poll older than PollStale: %+v", s)
	}
	if s := pollService("emu-1", nil, devNow); s.Served || !strings.Contains(s.Text, "none polled") {
		t.Errorf("no poller: %+v", s)
	}
}

func TestQuoteEscapesTheQueryLanguage(t *testing.T) {
	if got := quote(`a'b\c`); got != `'a\'b\\c'` {
		t.Errorf("quote = %s", got)
	}
}
