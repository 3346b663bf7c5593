package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func newStore(t *testing.T) *FS {
	t.Helper()
	s, err := NewFS(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPutGetRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	data := []byte("\x89PNG fake screenshot bytes")
	ref, err := s.Put(ctx, data, "image/png")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ref, "sha256:") || len(ref) != len("sha256:")+64 {
		t.Fatalf("ref = %q, want sha256:<64 hex>", ref)
	}
	if ref != Ref(data) {
		t.Fatalf("Put ref %q != Ref %q", ref, Ref(data))
	}
	got, err := s.Get(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("Get = %q, want %q", got, data)
	}
	// Sharded layout: <dir>/ab/cd/<hex>.
	h := ref[len(RefPrefix):]
	if _, err := os.Stat(filepath.Join(s.Dir(), h[:2], h[2:4], h)); err != nil {
		t.Fatalf("blob not at sharded path: %v", err)
	}
}

func TestPutIdempotent(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	r1, err := s.Put(ctx, []byte("same"), "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := s.Put(ctx, []byte("same"), "application/octet-stream")
	if err != nil {
		t.Fatal(err)
	}
	if r1 != r2 {
		t.Fatalf("refs differ: %s %s", r1, r2)
	}
	n := 0
	_ = filepath.WalkDir(s.Dir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Fatalf("files in store = %d, want 1", n)
	}
}

func TestEmptyBlob(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	ref, err := s.Put(ctx, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, ref)
	if err != nil || len(got) != 0 {
		t.Fatalf("Get empty = %q, %v", got, err)
	}
}

func TestGetNotFoundNamesRefAndDir(t *testing.T) {
	s := newStore(t)
	ref := Ref([]byte("never stored"))
	_, err := s.Get(context.Background(), ref)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	if !strings.Contains(err.Error(), ref) || !strings.Contains(err.Error(), s.Dir()) {
		t.Fatalf("error %q should name ref and dir", err)
	}
	if _, err := s.Size(context.Background(), ref); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Size err = %v, want ErrNotFound", err)
	}
}

func TestBadRef(t *testing.T) {
	s := newStore(t)
	for _, ref := range []string{"", "sha256:", "md5:abcd", "sha256:zz" + strings.Repeat("0", 62), "sha256:../../etc/passwd", "sha256:" + strings.Repeat("a", 63)} {
		if _, err := s.Get(context.Background(), ref); !errors.Is(err, ErrBadRef) {
			t.Errorf("Get(%q) err = %v, want ErrBadRef", ref, err)
		}
	}
	// Upper-case hex is accepted and normalised.
	ref, _ := s.Put(context.Background(), []byte("x"), "")
	if _, err := s.Get(context.Background(), RefPrefix+strings.ToUpper(ref[len(RefPrefix):])); err != nil {
		t.Fatalf("upper-case ref: %v", err)
	}
}

func TestCorruptBlobDetected(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	ref, _ := s.Put(ctx, []byte("original"), "")
	h := ref[len(RefPrefix):]
	if err := os.WriteFile(filepath.Join(s.Dir(), h[:2], h[2:4], h), []byte("tampered, longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, ref); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("err = %v, want corrupt", err)
	}
	// Put of the same bytes repairs it: the size differs, so the file is rewritten.
	if _, err := s.Put(ctx, []byte("original"), ""); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, ref); err != nil || string(got) != "original" {
		t.Fatalf("after repair: %q %v", got, err)
	}
}

func TestStatSize(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	ref, _ := s.Put(ctx, make([]byte, 1234), "")
	n, err := s.Size(ctx, ref)
	if err != nil || n != 1234 {
		t.Fatalf("Size = %d, %v; want 1234", n, err)
	}
	info, err := s.Stat(ctx, ref)
	if err != nil || info.Ref != ref || info.Size != 1234 || info.ModTime.IsZero() {
		t.Fatalf("Stat = %+v, %v", info, err)
	}
}

func TestConcurrentPuts(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data := []byte(fmt.Sprintf("blob-%d", i%8)) // 8 distinct, each written 8 times
			ref, err := s.Put(ctx, data, "")
			if err != nil {
				errs <- err
				return
			}
			got, err := s.Get(ctx, ref)
			if err != nil || !bytes.Equal(got, data) {
				errs <- fmt.Errorf("get %s: %q %v", ref, got, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// No temp files left behind.
	_ = filepath.WalkDir(s.Dir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("leftover temp file %s", p)
		}
		return nil
	})
}

func TestGC(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	oldRef, _ := s.Put(ctx, []byte("old blob"), "")
	newRef, _ := s.Put(ctx, []byte("new blob"), "")
	past := time.Now().Add(-48 * time.Hour)
	h := oldRef[len(RefPrefix):]
	if err := os.Chtimes(filepath.Join(s.Dir(), h[:2], h[2:4], h), past, past); err != nil {
		t.Fatal(err)
	}
	// A stale temp file from a crashed writer, and an unrelated file.
	stale := filepath.Join(s.Dir(), h[:2], h[2:4], ".tmp-deadbeef-1")
	_ = os.WriteFile(stale, []byte("partial"), 0o644)
	_ = os.Chtimes(stale, past, past)
	foreign := filepath.Join(s.Dir(), "README")
	_ = os.WriteFile(foreign, []byte("keep me"), 0o644)
	_ = os.Chtimes(foreign, past, past)

	st, err := s.GC(ctx, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if st.Removed != 1 || st.RemovedBytes != int64(len("old blob")) || st.Kept != 1 {
		t.Fatalf("stats = %+v, want 1 removed (8 bytes), 1 kept", st)
	}
	if _, err := s.Get(ctx, oldRef); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old blob still there: %v", err)
	}
	if _, err := s.Get(ctx, newRef); err != nil {
		t.Fatalf("new blob removed: %v", err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale temp file kept: %v", err)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Fatalf("foreign file removed: %v", err)
	}
}

func TestPutRefreshesAgeForGC(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	ref, _ := s.Put(ctx, []byte("reused"), "")
	h := ref[len(RefPrefix):]
	past := time.Now().Add(-48 * time.Hour)
	_ = os.Chtimes(filepath.Join(s.Dir(), h[:2], h[2:4], h), past, past)
	if _, err := s.Put(ctx, []byte("reused"), ""); err != nil {
		t.Fatal(err)
	}
	if st, err := s.GC(ctx, 24*time.Hour); err != nil || st.Removed != 0 {
		t.Fatalf("GC = %+v, %v; want nothing removed", st, err)
	}
}

func TestNewFSErrors(t *testing.T) {
	if _, err := NewFS(""); err == nil {
		t.Fatal("empty dir accepted")
	}
	f := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(f, nil, 0o644)
	if _, err := NewFS(filepath.Join(f, "sub")); err == nil {
		t.Fatal("dir under a file accepted")
	}
}

func TestCancelledContext(t *testing.T) {
	s := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Put(ctx, []byte("x"), ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("Put err = %v", err)
	}
}

func FuzzParseRef(f *testing.F) {
	f.Add("sha256:" + strings.Repeat("ab", 32))
	f.Add("sha256:../../x")
	f.Add("")
	f.Fuzz(func(t *testing.T, ref string) {
		h, err := ParseRef(ref)
		if err != nil {
			return
		}
		if len(h) != 64 || strings.ContainsAny(h, "/\\.") || h != strings.ToLower(h) {
			t.Fatalf("ParseRef(%q) = %q accepted a bad digest", ref, h)
		}
	})
}

func BenchmarkPut(b *testing.B) {
	s, _ := NewFS(b.TempDir())
	data := make([]byte, 200<<10)
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	for i := 0; b.Loop(); i++ {
		data[0], data[1], data[2] = byte(i), byte(i>>8), byte(i>>16)
		if _, err := s.Put(ctx, data, "image/png"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCollectKeepsWhatKeepNames(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	kept, _ := s.Put(ctx, []byte("a routine's reference"), "")
	gone, _ := s.Put(ctx, []byte("an old screenshot"), "")
	st, err := s.Collect(ctx, time.Now().Add(time.Hour), func(ref string) bool { return ref == kept })
	if err != nil {
		t.Fatal(err)
	}
	if st.Removed != 1 || st.Kept != 1 || st.KeptBytes != int64(len("a routine's reference")) {
		t.Fatalf("stats = %+v, want 1 removed, 1 kept", st)
	}
	if _, err := s.Get(ctx, kept); err != nil {
		t.Fatalf("kept blob removed: %v", err)
	}
	if _, err := s.Get(ctx, gone); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unkept old blob still there: %v", err)
	}
}
