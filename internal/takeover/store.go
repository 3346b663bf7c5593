package takeover

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/phoneflow/phoneflow/internal/sealed"
)

// DefaultTTL is how long typed text waits for its activity before it is
// deleted unread.
const DefaultTTL = 5 * time.Minute

// ErrGone is a handle whose text was already typed, expired, or was sealed
// on another host.
var ErrGone = errors.New("the typed text is gone (already typed, expired, or sealed on another host): type it again in the step viewer of the phone's host")

// Store holds typed text under one-time handles. The text is kept as the
// executor's secrets are (internal/sealed: encrypted with a key of this
// host's), so a password a person typed is never on disk in clear, not
// even for the minutes before it is typed.
type Store struct {
	Dir string
	// TTL is how long an entry lives unread; 0 is DefaultTTL.
	TTL time.Duration

	once sync.Once
	s    *sealed.Store
}

// handleRe is what Seal hands out: 32 hex digits, nothing a path can
// escape with.
var handleRe = regexp.MustCompile(`^[0-9a-f]{32}$`)

func (s *Store) store() *sealed.Store {
	s.once.Do(func() {
		ttl := s.TTL
		if ttl <= 0 {
			ttl = DefaultTTL
		}
		s.s = &sealed.Store{Dir: s.Dir, TTL: ttl}
		// Entries of the earlier format held the text in clear under
		// the bare handle; none outlives its few minutes, so any left
		// is deleted unread.
		if ents, err := os.ReadDir(s.Dir); err == nil {
			for _, e := range ents {
				if handleRe.MatchString(e.Name()) {
					_ = os.Remove(filepath.Join(s.Dir, e.Name()))
				}
			}
		}
	})
	return s.s
}

// Seal keeps text and returns its handle.
func (s *Store) Seal(text string) (string, error) {
	h, err := s.store().Seal(text)
	if err != nil {
		return "", fmt.Errorf("typed text store: %w", err)
	}
	return h[len(sealed.Prefix):], nil
}

// Take returns the text of handle and deletes it; ErrGone when there is
// none (or it has expired).
func (s *Store) Take(handle string) (string, error) {
	if !handleRe.MatchString(handle) {
		return "", fmt.Errorf("typed text handle %q is malformed: %w", handle, ErrGone)
	}
	text, err := s.store().Open(sealed.Prefix + handle)
	s.store().Drop(sealed.Prefix + handle)
	if err != nil {
		return "", ErrGone
	}
	return text, nil
}

// Drop deletes handle's text unread (its update was refused).
func (s *Store) Drop(handle string) {
	if handleRe.MatchString(handle) {
		s.store().Drop(sealed.Prefix + handle)
	}
}
