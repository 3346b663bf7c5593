package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// lockedPIN is the simulated phones' PIN and the worker's: six digits
// that no screenshot, tree or history holds by chance.
const lockedPIN = "739164"

// logBuffer keeps every log line of a stack, debug included.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestScheduledRunOnALockedPhone: a schedule's run starts while the
// simulated phone is dark and PIN-locked. The worker wakes it, unlocks it
// with the configured PIN and the goal ends verified done, with the phone
// showing it. The PIN is then searched for in every history event of the
// run, every log line the stack wrote (debug included), the goal's status
// and result, and every file of the data directory (blobs, journal):
// it is in none of them (docs/design.md §15).
func TestScheduledRunOnALockedPhone(t *testing.T) {
	stacktest.NeedADB(t)
	cfg := config.Default()
	cfg.Executor.Protocol = config.ProtocolPhoneflow
	cfg.Executor.UIElements = "true"
	cfg.Temporal.Embedded.Port = devserver.AnyPort
	cfg.Sim.PIN = lockedPIN
	cfg.ADB.UnlockPIN = lockedPIN
	logs := &logBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env, err := demo.Start(ctx, demo.Options{
		Config: cfg, DataDir: t.TempDir(), Logger: logger,
		Dial:   app.Dialer(logger),
		Worker: app.WorkerRunner(logger),
	})
	if err != nil {
		t.Fatalf("start the stack: %v", err)
	}
	t.Cleanup(env.Stop)
	defer func() {
		if t.Failed() {
			out := logs.String()
			t.Logf("stack logs (last 8 KB):\n%s", out[max(0, len(out)-8<<10):])
		}
	}()
	g := goalctl.New(env.Client, goalctl.Options{Namespace: env.Config.Temporal.Namespace, UIAddress: env.Server.UIURL()})
	for start := time.Now(); ; time.Sleep(200 * time.Millisecond) {
		if err := g.CheckDevice(ctx, env.Serial); err == nil {
			break
		} else if time.Since(start) > 30*time.Second {
			t.Fatalf("the stack's phone is not served: %v", err)
		}
	}

	env.Phone.Lock()
	if st := env.Phone.State(); st.Awake || !st.Locked {
		t.Fatalf("the phone is not dark and locked before the run: awake %t locked %t", st.Awake, st.Locked)
	}
	req := goalctl.ScheduleRequest{Name: "bt-night", Goal: "Turn on Bluetooth", Device: env.Serial, Every: 24 * time.Hour,
		RunTimeout: 10 * time.Minute}
	if err := g.CreateSchedule(ctx, req); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.DeleteSchedule(context.Background(), "bt-night") })
	if err := g.TriggerSchedule(ctx, "bt-night"); err != nil {
		t.Fatal(err)
	}
	var si goalctl.ScheduleInfo
	for deadline := time.Now().Add(30 * time.Second); len(si.Recent) == 0; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the triggered run never started")
		}
		if si, err = g.DescribeSchedule(ctx, "bt-night"); err != nil {
			t.Fatal(err)
		}
	}
	goalID := si.Recent[0].WorkflowID
	res := waitResult(t, g, goalID, 5*time.Minute)
	st := env.Phone.State()
	if res.Status != workflows.GoalDone || !st.Toggles.Bluetooth {
		t.Fatalf("run on the locked phone ended %s (%s); Bluetooth on: %t", res.Status, res.Reason, st.Toggles.Bluetooth)
	}
	for _, td := range res.Todos {
		if td.Status == workflows.TodoDone && !td.Verified {
			t.Errorf("todo %q done but not verified", td.Text)
		}
	}
	unlocked := false
	for _, e := range st.Events {
		unlocked = unlocked || (e.Kind == "unlock" && e.Detail == "PIN accepted")
	}
	if !unlocked || st.WrongPINs != 0 || st.Locked {
		t.Fatalf("the phone was not unlocked with its PIN once: events %+v, wrong PINs %d, locked %t", st.Events, st.WrongPINs, st.Locked)
	}

	// Where the PIN must not be. A positive control proves each search
	// can find what is there.
	hs := histories(t, env.Client, goalID, res.Todos)
	events := 0
	for id, h := range hs {
		for _, ev := range h.Events {
			events++
			raw, err := proto.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(raw, []byte(lockedPIN)) {
				t.Errorf("history of %s: event %d (%s) holds the PIN", id, ev.EventId, ev.EventType)
			}
		}
	}
	whole, _ := proto.Marshal(hs[goalID])
	if !bytes.Contains(whole, []byte("Turn on Bluetooth")) {
		t.Fatal("control: the goal's text is not found in its own history")
	}
	status, err := g.Status(ctx, goalID)
	if err != nil {
		t.Fatal(err)
	}
	for what, v := range map[string]any{"status": status, "result": res} {
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), lockedPIN) {
			t.Errorf("the goal's %s holds the PIN", what)
		}
	}
	out := logs.String()
	if !strings.Contains(out, "woke and unlocked the phone") {
		t.Error("control: the worker's log does not say it unlocked the phone")
	}
	if strings.Contains(out, lockedPIN) {
		i := strings.Index(out, lockedPIN)
		t.Errorf("a log line holds the PIN: %q", out[max(0, i-200):min(len(out), i+50)])
	}
	files := 0
	err = filepath.WalkDir(env.DataDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if bytes.Contains(data, []byte(lockedPIN)) {
			t.Errorf("%s holds the PIN", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("PIN searched in %d history events of %d workflows, %d bytes of logs, %d files of the data directory: not found",
		events, len(hs), len(out), files)
}
