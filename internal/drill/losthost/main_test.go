package losthost

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// binDir holds the worker binary the package's tests share.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "losthost-worker-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

var build struct {
	once sync.Once
	bin  string
	err  error
}

// workerBinary builds the worker once for the package's tests.
func workerBinary(t *testing.T) string {
	t.Helper()
	build.once.Do(func() { build.bin, build.err = stack.BuildWorker(context.Background(), binDir) })
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.bin
}

// hostStack starts an embedded stack with no phone of its own and a phone
// host with one simulated phone, whose workers the test starts as child
// processes of the returned binary; the stack stops when the test ends.
func hostStack(t *testing.T) (*stack.Stack, *stack.Host, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the worker and kills it")
	}
	ctx := context.Background()
	st, err := stack.Start(ctx, stack.Options{Config: drilltest.Config(t), Phones: -1, ADB: stack.BuiltinADB, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Stop)
	bin := workerBinary(t)
	host, err := st.AddHost(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	return st, host, bin
}
