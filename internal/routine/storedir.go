package routine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// dirBackend is a directory of routines, one JSON file per routine named by
// its ID. A write goes through a temporary file renamed into place, under a
// lock file shared by every process on the host, after checking that the
// file is still the one the routine was read from; its revision is a hash
// of its bytes.
type dirBackend struct {
	dir string
}

var _ backend = (*dirBackend)(nil)

// Open returns the store in dir, creating the directory.
func Open(dir string) (*Store, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, errors.New("routine store: empty directory: set data_dir in the config")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("routine store: create %s: %w", dir, err)
	}
	return &Store{b: &dirBackend{dir: dir}}, nil
}

func (d *dirBackend) where() string { return d.dir }
func (d *dirBackend) close() error  { return nil }

func (d *dirBackend) path(id string) string { return filepath.Join(d.dir, id+".json") }

func revision(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:8])
}

func (d *dirBackend) read(id string) ([]byte, string, error) {
	data, err := os.ReadFile(d.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("%w %q in %s (see `starter routines list`)", ErrNotFound, id, d.dir)
	}
	if err != nil {
		return nil, "", fmt.Errorf("routine store: %w", err)
	}
	return data, revision(data), nil
}

func (d *dirBackend) get(_ context.Context, id string) (Routine, string, error) {
	data, rev, err := d.read(id)
	if err != nil {
		return Routine{}, "", err
	}
	r, err := decodeRoutine(data)
	if err != nil {
		return Routine{}, "", fmt.Errorf("routine store: %s is not a routine (%v): delete it with `starter routines delete %s`", d.path(id), err, id)
	}
	return r, rev, nil
}

func (d *dirBackend) all(ctx context.Context) ([]Routine, []string, error) {
	ents, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, nil, fmt.Errorf("routine store: %w", err)
	}
	var out []Routine
	var bad []string
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !validID(id) {
			continue
		}
		r, _, err := d.get(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue // deleted since the listing
		}
		if err != nil {
			bad = append(bad, e.Name())
			continue
		}
		out = append(out, r)
	}
	return out, bad, nil
}

// current is the revision of id's file now ("" when there is none).
func (d *dirBackend) current(id string) (string, error) {
	_, rev, err := d.read(id)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	return rev, err
}

func (d *dirBackend) put(_ context.Context, r Routine, rev string) error {
	unlock, err := lockDir(d.dir)
	if err != nil {
		return err
	}
	defer unlock()
	if now, err := d.current(r.ID); err != nil {
		return err
	} else if now != rev {
		return errConflict
	}
	data, err := encode(r)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.dir, ".tmp-"+r.ID+"-*")
	if err != nil {
		return fmt.Errorf("routine store: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("routine store: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("routine store: sync %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("routine store: %w", err)
	}
	if err := os.Rename(tmp.Name(), d.path(r.ID)); err != nil {
		return fmt.Errorf("routine store: %w", err)
	}
	return nil
}

func (d *dirBackend) remove(_ context.Context, id, rev string) error {
	unlock, err := lockDir(d.dir)
	if err != nil {
		return err
	}
	defer unlock()
	if now, err := d.current(id); err != nil {
		return err
	} else if now != rev {
		return errConflict
	}
	if err := os.Remove(d.path(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("routine store: %w", err)
	}
	return nil
}

// lockDir takes the lock file of a directory, shared by every process on
// the host (and by hosts on an NFS v4 mount, which honours flock).
func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("routine store: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("routine store: lock %s: %w", f.Name(), err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
