package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// protocols are the executor layouts every end-to-end goal runs with.
var protocols = []string{config.ProtocolPhoneflow, config.ProtocolAutoGLM}

// showcaseProtocols are the layouts the showcase goal runs with: every
// protocol, the offline server answering each in its family's grammar
// (docs/models.md#model-families).
var showcaseProtocols = config.Protocols()

// stack starts the demo environment in a temporary data directory on free
// ports, its executor requests in the given layout. It skips without adb
// unless PHONEFLOW_REQUIRE_ADB=1.
func stack(t *testing.T, protocol string) (*demo.Env, *goalctl.Client) {
	t.Helper()
	return stackOn(t, protocol, "")
}

// stackOn is stack with the phone wearing skin ("" for the default).
func stackOn(t *testing.T, protocol string, skin phonesim.Skin) (*demo.Env, *goalctl.Client) {
	t.Helper()
	stacktest.NeedADB(t)
	cfg := config.Default()
	cfg.Executor.Protocol = protocol
	if skin != "" {
		cfg.Sim.Skin = string(skin)
	}
	// The offline executor reads the screen from the element list only,
	// so it gets the list in every layout.
	cfg.Executor.UIElements = "true"
	cfg.Temporal.Embedded.Port = devserver.AnyPort // the Web UI gets a free port too
	logger := stacktest.Logger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env, err := demo.Start(ctx, demo.Options{
		Config:  cfg,
		DataDir: t.TempDir(),
		Logger:  logger,
		Dial:    app.Dialer(logger),
		Worker:  app.WorkerRunner(logger),
	})
	if err != nil {
		t.Fatalf("start the stack: %v", err)
	}
	t.Cleanup(env.Stop)
	return env, goalctl.New(env.Client, goalctl.Options{Namespace: env.Config.Temporal.Namespace, UIAddress: env.Server.UIURL()})
}

// waitResult waits for a goal's result.
func waitResult(t *testing.T, g *goalctl.Client, id string, d time.Duration) workflows.GoalResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := g.Result(ctx, id)
	if err != nil {
		t.Fatalf("goal %s: %v", id, err)
	}
	return res
}

// waitStatus polls the status query until ok accepts it.
func waitStatus(t *testing.T, g *goalctl.Client, id string, d time.Duration, ok func(workflows.Status) bool) workflows.Status {
	t.Helper()
	return stacktest.WaitStatus(t, g, id, d, ok)
}

// histories fetches the histories of a goal and of every workflow whose ID
// starts with "<goal id>/" (its todo children), keyed by workflow ID.
func histories(t *testing.T, c client.Client, goalID string, todos []workflows.TodoState) map[string]*historypb.History {
	t.Helper()
	out := map[string]*historypb.History{}
	ids := drill.GoalWorkflowIDs(goalID, workflows.GoalResult{Todos: todos})
	for _, id := range ids {
		h, err := history(c, id)
		if err != nil {
			continue // a restart suffix that was never used
		}
		out[id] = h
	}
	if out[goalID] == nil {
		t.Fatalf("no history for %s", goalID)
	}
	return out
}

// history reads one workflow's history.
func history(c client.Client, id string) (*historypb.History, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return drill.HistoryOf(ctx, c, id)
}

// imageBytes counts bytes in a history that look like image data: PNG or
// JPEG signatures, raw or base64.
func imageBytes(raw []byte) int {
	n := 0
	for _, sig := range [][]byte{
		{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, {0xff, 0xd8, 0xff},
		[]byte(base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G', '\r', '\n'})),
		[]byte("/9j/"), []byte("data:image/"),
	} {
		n += bytes.Count(raw, sig) * len(sig)
	}
	return n
}

// recordHistories writes histories as `temporal workflow show --output
// json` files under workflows/testdata when PHONEFLOW_RECORD_HISTORIES=1,
// so the replay test there covers what the real server recorded.
func recordHistories(t *testing.T, name string, hs map[string]*historypb.History, goalID string) {
	if os.Getenv("PHONEFLOW_RECORD_HISTORIES") != "1" {
		return
	}
	dir := filepath.Join("..", "..", "workflows", "testdata")
	for id, h := range hs {
		suffix := strings.TrimPrefix(strings.TrimPrefix(id, goalID), "/")
		file := name + ".json"
		if suffix != "" {
			file = name + "-" + suffix + ".json"
		}
		data, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %s (%d events)", file, len(h.Events))
	}
}

func size(h *historypb.History) int { return proto.Size(h) }
