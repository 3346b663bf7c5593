package sealed

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSealOpenAndNothingInClear(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sealed")
	s := &Store{Dir: dir}
	h, err := s.Seal("Zq7-vault-Pw!")
	if err != nil {
		t.Fatal(err)
	}
	if !IsHandle(h) {
		t.Fatalf("handle %q", h)
	}
	for range 2 { // a retry opens it again
		if got, err := s.Open(h); err != nil || got != "Zq7-vault-Pw!" {
			t.Fatalf("Open = %q, %v", got, err)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if bytes.Contains(data, []byte("Zq7-vault")) {
			t.Fatalf("%s holds the text in clear", e.Name())
		}
		if fi, _ := e.Info(); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", e.Name(), fi.Mode().Perm())
		}
	}
	s.Drop(h)
	if _, err := s.Open(h); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("Open after Drop: %v", err)
	}
}

func TestOtherHostExpiredAndMalformedAreUnreadable(t *testing.T) {
	a, b := &Store{Dir: t.TempDir()}, &Store{Dir: t.TempDir()}
	h, err := a.Seal("482913")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(h); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("another host opened it: %v", err)
	}
	// The entry copied to the other host does not open under its key.
	name := h[len(Prefix):] + ".sealed"
	data, _ := os.ReadFile(filepath.Join(a.Dir, name))
	if _, err := b.Seal("x"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.Dir, name), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(h); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("another host's key opened it: %v", err)
	}
	old := time.Now().Add(-DefaultTTL - time.Hour)
	if err := os.Chtimes(filepath.Join(a.Dir, name), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Open(h); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("expired entry opened: %v", err)
	}
	for _, bad := range []string{"", "sealed:../key", "sealed:ABC", h[len(Prefix):]} {
		if _, err := a.Open(bad); !errors.Is(err, ErrUnreadable) {
			t.Errorf("Open(%q) = %v", bad, err)
		}
	}
}
