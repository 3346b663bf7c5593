package retention

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/blob"
)

// goal is one run as the visibility store sees it.
type goal struct {
	start, close time.Time // close is zero while running
	refs         []string
}

// fakeGoals answers like Temporal's visibility, dropping goals closed
// longer ago than the namespace retention.
type fakeGoals struct {
	goals   []*goal
	nsKeep  time.Duration
	now     func() time.Time
	listErr error
}

func (f *fakeGoals) OldestStart(_ context.Context, closedAfter time.Time) (time.Time, bool, error) {
	if f.listErr != nil {
		return time.Time{}, false, f.listErr
	}
	var oldest time.Time
	found := false
	for _, g := range f.goals {
		if !g.close.IsZero() && !g.close.After(closedAfter) {
			continue
		}
		if !found || g.start.Before(oldest) {
			oldest, found = g.start, true
		}
	}
	return oldest, found, nil
}

func (f *fakeGoals) Retention(context.Context) (time.Duration, error) { return f.nsKeep, nil }

// sim is a blob store whose Put times follow a simulated clock.
type sim struct {
	t   *testing.T
	fs  *blob.FS
	now time.Time
}

func (s *sim) put(data string) string {
	s.t.Helper()
	ref, err := s.fs.Put(context.Background(), []byte(data), "image/png")
	if err != nil {
		s.t.Fatal(err)
	}
	h := strings.TrimPrefix(ref, blob.RefPrefix)
	if err := os.Chtimes(filepath.Join(s.fs.Dir(), h[:2], h[2:4], h), s.now, s.now); err != nil {
		s.t.Fatal(err)
	}
	return ref
}

func newSim(t *testing.T, start time.Time) *sim {
	fs, err := blob.NewFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &sim{t: t, fs: fs, now: start}
}

func (s *sim) present(ref string) bool {
	_, err := s.fs.Stat(context.Background(), ref)
	return err == nil
}

// TestSoakTenMinuteSchedule runs 24 simulated hours of a goal every 10
// minutes (each Putting 12 distinct screenshots and one screen seen every
// run) with a collection pass every hour and 6 hours of retention. One goal
// started in hour 1 waits for an answer until hour 6, which keeps
// everything since hour 1 until it leaves retention at hour 12. The store
// must stay bounded, and no blob a goal inside retention references may go.
func TestSoakTenMinuteSchedule(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := newSim(t, t0)
	const keep = 6 * time.Hour
	goals := &fakeGoals{now: func() time.Time { return s.now }}
	c := &Collector{Store: s.fs, Goals: goals, Retention: keep, Now: func() time.Time { return s.now }}

	const perRun = 13
	waiting := &goal{start: t0.Add(time.Hour)}
	s.now = waiting.start
	waiting.refs = []string{s.put("waiting goal's screen")}
	goals.goals = append(goals.goals, waiting)

	maxBlobs, steadyMax, run := 0, 0, 0
	var freed int64
	for s.now = t0; s.now.Before(t0.Add(24 * time.Hour)); s.now = s.now.Add(10 * time.Minute) {
		g := &goal{start: s.now}
		g.refs = append(g.refs, s.put("home screen, the same every run"))
		for i := range perRun - 1 {
			g.refs = append(g.refs, s.put(fmt.Sprintf("run %d screen %d", run, i)))
		}
		g.close = s.now.Add(3 * time.Minute)
		goals.goals = append(goals.goals, g)
		run++
		if s.now.Minute() == 0 {
			if s.now.Equal(t0.Add(6 * time.Hour)) {
				waiting.close = s.now
			}
			res, err := c.Once(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			freed += res.RemovedBytes
			maxBlobs = max(maxBlobs, res.Kept)
			if s.now.After(t0.Add(12 * time.Hour)) {
				steadyMax = max(steadyMax, res.Kept)
			}
			for _, g := range goals.goals {
				inside := g.close.IsZero() || g.close.After(s.now.Add(-keep))
				for _, ref := range g.refs {
					if inside && !s.present(ref) {
						t.Fatalf("at %s: blob %s of a goal inside retention (start %s) was removed",
							s.now.Sub(t0), ref, g.start.Sub(t0))
					}
				}
			}
		}
	}
	// Runs inside the kept window plus the clock-skew margin, each with its
	// own screenshots, plus the two shared screens.
	bound := func(window time.Duration) int {
		return int((window+ClockSkew)/(10*time.Minute)+1)*(perRun-1) + 2
	}
	if b := bound(keep); steadyMax > b {
		t.Fatalf("after the wait the store held up to %d blobs, want at most %d", steadyMax, b)
	}
	if b := bound(12*time.Hour - time.Hour); maxBlobs > b {
		t.Fatalf("during the wait the store grew to %d blobs, want at most %d", maxBlobs, b)
	}
	total := run*(perRun-1) + 2
	if maxBlobs >= total/2 || freed == 0 {
		t.Fatalf("max %d of %d blobs kept, %d bytes freed: retention did not remove enough", maxBlobs, total, freed)
	}
	t.Logf("24 h of 10-minute runs: %d blobs written, at most %d kept (%d after the wait), %d bytes freed",
		total, maxBlobs, steadyMax, freed)
}

func TestCutoff(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	for _, tc := range []struct {
		name  string
		keep  time.Duration
		ns    time.Duration
		goals []*goal
		want  time.Time
	}{
		{"no goals", 24 * time.Hour, 0, nil, now.Add(-24*time.Hour - ClockSkew)},
		{"namespace retention", 0, 72 * time.Hour, nil, now.Add(-72*time.Hour - ClockSkew)},
		{"running goal older than retention", 24 * time.Hour, 0,
			[]*goal{{start: now.Add(-30 * 24 * time.Hour)}}, now.Add(-30*24*time.Hour - ClockSkew)},
		{"long goal closed inside retention", 24 * time.Hour, 0,
			[]*goal{{start: now.Add(-50 * time.Hour), close: now.Add(-time.Hour)}}, now.Add(-50*time.Hour - ClockSkew)},
		{"goal closed before retention", 24 * time.Hour, 0,
			[]*goal{{start: now.Add(-50 * time.Hour), close: now.Add(-25 * time.Hour)}}, now.Add(-24*time.Hour - ClockSkew)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Collector{Goals: &fakeGoals{goals: tc.goals, nsKeep: tc.ns}, Retention: tc.keep, Now: clock}
			got, err := c.Cutoff(context.Background())
			if err != nil || !got.Equal(tc.want) {
				t.Fatalf("Cutoff = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestNothingRemovedWhenGoalsUnknown: a visibility error or a namespace
// without retention removes nothing and says what to do.
func TestNothingRemovedWhenGoalsUnknown(t *testing.T) {
	s := newSim(t, time.Now().Add(-365*24*time.Hour))
	ref := s.put("a year-old screenshot")
	for _, tc := range []struct {
		name  string
		goals *fakeGoals
		keep  time.Duration
		want  string
	}{
		{"visibility down", &fakeGoals{listErr: errors.New("connection refused")}, time.Hour, "list the goals inside retention"},
		{"no namespace retention", &fakeGoals{}, 0, "set blobs.retention"},
	} {
		c := &Collector{Store: s.fs, Goals: tc.goals, Retention: tc.keep}
		_, err := c.Once(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing removed") {
			t.Errorf("%s: err = %v, want it to say %q and nothing removed", tc.name, err, tc.want)
		}
		if !s.present(ref) {
			t.Fatalf("%s: the blob was removed", tc.name)
		}
	}
}

// TestRunStopsWithContext: Run makes a pass at once and returns when ctx
// ends.
func TestRunStopsWithContext(t *testing.T) {
	s := newSim(t, time.Now().Add(-48*time.Hour))
	ref := s.put("two days old")
	c := &Collector{Store: s.fs, Goals: &fakeGoals{}, Retention: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx, time.Hour) }()
	for s.present(ref) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
}
