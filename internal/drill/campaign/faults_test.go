package campaign

import (
	"context"
	"fmt"
	"math/rand"
	"net"
	"os/exec"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// Fault kinds, as the campaign's table names them.
const (
	kindKillIntent   = "worker kill -9 between intent and input (hook)"
	kindKillRecord   = "worker kill -9 between input and its record (hook)"
	kindKillThink    = "worker kill -9 during think"
	kindKillPlan     = "worker kill -9 during plan, before any intent"
	kindKillRandom   = "worker kill -9 at a random point"
	kindModel429     = "model 429 (Retry-After)"
	kindModel500     = "model 500"
	kindModel400     = "model 400 on the think after an action"
	kindModelReset   = "model connection reset"
	kindModelTimeout = "model request past its timeout"
	kindADBKill      = "adb server killed, restarted, phones reconnected"
	kindTransportCut = "phone transport cut"
	kindTemporalKill = "Temporal server kill -9, restarted"
	kindServiceKill  = "Temporal cluster service kill -9 (frontend, history, matching or worker), restarted"
	kindDeploy       = "deploy mid-goal (rolling restart: a new worker process, then the old one stopped)"
	kindDeployOther  = "deploy mid-goal onto another commit's build, then back (rolling restarts)"
	kindClusterDB    = "PostgreSQL cluster database restart (fast, or crash and start)"
)

// tableKinds is the order of the table's fault rows.
var tableKinds = []string{kindKillIntent, kindKillRecord, kindKillThink, kindKillPlan, kindKillRandom,
	kindModel429, kindModel500, kindModel400, kindModelReset, kindModelTimeout,
	kindADBKill, kindTransportCut, kindTemporalKill, kindServiceKill, kindDeploy, kindDeployOther, kindClusterDB}

// weighted is a fault kind the campaign draws, with its weight.
type weighted struct {
	kind   string
	weight int
}

// drawable are the faults a run draws; the hook kills come from the
// worker runs armed with a hook (see worker.start). On the cluster the
// Temporal kill is one service's and the database restarts too; a deploy
// onto another build is drawn when the history holds such a commit.
func drawable(onCluster, other bool) []weighted {
	d := []weighted{
		{kindKillRandom, 2}, {kindKillThink, 2}, {kindKillPlan, 1},
		{kindModel429, 2}, {kindModel500, 2}, {kindModel400, 3}, {kindModelReset, 1}, {kindModelTimeout, 1},
		{kindADBKill, 2}, {kindTransportCut, 2},
	}
	if onCluster {
		d = append(d, weighted{kindServiceKill, 2}, weighted{kindClusterDB, 2})
	} else {
		d = append(d, weighted{kindTemporalKill, 2})
	}
	if other {
		d = append(d, weighted{kindDeployOther, 1})
	}
	return d
}

func drawFault(rng *rand.Rand, drawn []weighted) string {
	total := 0
	for _, d := range drawn {
		total += d.weight
	}
	n := rng.Intn(total)
	for _, d := range drawn {
		if n < d.weight {
			return d.kind
		}
		n -= d.weight
	}
	return drawn[0].kind
}

// modelRole is which requests a model fault answers: a 400 or a timeout
// the executor's (a think, after the Step's action but for a todo's first),
// the rest any.
func modelRole(kind string) string {
	switch kind {
	case kindModel400, kindModelTimeout, kindKillThink:
		return "executor"
	case kindKillPlan:
		return "planner"
	}
	return ""
}

// restartADB kills the stack's adb server, waits down, starts it on the
// same port and connects the phones again, as a host's supervisor would.
func restartADB(ctx context.Context, adbPath, addr string, kill func(context.Context) error, connect func(context.Context, string) error,
	wait func(context.Context, string) error, serials []string, down time.Duration) error {
	kctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err := kill(kctx)
	cancel()
	if err != nil {
		return fmt.Errorf("kill the adb server: %w", err)
	}
	time.Sleep(down)
	_, port, _ := net.SplitHostPort(addr)
	deadline := time.Now().Add(time.Minute)
	for {
		out, err := exec.CommandContext(ctx, adbPath, "-P", port, "start-server").CombinedOutput()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("`adb -P %s start-server`: %v: %s", port, err, strings.TrimSpace(string(out)))
		}
		time.Sleep(time.Second)
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for _, s := range serials {
		// A phone whose transport is cut right now refuses the connect
		// until the cut ends: try again.
		for {
			err := connect(cctx, s)
			if err == nil {
				break
			}
			if cctx.Err() != nil {
				return fmt.Errorf("adb connect %s: %w", s, err)
			}
			time.Sleep(time.Second)
		}
	}
	for _, s := range serials {
		if err := wait(cctx, s); err != nil {
			return fmt.Errorf("%s did not come back in adb: %w", s, err)
		}
	}
	return nil
}

// cutTransport cuts one phone off for d.
func cutTransport(p *phonesim.Phone, d time.Duration) error {
	return p.SetFault(phonesim.Fault{Kind: phonesim.FaultDisconnect, Duration: d})
}
