package takeover

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSealTakeOnce(t *testing.T) {
	s := &Store{Dir: filepath.Join(t.TempDir(), "typed")}
	h, err := s.Seal("hunter2!")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(s.Dir, h+".sealed"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("entry mode %v, want 0600", fi.Mode().Perm())
	}
	// The text waits encrypted: no file under the store holds it in clear.
	ents, err := os.ReadDir(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("hunter2!")) {
			t.Errorf("%s holds the typed text in clear", e.Name())
		}
	}
	got, err := s.Take(h)
	if err != nil || got != "hunter2!" {
		t.Fatalf("Take = %q, %v", got, err)
	}
	if _, err := s.Take(h); !errors.Is(err, ErrGone) {
		t.Fatalf("second Take: %v, want ErrGone", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, h+".sealed")); !os.IsNotExist(err) {
		t.Fatalf("entry still on disk after Take: %v", err)
	}
}

func TestTakeRefusesExpiredAndMalformed(t *testing.T) {
	s := &Store{Dir: t.TempDir(), TTL: time.Minute}
	h, err := s.Seal("1234")
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Minute)
	if err := os.Chtimes(filepath.Join(s.Dir, h+".sealed"), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(h); !errors.Is(err, ErrGone) {
		t.Fatalf("expired Take: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, h+".sealed")); !os.IsNotExist(err) {
		t.Fatal("expired entry left on disk")
	}
	for _, bad := range []string{"", "../etc/passwd", "ABC"} {
		if _, err := s.Take(bad); !errors.Is(err, ErrGone) {
			t.Errorf("Take(%q) = %v", bad, err)
		}
	}
	h2, _ := s.Seal("x")
	if err := os.Chtimes(filepath.Join(s.Dir, h2+".sealed"), old, old); err != nil {
		t.Fatal(err)
	}
	h3, _ := s.Seal("y") // sweeps h2
	if _, err := os.Stat(filepath.Join(s.Dir, h2+".sealed")); !os.IsNotExist(err) {
		t.Fatal("Seal did not sweep an expired entry")
	}
	s.Drop(h3)
	if _, err := s.Take(h3); !errors.Is(err, ErrGone) {
		t.Fatal("Drop left the entry")
	}
}

func TestClearEntriesOfTheEarlierFormatAreDeleted(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "0123456789abcdef0123456789abcdef")
	if err := os.WriteFile(old, []byte("hunter2!"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &Store{Dir: dir}
	if _, err := s.Take("0123456789abcdef0123456789abcdef"); !errors.Is(err, ErrGone) {
		t.Fatalf("Take of a clear entry: %v, want ErrGone", err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatal("a clear entry of the earlier format is still on disk")
	}
}
