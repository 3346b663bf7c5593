package campaign

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/stack"
)

// takeWait is how long an armed model fault waits for a request to take it.
const takeWait = 90 * time.Second

// inject injects one fault of kind and reports whether it was injected
// (an armed model fault no request took within takeWait was not).
func inject(ctx context.Context, t *testing.T, kind string, rng *rand.Rand, s *stack.Stack, tp *temporalProc, proxy *modelProxy, wk *worker, adbPath string) (bool, error) {
	switch kind {
	case kindKillRandom:
		return true, wk.kill9()
	case kindADBKill:
		down := time.Duration(500+rng.Intn(3000)) * time.Millisecond
		return true, restartADB(ctx, adbPath, s.ADBAddr, s.ADB.Kill, s.ADB.Connect, s.ADB.WaitForDevice, s.Serials, down)
	case kindTransportCut:
		p := s.Phones[rng.Intn(len(s.Phones))]
		return true, cutTransport(p, time.Duration(2000+rng.Intn(8000))*time.Millisecond)
	case kindTemporalKill:
		if err := tp.kill9(); err != nil {
			return false, err
		}
		time.Sleep(time.Duration(500+rng.Intn(2500)) * time.Millisecond)
		return true, tp.start(ctx)
	}
	// A model fault: armed for the next matching request.
	f := modelFault{kind: kind, role: modelRole(kind), taken: make(chan struct{})}
	proxy.arm(f)
	deadline := time.After(takeWait)
	for {
		select {
		case <-f.taken:
			if kind == kindKillThink || kindKillPlan == kind {
				// The request is in flight: the worker is thinking or
				// planning. Kill it now.
				time.Sleep(time.Duration(rng.Intn(500)) * time.Millisecond)
				return true, wk.kill9()
			}
			return true, nil
		case <-deadline:
			proxy.disarm()
			t.Logf("no %s request took the fault %q within %s", f.role, kind, takeWait)
			return false, nil
		case <-time.After(200 * time.Millisecond):
			wk.reap()
		}
	}
}
