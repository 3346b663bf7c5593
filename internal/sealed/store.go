package sealed

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Prefix opens every handle, so a handle reads as one in any record.
const Prefix = "sealed:"

// DefaultTTL is how long sealed text is kept: long enough for an action
// that waits for a person's approval and its retries, short enough that a
// data_dir holds no old secrets.
const DefaultTTL = 7 * 24 * time.Hour

// ErrUnreadable is a handle this host cannot open: sealed on another
// host, expired, or its key is gone.
var ErrUnreadable = errors.New("the sealed text is not readable on this host (sealed on another worker's host, expired, or the data_dir was wiped): nothing was typed; run the todo again so the executor decides the text anew, or take over and type it")

// Store seals text under handles in Dir.
type Store struct {
	Dir string
	// TTL is how long an entry lives; 0 is DefaultTTL.
	TTL time.Duration

	mu   sync.Mutex
	aead cipher.AEAD
}

// keyFile holds the host's key; entries are <32 hex>.sealed.
const keyFile = "key"

var handleRe = regexp.MustCompile(`^` + Prefix + `([0-9a-f]{32})$`)

// IsHandle reports whether s is a handle Seal hands out.
func IsHandle(s string) bool { return handleRe.MatchString(s) }

// Seal encrypts text and returns its handle.
func (s *Store) Seal(text string) (string, error) {
	aead, err := s.key(true)
	if err != nil {
		return "", err
	}
	s.sweep()
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", err
	}
	name := hex.EncodeToString(id[:])
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	// The handle is bound into the ciphertext: an entry renamed to
	// another handle does not open.
	data := aead.Seal(nonce, nonce, []byte(text), []byte(name))
	if err := writeFile(filepath.Join(s.Dir, name+".sealed"), data); err != nil {
		return "", fmt.Errorf("sealed text store %s: %w", s.Dir, err)
	}
	return Prefix + name, nil
}

// Open returns the text of handle; ErrUnreadable when this host cannot.
// The entry stays: a retried action types it again.
func (s *Store) Open(handle string) (string, error) {
	m := handleRe.FindStringSubmatch(handle)
	if m == nil {
		return "", fmt.Errorf("sealed text handle %q is malformed: %w", handle, ErrUnreadable)
	}
	aead, err := s.key(false)
	if err != nil {
		return "", ErrUnreadable
	}
	p := filepath.Join(s.Dir, m[1]+".sealed")
	fi, err := os.Stat(p)
	if err != nil || time.Since(fi.ModTime()) > s.ttl() {
		return "", ErrUnreadable
	}
	data, err := os.ReadFile(p)
	if err != nil || len(data) < aead.NonceSize() {
		return "", ErrUnreadable
	}
	text, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], []byte(m[1]))
	if err != nil {
		return "", ErrUnreadable
	}
	return string(text), nil
}

// Drop deletes handle's entry (its action's result is recorded).
func (s *Store) Drop(handle string) {
	if m := handleRe.FindStringSubmatch(handle); m != nil {
		_ = os.Remove(filepath.Join(s.Dir, m[1]+".sealed"))
	}
}

// key loads the host's key, creating it when create is set.
func (s *Store) key(create bool) (cipher.AEAD, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aead != nil {
		return s.aead, nil
	}
	p := filepath.Join(s.Dir, keyFile)
	k, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) && create {
		if err := os.MkdirAll(s.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("sealed text store %s: %w", s.Dir, err)
		}
		k = make([]byte, 32)
		if _, err := rand.Read(k); err != nil {
			return nil, err
		}
		// O_EXCL: two workers sharing the directory keep the first key.
		f, ferr := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if ferr == nil {
			_, werr := f.Write(k)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				return nil, fmt.Errorf("sealed text store %s: %w", s.Dir, werr)
			}
		} else if k, err = os.ReadFile(p); err != nil {
			return nil, fmt.Errorf("sealed text store %s: %w", s.Dir, err)
		}
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("sealed text store %s: %w", s.Dir, err)
	}
	if len(k) != 32 {
		return nil, fmt.Errorf("sealed text store %s: the key file %s is not a 32-byte key: delete it (text sealed under it is lost)", s.Dir, p)
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, err
	}
	if s.aead, err = cipher.NewGCM(block); err != nil {
		return nil, err
	}
	return s.aead, nil
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
		if !strings.HasSuffix(e.Name(), ".sealed") {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > s.ttl() {
			_ = os.Remove(filepath.Join(s.Dir, e.Name()))
		}
	}
}

// writeFile writes data atomically, readable by its owner only.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
