package goalctl

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	namespacepb "go.temporal.io/api/namespace/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/mocks"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
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

// fakeWorkers answers the three calls the heartbeat check makes.
type fakeWorkers struct {
	workflowservice.WorkflowServiceClient
	capable   bool
	listErr   error
	hbs       []*workerpb.WorkerHeartbeat
	oldServer bool // fills only the full heartbeats of the listing
	queries   []string
}

func (f *fakeWorkers) DescribeNamespace(context.Context, *workflowservice.DescribeNamespaceRequest, ...grpc.CallOption) (*workflowservice.DescribeNamespaceResponse, error) {
	return &workflowservice.DescribeNamespaceResponse{NamespaceInfo: &namespacepb.NamespaceInfo{
		Capabilities: &namespacepb.NamespaceInfo_Capabilities{WorkerHeartbeats: f.capable}}}, nil
}

func (f *fakeWorkers) ListWorkers(_ context.Context, r *workflowservice.ListWorkersRequest, _ ...grpc.CallOption) (*workflowservice.ListWorkersResponse, error) {
	f.queries = append(f.queries, r.GetQuery())
	if f.listErr != nil {
		return nil, f.listErr
	}
	resp := &workflowservice.ListWorkersResponse{}
	for _, h := range f.hbs {
		if f.oldServer {
			resp.WorkersInfo = append(resp.WorkersInfo, &workerpb.WorkerInfo{WorkerHeartbeat: h})
		} else {
			resp.Workers = append(resp.Workers, &workerpb.WorkerListInfo{WorkerInstanceKey: h.GetWorkerInstanceKey()})
		}
	}
	return resp, nil
}

func (f *fakeWorkers) DescribeWorker(_ context.Context, r *workflowservice.DescribeWorkerRequest, _ ...grpc.CallOption) (*workflowservice.DescribeWorkerResponse, error) {
	for _, h := range f.hbs {
		if h.GetWorkerInstanceKey() == r.GetWorkerInstanceKey() {
			return &workflowservice.DescribeWorkerResponse{WorkerInfo: &workerpb.WorkerInfo{WorkerHeartbeat: h}}, nil
		}
	}
	return nil, status.Error(codes.NotFound, "worker not found")
}

func TestDeviceServiceAsksTheClusterForHeartbeats(t *testing.T) {
	q := workflows.DeviceTaskQueue("emu-1")
	dead := hb("1", q, 20*time.Second, 5*time.Second)
	for _, c := range []struct {
		name  string
		f     *fakeWorkers
		basis string
		want  string
	}{
		{"heartbeats", &fakeWorkers{capable: true, hbs: []*workerpb.WorkerHeartbeat{dead}}, "heartbeat", "no worker serves phone emu-1 since 09:11:40"},
		{"an older server's listing", &fakeWorkers{capable: true, oldServer: true, hbs: []*workerpb.WorkerHeartbeat{dead}}, "heartbeat", "no worker serves phone emu-1 since 09:11:40"},
		{"heartbeats off", &fakeWorkers{hbs: []*workerpb.WorkerHeartbeat{dead}}, "poll", "served by 1@host (polled 20s ago)"},
		{"no ListWorkers", &fakeWorkers{capable: true, listErr: status.Error(codes.Unimplemented, "unknown method ListWorkers")}, "poll", "served by 1@host (polled 20s ago)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mc := mocks.NewClient(t)
			mc.On("DescribeTaskQueue", mock.Anything, q, enumspb.TASK_QUEUE_TYPE_ACTIVITY).
				Return(&workflowservice.DescribeTaskQueueResponse{Pollers: []*taskqueuepb.PollerInfo{poller("1@host", 20*time.Second)}}, nil)
			mc.On("ListWorkflow", mock.Anything, mock.Anything).Return(&workflowservice.ListWorkflowExecutionsResponse{}, nil)
			mc.On("WorkflowService").Return(c.f)
			s, err := New(mc, Options{Namespace: "default"}).DeviceService(context.Background(), "emu-1", devNow)
			if err != nil || s.Basis != c.basis || !strings.Contains(s.Text, c.want) || (s.Basis == "poll") != (s.Note != "") {
				t.Errorf("got %+v, %v; want basis %s, text containing %q, a note only when polls decide", s, err, c.basis, c.want)
			}
			if c.f.capable && (len(c.f.queries) != 1 || c.f.queries[0] != "TaskQueue = '"+q+"' OR WorkerIdentity = '1@host'") {
				t.Errorf("ListWorkers queries = %q", c.f.queries)
			}
		})
	}
	f := &fakeWorkers{capable: true, listErr: status.Error(codes.Unavailable, "frontend down")}
	mc := mocks.NewClient(t)
	mc.On("DescribeTaskQueue", mock.Anything, q, enumspb.TASK_QUEUE_TYPE_ACTIVITY).Return(&workflowservice.DescribeTaskQueueResponse{}, nil)
	mc.On("ListWorkflow", mock.Anything, mock.Anything).Return(&workflowservice.ListWorkflowExecutionsResponse{}, nil)
	mc.On("WorkflowService").Return(f)
	if _, err := New(mc, Options{Namespace: "default"}).DeviceService(context.Background(), "emu-1", devNow); err == nil || !strings.Contains(err.Error(), "frontend down") {
		t.Errorf("a failed listing: %v, want the error", err)
	}
}
