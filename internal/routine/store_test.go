package routine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// storeKinds are the two stores; open returns a function that opens
// another instance on the same place, as another worker or host would,
// with a cache of its own.
var storeKinds = []struct {
	name string
	open func(t *testing.T) func() *Store
}{
	{"directory", func(t *testing.T) func() *Store {
		dir := filepath.Join(t.TempDir(), "routines")
		return func() *Store {
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}},
	{"file bucket", func(t *testing.T) func() *Store {
		u := "file://" + filepath.Join(t.TempDir(), "shared")
		return func() *Store {
			s, err := OpenURL(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	}},
}

func fleetOutcome(i int) Outcome {
	task := Task{Template: "send {1} a message saying {2}", Params: []Param{{Kind: KindLabel, Value: "Alice"}, {Kind: KindTyped, Value: "hi " + strconv.Itoa(i)}}}
	return Outcome{Key: Key{Template: task.Template, App: "launcher", Model: "Pixel", Width: w, Height: h}, Task: task,
		Example: fmt.Sprintf(`Send Alice a message saying "hi %d"`, i), Success: true,
		Steps: []Step{{Screen: "tree:a", Action: autoglm.Action{Name: autoglm.ActionLaunch, App: "Messages"}}}}
}

// Hosts that learn and use the same routine at once (the first outcomes
// all create it) lose none of each other's runs.
func TestStoreKeepsEveryOutcomeUnderContention(t *testing.T) {
	const hosts, each = 4, 6
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) {
			open := kind.open(t)
			var wg sync.WaitGroup
			errs := make(chan error, hosts*each)
			created := make(chan bool, hosts*each)
			start := make(chan struct{})
			for h := range hosts {
				s := open()
				wg.Go(func() {
					<-start
					for i := range each {
						rec, err := s.Record(fleetOutcome(h*each+i), time.Now())
						errs <- err
						created <- rec.Created
					}
				})
			}
			close(start)
			wg.Wait()
			close(errs)
			close(created)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			for c := range created {
				if c {
					n++
				}
			}
			r, err := open().Get(fleetOutcome(0).Key.ID())
			if err != nil {
				t.Fatal(err)
			}
			if r.Successes != hosts*each || r.Runs != hosts*each || n != 1 {
				t.Fatalf("after %d successes from %d hosts: successes %d, runs %d, created %d times; want %d, %d, once",
					hosts*each, hosts, r.Successes, r.Runs, n, hosts*each, hosts*each)
			}
		})
	}
}

// Every version a bucket holds is a whole routine, and the versions a
// reader takes are the newest.
func TestBucketVersionsAreWholeAndNewestWins(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	a, err := OpenURL(context.Background(), "file://"+dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenURL(context.Background(), "file://"+dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	o := fleetOutcome(1)
	for i := range 5 {
		if _, err := []*Store{a, b}[i%2].Record(fleetOutcome(i), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	id := o.Key.ID()
	files, err := filepath.Glob(filepath.Join(dir, id, "*.json"))
	if err != nil || len(files) != 5 {
		t.Fatalf("versions %v (%v), want 5 objects", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeRoutine(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, s := range []*Store{a, b} {
		r, err := s.Get(id)
		if err != nil || r.Successes != 5 || r.Example != fleetOutcome(4).Example {
			t.Fatalf("newest: %+v %v", r, err)
		}
	}
	// A deletion is a version of its own: both hosts see it, and the next
	// success learns the routine again.
	if err := b.Delete(id); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(id); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted routine on the other host: %v", err)
	}
	if rs, err := a.List(); err != nil || len(rs) != 0 {
		t.Fatalf("list after delete: %v %v", rs, err)
	}
	if rec, err := a.Record(o, time.Now()); err != nil || !rec.Created || rec.Routine.Successes != 1 {
		t.Fatalf("learned again: %+v %v", rec, err)
	}
}

// A host that moves to a shared store brings the routines it learned
// alone; one the store already has is kept as it is.
func TestImportBringsLocalRoutines(t *testing.T) {
	local, err := Open(filepath.Join(t.TempDir(), "routines"))
	if err != nil {
		t.Fatal(err)
	}
	shared, err := OpenURL(context.Background(), "file://"+filepath.Join(t.TempDir(), "shared"))
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	mine := fleetOutcome(1)
	theirs := fleetOutcome(2)
	theirs.Key.App = "messages"
	for _, o := range []Outcome{mine, theirs} {
		if _, err := local.Record(o, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := shared.Record(theirs, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := shared.Record(theirs, time.Now()); err != nil {
		t.Fatal(err)
	}
	n, err := shared.Import(local)
	if err != nil || n != 1 {
		t.Fatalf("imported %d (%v), want 1", n, err)
	}
	if r, err := shared.Get(mine.Key.ID()); err != nil || r.Example != mine.Example {
		t.Fatalf("imported routine: %+v %v", r, err)
	}
	if r, err := shared.Get(theirs.Key.ID()); err != nil || r.Successes != 2 {
		t.Fatalf("the shared store's own routine: %+v %v", r, err)
	}
}

func TestOpenURLNamesTheFix(t *testing.T) {
	for _, u := range []string{"file://relative/dir", "ftp://host/routines", "azblob://box"} {
		if _, err := OpenURL(context.Background(), u); err == nil {
			t.Errorf("%s opened", u)
		} else {
			t.Log(err)
		}
	}
}

// recorderEnv makes the test binary a recorder process: the store URL and
// the outcomes to record (TestStoreProcessesShareABucket).
const recorderEnv = "ROUTINE_TEST_RECORDER"

func TestRecorderProcess(t *testing.T) {
	u := os.Getenv(recorderEnv)
	if u == "" {
		t.Skip("run by TestStoreProcessesShareABucket")
	}
	s, err := OpenURL(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 10 {
		if _, err := s.Record(fleetOutcome(i), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// Two processes recording the same routine into one file:// bucket at once
// lose nothing: a file bucket's conditional write holds across processes.
func TestStoreProcessesShareABucket(t *testing.T) {
	u := "file://" + filepath.Join(t.TempDir(), "shared")
	var cmds []*exec.Cmd
	for range 2 {
		c := exec.Command(os.Args[0], "-test.run=^TestRecorderProcess$", "-test.count=1")
		c.Env = append(os.Environ(), recorderEnv+"="+u)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenURL(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Get(fleetOutcome(0).Key.ID())
	if err != nil || r.Successes != 20 {
		t.Fatalf("after 10 successes from each of 2 processes: %+v %v", r.Successes, err)
	}
}
