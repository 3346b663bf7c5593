package takeover

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// DefaultTTL is how long typed text waits for its activity before it is
// deleted unread.
const DefaultTTL = 5 * time.Minute

// ErrGone is a handle whose text was already typed, expired, or was sealed
// on another host.
var ErrGone = errors.New("the typed text is gone (already typed, expired, or sealed on another host): type it again in the step viewer of the phone's host")

// Store holds typed text under one-time handles.
type Store struct {
	Dir string
	// TTL is how long an entry lives unread; 0 is DefaultTTL.
	TTL time.Duration
}

// handleRe is what Seal hands out: 32 hex digits, nothing a path can
// escape with.
var handleRe = regexp.MustCompile(`^[0-9a-f]{32}$`)

// Seal keeps text and returns its handle.
func (s *Store) Seal(text string) (string, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("typed text store %s: %w", s.Dir, err)
	}
	s.sweep()
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	h := hex.EncodeToString(b[:])
	if err := os.WriteFile(filepath.Join(s.Dir, h), []byte(text), 0o600); err != nil {
		return "", fmt.Errorf("typed text store %s: %w", s.Dir, err)
	}
	return h, nil
}

// Take returns the text of handle and deletes it; ErrGone when there is
// none (or it has expired).
func (s *Store) Take(handle string) (string, error) {
	if !handleRe.MatchString(handle) {
		return "", fmt.Errorf("typed text handle %q is malformed: %w", handle, ErrGone)
	}
	p := filepath.Join(s.Dir, handle)
	fi, err := os.Stat(p)
	if err != nil {
		return "", ErrGone
	}
	b, rerr := os.ReadFile(p)
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("typed text store %s: %w", s.Dir, err)
	}
	if rerr != nil || time.Since(fi.ModTime()) > s.ttl() {
		return "", ErrGone
	}
	return string(b), nil
}

// Drop deletes handle's text unread (its update was refused).
func (s *Store) Drop(handle string) {
	if handleRe.MatchString(handle) {
		_ = os.Remove(filepath.Join(s.Dir, handle))
	}
}

func (s *Store) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return DefaultTTL
}

// sweep deletes expired entries.
func (s *Store) sweep() {
	ents, err := os.ReadDir(s.Dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !handleRe.MatchString(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > s.ttl() {
			_ = os.Remove(filepath.Join(s.Dir, e.Name()))
		}
	}
}
