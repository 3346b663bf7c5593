package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"golang.org/x/sys/unix"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/waits"
	"github.com/phoneflow/phoneflow/workflows"
)

// phoneWaitGoal is the goal the phone-wait measurement runs: a todo that
// waits for a message, then a reply (docs/design.md §7).
const phoneWaitGoal = "When Alice Chen sends a message, reply 'got it'"

// lockChecks is how many lock checks one run of the lock-check figure
// times.
const lockChecks = 40

// phoneWaitWindow is how long each run watches a goal that waits for the
// phone: real time, on the real backoff (no clock is sped up), so it
// sees the first checks of the ramp.
func (o Options) phoneWaitWindow() time.Duration {
	if o.Quick {
		return 20 * time.Second
	}
	return 2 * time.Minute
}

// ChecksWithin is how many CheckPhone activities a wait for the phone
// runs in its first d: one at once, then one after each backoff sleep
// (PhoneCheckFirst doubling up to PhoneCheckMax), as
// workflows.GoalWorkflow schedules them.
func ChecksWithin(d time.Duration) int {
	n, at, gap := 1, time.Duration(0), workflows.PhoneCheckFirst
	for at+gap < d {
		at += gap
		n++
		gap = min(gap*2, workflows.PhoneCheckMax)
	}
	return n
}

// processCPU is the CPU time (user and system) of the whole bench process
// so far: the worker, and also the embedded server and the simulated
// phone, which run in it.
func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// phoneWait measures what an hour of waiting for the phone costs (model
// calls, CPU, history events), and what the lock check before every step
// costs on a phone that is already awake and unlocked.
func (r *runner) phoneWait(ctx context.Context) ([]Table, error) {
	window := r.o.phoneWaitWindow()
	firstHour, laterHour := ChecksWithin(time.Hour), int(time.Hour/workflows.PhoneCheckMax)
	t := Table{
		Title: Headings[MeasurePhoneWait],
		Note: fmt.Sprintf("%q on one simulated phone (offline models, embedded server, real adb). Each run waits until the goal's status is `waiting_phone`, "+
			"then watches it for %s of real time (the backoff is not sped up: the first check runs as the wait starts, then %s apart doubling to %s, so the window sees the early ramp only), "+
			"then the message arrives and the goal must end done. "+
			"Model calls = completions the model server answered during the window. "+
			"History events = events of the goal's history whose time falls in the window, divided by the CheckPhone activities scheduled in it. "+
			"Worker CPU per check = CPU time of the CheckPhone activity's code (%d calls per run, called in-process on a thread of their own, as %s): "+
			"the adb round trip that lists the notifications and their matching; the workflow task that schedules the check and its timer is not in it. "+
			"Process CPU = CPU time of the whole bench process during the window (getrusage RUSAGE_SELF), which holds the worker and also the embedded Temporal server "+
			"and the simulated phone (the adb server is a process of its own and not counted): per hour = its rate × 3600 s, idle polling included; "+
			"above idle = that less the process's idle rate (measured once over the same length with the stack up and no goal), per check: on a loaded machine this difference is within the noise. "+
			"Per hour = per-check figure × checks in an hour of waiting: %d in the first hour (the ramp), %d in each later hour (one per %s); model calls per hour = calls in the window × 3600 s / window.",
			phoneWaitGoal, window, workflows.PhoneCheckFirst, workflows.PhoneCheckMax, directChecks, threadCPUNote, firstHour, laterHour, workflows.PhoneCheckMax),
		Header: []string{"checks in window", "model calls in window", "model calls per hour", "history events per check", "history events, first hour", "history events, later hours",
			"worker CPU ms per check", "worker CPU s, first hour", "worker CPU s, later hours", "process CPU s per hour of waiting", "process CPU ms per check above idle"},
	}
	env, err := r.st.StartEnv(ctx, EnvOptions{Phones: 1})
	if err != nil {
		return []Table{t}, err
	}
	defer env.Stop()

	// The idle rate: the stack up, the worker polling, no goal.
	idleStart, cpu0 := time.Now(), processCPU()
	if err := sleepCtx(ctx, window); err != nil {
		return []Table{t}, err
	}
	idleRate := float64(processCPU()-cpu0) / float64(time.Since(idleStart))

	var checks, calls, callsHour, perCheckEv, evFirst, evLater, workerCPU, cpuFirst, cpuLater, procHour, aboveIdle Sample
	for range r.o.Runs {
		env.Phones[0].Reset()
		id := r.id("phonewait")
		run, err := r.st.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue, WorkflowExecutionTimeout: goalTimeout},
			workflows.GoalWorkflow, workflows.GoalInput{Goal: phoneWaitGoal, Device: env.Serials[0], Options: workflows.GoalOptions{Resolved: true}})
		if err != nil {
			return []Table{t}, err
		}
		if err := r.waitPhase(ctx, id, workflows.GoalWaitingPhone); err != nil {
			return []Table{t}, err
		}
		began, c0, m0 := time.Now(), processCPU(), env.Model.Stats().Completions
		if err := sleepCtx(ctx, window); err != nil {
			return []Table{t}, err
		}
		ended, c1, m1 := time.Now(), processCPU(), env.Model.Stats().Completions
		env.Phones[0].Receive("Alice Chen", "Are you there?")
		var res workflows.GoalResult
		if err := run.Get(ctx, &res); err != nil && !workflows.FailedResult(err, &res) {
			return []Table{t}, err
		}
		if res.Status != workflows.GoalDone {
			return []Table{t}, fmt.Errorf("the waiting goal ended %s: %s", res.Status, res.Reason)
		}
		n, k := 0, 0
		it := r.st.Client.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return []Table{t}, fmt.Errorf("history of %s: %w", id, err)
			}
			at := ev.GetEventTime().AsTime()
			if at.Before(began) || at.After(ended) {
				continue
			}
			n++
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.NameCheckPhone {
				k++
			}
		}
		if k == 0 {
			return []Table{t}, fmt.Errorf("no phone check ran in %s of waiting", window)
		}
		span := float64(ended.Sub(began))
		ev := float64(n) / float64(k)
		checks, calls = append(checks, float64(k)), append(calls, float64(m1-m0))
		callsHour = append(callsHour, float64(m1-m0)*float64(time.Hour)/span)
		perCheckEv = append(perCheckEv, ev)
		evFirst, evLater = append(evFirst, ev*float64(firstHour)), append(evLater, ev*float64(laterHour))
		procHour = append(procHour, float64(c1-c0)/span*3600)
		aboveIdle = append(aboveIdle, (float64(c1-c0)-idleRate*span)/float64(k)/float64(time.Millisecond))
		cpu, err := r.checkCPU(ctx, env)
		if err != nil {
			return []Table{t}, err
		}
		workerCPU = append(workerCPU, cpu)
		cpuFirst, cpuLater = append(cpuFirst, cpu*float64(firstHour)/1000), append(cpuLater, cpu*float64(laterHour)/1000)
		r.o.Progress(fmt.Sprintf("phone wait run: %d checks, %d model calls", k, m1-m0))
	}
	t.Rows = append(t.Rows, []string{checks.Summary(0), calls.Summary(0), callsHour.Summary(0), perCheckEv.Summary(1), evFirst.Summary(0), evLater.Summary(0),
		workerCPU.Summary(2), cpuFirst.Summary(3), cpuLater.Summary(3), procHour.Summary(1), aboveIdle.Summary(1)})
	t.Findings = append(t.Findings, fmt.Sprintf("Idle CPU of the bench process with no goal: %.1f ms per second (not in the figures above).", idleRate*1000))

	lock, err := r.lockCheck(ctx, env)
	return []Table{t, lock}, err
}

// directChecks is how many CheckPhone calls one run times directly.
const directChecks = 20

// checkCPU is the median CPU time, in ms, of the CheckPhone activity's
// code on this goroutine's own thread: a wait for a message from Alice
// Chen, past its first check.
func (r *runner) checkCPU(ctx context.Context, env *Env) (float64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	in := activities.CheckPhoneInput{Serial: env.Serials[0], Wait: waits.PhoneWait{Kind: waits.PhoneMessage, From: "Alice Chen"}, After: time.Now()}
	var cpu Sample
	for range directChecks {
		c0 := threadCPU()
		if _, err := env.Acts.CheckPhone(ctx, in); err != nil {
			return 0, err
		}
		cpu = append(cpu, Ms(threadCPU()-c0))
	}
	return cpu.Median(), nil
}

// lockCheck times the check before every step on a phone that is awake
// and unlocked: the one shell round trip that reads the power and window
// policy state.
func (r *runner) lockCheck(ctx context.Context, env *Env) (Table, error) {
	t := Table{
		Title: "The lock check before each step",
		Note: fmt.Sprintf("`Unlock` of the ADB device (docs/design.md §15) on a simulated phone that is awake and unlocked, through the private adb server, "+
			"%d calls per run after one unmeasured; wall time per call, and CPU per call as %s. It adds no history event (it runs inside the Step activity).", lockChecks, threadCPUNote),
		Header: []string{"wall ms per check", "CPU ms per check"},
	}
	d, err := env.Acts.Devices.Get(ctx, env.Serials[0])
	if err != nil {
		return t, err
	}
	u, ok := d.(interface {
		Unlock(context.Context, string) (bool, error)
	})
	if !ok {
		return t, errors.New("the worker's device cannot check its lock")
	}
	env.Phones[0].Reset()
	if _, err := u.Unlock(ctx, ""); err != nil {
		return t, err
	}
	var wall, cpu Sample
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for range r.o.Runs * lockChecks {
		began, c0 := time.Now(), threadCPU()
		changed, err := u.Unlock(ctx, "")
		if err != nil {
			return t, err
		}
		if changed {
			return t, errors.New("the lock check changed an unlocked phone")
		}
		wall, cpu = append(wall, Ms(time.Since(began))), append(cpu, Ms(threadCPU()-c0))
	}
	t.Rows = append(t.Rows, []string{wall.Summary(2), cpu.Summary(3)})
	return t, nil
}

// waitPhase polls a goal's status until its phase is phase.
func (r *runner) waitPhase(ctx context.Context, id, phase string) error {
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var st workflows.Status
		v, err := r.st.Client.QueryWorkflow(ctx, id, "", workflows.QueryStatus)
		if err == nil {
			err = v.Get(&st)
		}
		if err == nil && st.Phase == phase {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("goal %s never reached %s (phase %s, %v)", id, phase, st.Phase, err)
		}
		if err := sleepCtx(ctx, 300*time.Millisecond); err != nil {
			return err
		}
	}
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
