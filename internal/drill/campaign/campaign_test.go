package campaign

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/cluster"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/deploy"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

var (
	seedFlag    = flag.Int64("campaign.seed", 1, "seeds which faults are drawn, when, and which goals run")
	faultsFlag  = flag.Int("campaign.faults", defaultFaults, "how many faults to inject before the last goals may end")
	phonesFlag  = flag.Int("campaign.phones", 2, "simulated phones, each running one goal after another")
	forFlag     = flag.Duration("campaign.for", 0, "ends the faults after this long even short of -campaign.faults (0: no bound), so a run ends by a time")
	clusterFlag = flag.Bool("campaign.cluster", false, "runs the goals on the Temporal cluster on PostgreSQL (internal/cluster) and restarts its database among the faults")
	otherFlag   = flag.String("campaign.deploy-commit", "", "the commit whose worker the deploy onto another build runs (its workflow code must be this tree's); empty picks one from the history")
)

// modelTimeout is the model clients' timeout in the campaign's worker: a
// request held past it is the timeout fault, and a short one keeps the
// fault cheap.
const modelTimeout = 30 * time.Second

// TestCampaign runs goals of every kind, one after another on each phone,
// while faults drawn by the seed flow until -campaign.faults were
// injected; then it lets the last goals end and holds every goal's
// outcome against its phone: each commit on the phone at most once, none
// a done goal claims missing, no action reported applied that the input
// log lacks, none in it more often than decided, and every done goal's
// check true on the phone (docs/design.md#exactly-once-device-actions). It prints one
// table.
func TestCampaign(t *testing.T) {
	seed, nFaults, nPhones, faultsFor := *seedFlag, *faultsFlag, *phonesFlag, *forFlag
	if nPhones < 2 {
		t.Fatalf("-campaign.phones %d: the campaign needs two or more phones", nPhones)
	}
	began := time.Now()
	ctx := context.Background()
	dir := t.TempDir()
	logger := stacktest.Logger(t)
	if !testing.Verbose() {
		logger = slog.New(slog.DiscardHandler)
	}

	var tp server
	if *clusterFlag {
		cs, err := startCluster(ctx, dir, config.Default().Temporal.Namespace)
		if errors.Is(err, cluster.ErrNoPostgres) && os.Getenv("PHONEFLOW_REQUIRE_POSTGRES") != "1" {
			t.Skipf("skipping the campaign on the cluster: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		tp = cs
		t.Logf("the Temporal cluster on PostgreSQL %s up after %s", cs.pg.Version, time.Since(began).Round(time.Second))
	} else {
		ep, err := startTemporal(ctx, dir, config.Default().Temporal.Namespace)
		if err != nil {
			t.Fatal(err)
		}
		tp = ep
	}
	t.Cleanup(tp.stop)
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	s, err := stack.Start(sctx, stack.Options{Config: drilltest.Config(t), TemporalAddress: tp.Addr(), DataDir: filepath.Join(dir, "data"),
		Phones: nPhones, ADB: stack.RealADB, Life: drilltest.Life(uint64(seed)), Logger: logger})
	cancel()
	if errors.Is(err, stack.ErrNoADB) {
		if os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
			t.Fatalf("%v, but PHONEFLOW_REQUIRE_ADB=1 requires it", err)
		}
		t.Skipf("skipping the campaign: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	proxy, err := newModelProxy(s.ModelURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.close)

	bin, err := drill.BuildWorker(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.Config
	cfg.Planner.BaseURL, cfg.Executor.BaseURL = proxy.url, proxy.url
	w, err := drill.NewProcess(bin, dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := shortModelTimeouts(filepath.Join(dir, "worker.yaml")); err != nil {
		t.Fatal(err)
	}
	wk := &worker{t: t, p: w, rng: rand.New(rand.NewSource(seed + 1)), counts: map[string]int{}, bin: bin, dir: dir, cfg: cfg}
	root, err := deploy.RepoRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	other, why, err := pickOtherCommit(ctx, root, *otherFlag)
	if err != nil {
		t.Fatal(err)
	}
	if other == "" {
		if os.Getenv("PHONEFLOW_REQUIRE_HISTORY") == "1" {
			t.Fatalf("%s, but PHONEFLOW_REQUIRE_HISTORY=1 requires the deploy onto another build", why)
		}
		t.Logf("no deploy onto another build in this run: %s", why)
	} else {
		bctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
		wk.other, err = buildOther(bctx, root, other)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		wk.otherCommit = other
		t.Logf("the deploy onto another build runs the worker of %s", other[:12])
	}
	drawn := drawable(*clusterFlag, wk.other != "")
	if err := wk.start(true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = wk.p.Stop() })
	for _, serial := range s.Serials {
		waitServed(t, s, w, serial)
	}
	t.Logf("stack up, worker serving %d phones after %s", nPhones, time.Since(began).Round(time.Second))

	// Goals: one after another on each phone, every kind in turn.
	var (
		mu       sync.Mutex
		goals    []*campaignGoal
		active   = map[string]*campaignGoal{}
		stopping atomic.Bool
		counter  atomic.Int64
		runners  sync.WaitGroup
	)
	// gctx ends settleFor after the faults stop: a goal without its
	// result by then is reported unfinished, never skipped.
	gctx, gcancel := context.WithCancel(ctx)
	defer gcancel()
	goalWait := goalDeadline
	for ph := range nPhones {
		runners.Add(1)
		go func() {
			defer runners.Done()
			for k := ph; !stopping.Load(); k++ {
				n := int(counter.Add(1))
				g := newGoal(seed, n, goalKinds[(k+int(seed))%len(goalKinds)], ph, s.Phones[ph].State())
				mu.Lock()
				goals = append(goals, g)
				active[g.id] = g
				mu.Unlock()
				g.err = startGoal(gctx, s, g, s.Serials[ph])
				if g.err == nil {
					g.res, g.err = waitResult(gctx, s, g.id, goalWait)
				}
				g.end = s.Phones[ph].State()
				if g.err != nil {
					g.stuck = drilltest.Pending(s, g.id)
				}
				mu.Lock()
				delete(active, g.id)
				mu.Unlock()
				if g.err != nil {
					return // the phone may still be held: no more goals on it
				}
			}
		}()
	}

	// The phones' owner answers what the goals ask, after looking.
	pctx, pstop := context.WithCancel(ctx)
	var person sync.WaitGroup
	person.Add(1)
	go func() {
		defer person.Done()
		seen := map[string]string{}
		for pctx.Err() == nil {
			mu.Lock()
			var now []*campaignGoal
			for _, g := range active {
				now = append(now, g)
			}
			mu.Unlock()
			for _, g := range now {
				qctx, cancel := context.WithTimeout(pctx, 5*time.Second)
				st, err := s.Goals.Status(qctx, g.id)
				cancel()
				if err != nil || st.PendingQuestion == "" || seen[g.id] == st.PendingQuestion+st.AnswerBy.String() {
					continue
				}
				ans := g.answerFor(st.PendingQuestion, s.Phones[g.phone].State())
				actx, cancel := context.WithTimeout(pctx, 30*time.Second)
				err = s.Goals.Clarify(actx, g.id, ans, false)
				cancel()
				if err == nil {
					seen[g.id] = st.PendingQuestion + st.AnswerBy.String()
					mu.Lock()
					g.asked++
					g.answer = append(g.answer, st.PendingQuestion+" → "+ans)
					mu.Unlock()
				}
			}
			select {
			case <-pctx.Done():
			case <-time.After(2 * time.Second):
			}
		}
	}()

	// Faults flow until nFaults were injected.
	rng := rand.New(rand.NewSource(seed))
	faults := wk.counts // hook kills count themselves there
	injected := func() int {
		n := 0
		for _, c := range faults {
			n += c
		}
		for _, c := range proxy.answered() {
			n += c
		}
		return n
	}
	adbPath := s.ADBServer
	deployAt := nFaults / 2 // one rolling restart a run, mid-campaign
	otherAt := nFaults / 4  // the first deploy onto another build, if none was drawn by then
	faultsBegan := time.Now()
	last := 0                // faults injected at the last progress line
	var serverExits []string // the Temporal server exiting by itself is a finding
	for injected() < nFaults && (faultsFor == 0 || time.Since(faultsBegan) < faultsFor) {
		wk.reap()
		if log, err := tp.revive(ctx); err != nil {
			t.Fatal(err)
		} else if log != "" {
			t.Logf("the Temporal server exited by itself; started again. Its log ended:\n%s", log)
			serverExits = append(serverExits, log)
		}
		if err := wk.rollBack(false); err != nil {
			t.Fatalf("rolling back from the worker of %s: %v", wk.otherCommit[:12], err)
		}
		kind := drawFault(rng, drawn)
		if faults[kindDeploy] == 0 && injected() >= deployAt {
			kind = kindDeploy
		} else if wk.other != "" && faults[kindDeployOther] == 0 && !wk.onOther && injected() >= otherAt {
			kind = kindDeployOther
		}
		ok, err := inject(ctx, t, kind, rng, s, tp, proxy, wk, adbPath)
		if err != nil {
			t.Fatalf("fault %d (%s): %v", injected()+1, kind, err)
		}
		if ok {
			faults[kind]++
		}
		if n := injected(); n/25 != last/25 {
			mu.Lock()
			t.Logf("%d faults injected in %s, %d goals started", n, time.Since(faultsBegan).Round(time.Second), len(goals))
			mu.Unlock()
			last = n
		}
		gap := time.Duration(500+rng.Intn(2500)) * time.Millisecond
		for end := time.Now().Add(gap); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
			wk.reap()
		}
	}
	faultsAt := time.Since(faultsBegan)
	t.Logf("%d faults injected in %s (the worker started again %d times after it exited unable to reach the server); letting the last goals end within %s",
		injected(), faultsAt.Round(time.Second), wk.restarts, settleFor)
	stopping.Store(true)
	proxy.disarm()
	for k, n := range proxy.answered() {
		faults[k] += n
	}
	if err := wk.restartClean(); err != nil {
		t.Fatal(err)
	}
	settled := time.AfterFunc(settleFor, gcancel)
	runners.Wait()
	settled.Stop()
	pstop()
	person.Wait()
	// The worker stops before the verdict, so a goal still running changes
	// its phone no more while the phone is held against what it decided.
	if err := wk.p.Stop(); err != nil {
		t.Logf("stopping the worker before the verdict: %v", err)
	}
	wall := time.Since(began)

	// The verdict.
	tb := table{faults: faults, drawn: drawn, wall: wall, faultsAt: faultsAt, seed: seed, phones: nPhones, cluster: *clusterFlag, other: wk.otherCommit}
	if cs, ok := tp.(*clusterServer); ok {
		tb.dbRestarts = cs.restarts
	}
	final := make([]phoneStateOf, nPhones)
	for i, p := range s.Phones {
		final[i] = phoneStateOf{st: p.State()}
	}
	var problems []string
	for _, g := range goals {
		tb.goals++
		tb.byKind(g.kind)
		if g.err != nil {
			// Unfinished: a failure of the campaign, and what it did is
			// still held against its phone.
			tb.noResult++
			problems = append(problems, fmt.Sprintf("goal %s (%s on phone %d, %q) has no result %s after the faults stopped: %v; where it is stuck:\n%s",
				g.id, g.kind, g.phone, g.text, settleFor, g.err, g.stuck))
			if n := g.commits(final[g.phone].st); n > 1 {
				tb.duplicates++
				problems = append(problems, fmt.Sprintf("goal %s (%s %q, unfinished): its commit shows %d times on phone %d", g.id, g.kind, g.mark, n, g.phone))
			} else if n >= 0 {
				tb.commits += n
			}
			actx, cancel := context.WithTimeout(ctx, time.Minute)
			ids, err := drill.StartedTodoIDs(actx, s.Client, g.id)
			var acts []drill.Reported
			if err == nil {
				acts, err = drill.ReportedActionsIn(actx, s.Client, ids)
			}
			cancel()
			if err != nil {
				problems = append(problems, fmt.Sprintf("goal %s (unfinished): its actions: %v", g.id, err))
				continue
			}
			final[g.phone].acts = append(final[g.phone].acts, acts...)
			final[g.phone].goals = append(final[g.phone].goals, g.id)
			final[g.phone].trails = append(final[g.phone].trails, fmt.Sprintf("goal %s (%s, unfinished):\n%s", g.id, g.kind, trailOf(s, ids)))
			continue
		}
		tb.status[g.res.Status]++
		tb.asked += g.asked
		v := g.check(final[g.phone].st)
		if v.commits >= 0 && (g.kind == goalMessage || g.kind == goalAsked || g.kind == goalNote || g.kind == goalAlarm) {
			tb.commits += v.commits
		}
		if v.duplicate {
			tb.duplicates++
			problems = append(problems, fmt.Sprintf("goal %s (%s %q): its commit shows %d times on phone %d; status %s\nanswers: %q\nsteps:\n%s",
				g.id, g.kind, g.mark, v.commits, g.phone, g.res.Status, g.answer, trail(s, g)))
		}
		if v.lost {
			tb.lost++
		}
		if v.dishonest != "" {
			tb.dishonest++
			problems = append(problems, fmt.Sprintf("goal %s (%s, %q): %s; response %q\nsteps:\n%s", g.id, g.kind, g.text, v.dishonest, g.res.Response, trail(s, g)))
		}
		// Every todo run the goal started, listed in its result or not.
		actx, cancel := context.WithTimeout(ctx, time.Minute)
		ids, err := drill.StartedTodoIDs(actx, s.Client, g.id)
		var acts []drill.Reported
		if err == nil {
			acts, err = drill.ReportedActionsIn(actx, s.Client, union(drill.GoalWorkflowIDs(g.id, g.res)[1:], ids))
		}
		cancel()
		if err != nil {
			problems = append(problems, fmt.Sprintf("goal %s: %v", g.id, err))
			continue
		}
		final[g.phone].acts = append(final[g.phone].acts, acts...)
		final[g.phone].goals = append(final[g.phone].goals, g.id)
		final[g.phone].trails = append(final[g.phone].trails, fmt.Sprintf("goal %s (%s, %s):\n%s", g.id, g.kind, g.res.Status, trail(s, g)))
	}
	resent := resends(dir)
	for i, f := range final {
		bad := drill.AppliedButNotSent(f.acts, f.st)
		// An action the journal judged not applied and sent again is
		// decided once more: the phone's input log holds it twice, the
		// first without effect.
		decided := f.acts
		for _, a := range f.acts {
			for range resent[a.In.ActionID] {
				decided = append(decided, a)
				tb.resent++
			}
		}
		twice := drill.SentTwice(decided, f.st)
		tb.claimedNotSent += len(bad)
		tb.inputTwice += len(twice)
		if len(bad)+len(twice) > 0 {
			var acts strings.Builder
			for _, a := range f.acts {
				r := "no result"
				if a.Result != nil {
					r = fmt.Sprintf("%q recovered=%q uncertain=%q", a.Result.Result, a.Result.Recovered, a.Result.Uncertain)
				}
				fmt.Fprintf(&acts, "  %s %s: %s\n", a.In.ActionID, autoglm.FormatAction(*a.In.Act), r)
			}
			problems = append(problems, fmt.Sprintf("phone %d (%s), goals %v:\nreported applied, not in the input log: %q\nin the input log more often than decided: %q\nactions:\n%sinput log:\n%s%s\nthe worker's journal decisions:\n%s",
				i, f.st.Serial, f.goals, bad, twice, acts.String(), drilltest.InputLog(f.st), strings.Join(f.trails, ""), journalLines(dir)))
		}
	}
	t.Log("\n" + tb.String())
	for _, log := range serverExits {
		problems = append(problems, "the Temporal server exited by itself; its log ended:\n"+log)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if tb.goals == 0 || tb.commits == 0 {
		t.Errorf("the campaign ran %d goals with %d commits: it proves nothing", tb.goals, tb.commits)
	}
}

// phoneStateOf is one phone at the end with every action its goals decided.
type phoneStateOf struct {
	st     phoneState
	acts   []drill.Reported
	goals  []string
	trails []string
}

// journalLines are the lines of every worker log under dir with a decision
// on an action a crash left without its record.
func journalLines(dir string) string {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	more, _ := filepath.Glob(filepath.Join(dir, "deploy-*", "*.log"))
	var b strings.Builder
	for _, f := range append(logs, more...) {
		data, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "action journal:") {
				b.WriteString("  " + line + "\n")
			}
		}
	}
	return b.String()
}

// resends counts, by action ID, the journal's decisions in every worker
// log under dir to send an action again: its input may have reached the
// phone, and the screen as it was just before it says it did nothing.
func resends(dir string) map[string]int {
	return drilltest.Resends(journalLines(dir))
}

// union is a followed by the elements of b it lacks.
func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// startGoal starts g, trying again while the server is away; its fixed ID
// makes a start that went through before its answer was lost the same
// goal, never a second one.
func startGoal(ctx context.Context, s *stack.Stack, g *campaignGoal, device string) error {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		_, _, err := s.Goals.Start(sctx, goalctl.StartRequest{ID: g.id, Goal: g.text, Device: device})
		cancel()
		var taken *goalctl.IDTakenError
		if err == nil || errors.As(err, &taken) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("start %q: %w", g.text, err)
		}
		time.Sleep(2 * time.Second)
	}
}

// waitResult waits up to d for a goal's result through server restarts.
func waitResult(ctx context.Context, s *stack.Stack, id string, d time.Duration) (res goalResult, err error) {
	deadline := time.Now().Add(d)
	for {
		rctx, cancel := context.WithDeadline(ctx, deadline)
		res, err = s.Goals.Result(rctx, id)
		cancel()
		if err == nil || time.Now().After(deadline) {
			return res, err
		}
		time.Sleep(2 * time.Second)
	}
}

// trail is the Step trail of every todo run of g, for failure messages.
func trail(s *stack.Stack, g *campaignGoal) string {
	return trailOf(s, drill.GoalWorkflowIDs(g.id, g.res)[1:])
}

// trailOf is the Step trail of the todo workflows ids.
func trailOf(s *stack.Stack, ids []string) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, " %s:\n%s", id, drilltest.StepTrail(s, id))
	}
	return b.String()
}

// shortModelTimeouts gives the worker's model clients modelTimeout.
func shortModelTimeouts(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	y := string(b)
	for _, key := range []string{"planner:\n", "executor:\n"} {
		if !strings.Contains(y, key) {
			return fmt.Errorf("%s has no %q section to set the model timeout in", path, strings.TrimSpace(key))
		}
		y = strings.Replace(y, key, key+"  timeout: "+modelTimeout.String()+"\n", 1)
	}
	return os.WriteFile(path, []byte(y), 0o600)
}

// waitServed waits until the worker serves serial (what `starter devices`
// prints), for up to five minutes.
func waitServed(t *testing.T, s *stack.Stack, w *drill.Process, serial string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ds, err := s.Goals.DeviceService(ctx, serial, time.Now())
		cancel()
		if err == nil && ds.Served {
			return
		}
		if w.Exited() {
			t.Fatalf("the worker exited before it served %s; see %s", serial, w.LogFile())
		}
		if time.Now().After(deadline) {
			t.Fatalf("no worker served %s 5 minutes after the worker started: %+v, %v", serial, ds, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func sortedKeys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
