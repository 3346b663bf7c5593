package losthost

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/phoneflow/phoneflow/internal/stack"
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
