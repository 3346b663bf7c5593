package campaign

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/stack"
)

// takeWait is how long a kill during think or plan waits for the request;
// maxPending bounds the model errors armed and not yet answered.
const (
	takeWait   = 90 * time.Second
	maxPending = 3
)

// inject injects one fault of kind and reports whether to count it here
// (a model error counts when the proxy answers it; a kill during think or
// plan no request made possible within takeWait is not injected).
func inject(ctx context.Context, t *testing.T, kind string, rng *rand.Rand, s *stack.Stack, srv server, proxy *modelProxy, wk *worker, adbPath string) (bool, error) {
	switch kind {
	case kindKillRandom:
		return true, wk.kill9()
	case kindDeploy:
		return true, wk.deploy()
	case kindDeployOther:
		if wk.onOther {
			return false, nil // one at a time: it rolls back first
		}
		return true, wk.deployOther()
	case kindClusterDB:
		return true, srv.(*clusterServer).restartDB(ctx, rng)
	case kindADBKill:
		down := time.Duration(500+rng.Intn(3000)) * time.Millisecond
		return true, restartADB(ctx, adbPath, s.ADBAddr, s.ADB.Kill, s.ADB.Connect, s.ADB.WaitForDevice, s.Serials, down)
	case kindTransportCut:
		p := s.Phones[rng.Intn(len(s.Phones))]
		return true, cutTransport(p, time.Duration(2000+rng.Intn(8000))*time.Millisecond)
	case kindTemporalKill, kindServiceKill:
		return true, srv.killRestart(ctx, rng)
	}
	// A model error: armed for the next matching request, counted by the
	// proxy when one takes it; the campaign goes on meanwhile.
	if kind != kindKillThink && kind != kindKillPlan {
		if proxy.pending() < maxPending {
			proxy.arm(modelFault{kind: kind, role: modelRole(kind), taken: make(chan struct{})})
		}
		return false, nil
	}
	// A kill while the worker thinks or plans: wait for the request.
	f := modelFault{kind: kind, role: modelRole(kind), taken: make(chan struct{})}
	proxy.arm(f)
	deadline := time.After(takeWait)
	for {
		select {
		case <-f.taken:
			// The request is in flight: the worker is thinking or
			// planning. Kill it now.
			time.Sleep(time.Duration(rng.Intn(500)) * time.Millisecond)
			return true, wk.kill9()
		case <-deadline:
			proxy.disarm()
			t.Logf("no %s request took the fault %q within %s", f.role, kind, takeWait)
			return false, nil
		case <-time.After(200 * time.Millisecond):
			wk.reap()
		}
	}
}
