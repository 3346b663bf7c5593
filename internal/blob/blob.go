package blob

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
	"time"
)

// Store keeps blobs by content reference. Put is idempotent: the same bytes
// always yield the same reference.
type Store interface {
	Put(ctx context.Context, data []byte, contentType string) (ref string, err error)
	Get(ctx context.Context, ref string) ([]byte, error)
}

// RefPrefix starts every reference produced by this package.
const RefPrefix = "sha256:"

// ErrNotFound is wrapped by Get and Stat when a reference has no blob.
var ErrNotFound = errors.New("blob not found")

// ErrBadRef is wrapped when a reference is not of the form "sha256:<64 hex>".
var ErrBadRef = errors.New("malformed blob reference")

// Ref returns the reference of data without storing it.
func Ref(data []byte) string {
	sum := sha256.Sum256(data)
	return RefPrefix + hex.EncodeToString(sum[:])
}

// ParseRef checks ref and returns its lowercase hex digest.
func ParseRef(ref string) (string, error) {
	h, ok := strings.CutPrefix(ref, RefPrefix)
	if !ok || len(h) != sha256.Size*2 {
		return "", fmt.Errorf("%w %q: want %s followed by 64 hex digits", ErrBadRef, ref, RefPrefix)
	}
	h = strings.ToLower(h)
	if _, err := hex.DecodeString(h); err != nil {
		return "", fmt.Errorf("%w %q: want %s followed by 64 hex digits", ErrBadRef, ref, RefPrefix)
	}
	return h, nil
}

// FS is a Store backed by a directory: blob "sha256:abcd…" lives at
// <dir>/ab/cd/abcd…. The content type is not stored; callers keep it next
// to the reference if they need it.
type FS struct {
	dir string
}

var _ Store = (*FS)(nil)

// NewFS returns a store rooted at dir, creating it if needed.
func NewFS(dir string) (*FS, error) {
	if dir == "" {
		return nil, errors.New("blob: empty directory: set the blob store directory in the config")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("blob: resolve %q: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("blob: create store directory %s: %w (check permissions or choose another directory)", abs, err)
	}
	return &FS{dir: abs}, nil
}

// Dir returns the store's root directory.
func (s *FS) Dir() string { return s.dir }

func (s *FS) path(hexsum string) string {
	return filepath.Join(s.dir, hexsum[0:2], hexsum[2:4], hexsum)
}

// Put stores data and returns its reference. Storing bytes that are
// already present only refreshes the file's modification time, which GC
// uses as "last used".
func (s *FS) Put(ctx context.Context, data []byte, contentType string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	ref := Ref(data)
	hexsum := ref[len(RefPrefix):]
	final := s.path(hexsum)
	if fi, err := os.Stat(final); err == nil && fi.Size() == int64(len(data)) {
		now := time.Now()
		_ = os.Chtimes(final, now, now) // best effort: only affects GC age
		return ref, nil
	}
	shard := filepath.Dir(final)
	if err := os.MkdirAll(shard, 0o755); err != nil {
		return "", fmt.Errorf("blob: create %s: %w", shard, err)
	}
	tmp, err := os.CreateTemp(shard, ".tmp-"+hexsum[:8]+"-*")
	if err != nil {
		return "", fmt.Errorf("blob: write %s: %w", ref, err)
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = os.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return "", fmt.Errorf("blob: write %s: %w", ref, err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return "", fmt.Errorf("blob: sync %s: %w", ref, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("blob: close %s: %w", ref, err)
	}
	if err := os.Chmod(tmpName, 0o644); err != nil {
		return "", fmt.Errorf("blob: chmod %s: %w", ref, err)
	}
	// Rename is atomic on one filesystem: a reader sees either no file or
	// the whole blob, and concurrent writers of the same bytes converge.
	if err := os.Rename(tmpName, final); err != nil {
		return "", fmt.Errorf("blob: commit %s: %w", ref, err)
	}
	ok = true
	return ref, nil
}

// Get returns the bytes of ref, verifying them against the digest.
func (s *FS) Get(ctx context.Context, ref string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	hexsum, err := ParseRef(ref)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.path(hexsum))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s in %s (was it garbage-collected, or does this worker use a different blob directory?)", ErrNotFound, ref, s.dir)
	}
	if err != nil {
		return nil, fmt.Errorf("blob: read %s: %w", ref, err)
	}
	if Ref(data) != RefPrefix+hexsum {
		return nil, fmt.Errorf("blob: %s in %s is corrupt (content digest differs): delete the file and re-create the blob", ref, s.dir)
	}
	return data, nil
}

// Info describes a stored blob.
type Info struct {
	Ref     string
	Size    int64
	ModTime time.Time
}

// Stat returns the size and last-use time of ref without reading it.
func (s *FS) Stat(ctx context.Context, ref string) (Info, error) {
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	hexsum, err := ParseRef(ref)
	if err != nil {
		return Info{}, err
	}
	fi, err := os.Stat(s.path(hexsum))
	if errors.Is(err, fs.ErrNotExist) {
		return Info{}, fmt.Errorf("%w: %s in %s", ErrNotFound, ref, s.dir)
	}
	if err != nil {
		return Info{}, fmt.Errorf("blob: stat %s: %w", ref, err)
	}
	return Info{Ref: RefPrefix + hexsum, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// Size returns the stored size of ref in bytes.
func (s *FS) Size(ctx context.Context, ref string) (int64, error) {
	info, err := s.Stat(ctx, ref)
	return info.Size, err
}

// GCStats reports what a GC pass did.
type GCStats struct {
	Removed      int
	RemovedBytes int64
	Kept         int
	KeptBytes    int64
}

// GC removes blobs last written or re-Put before now-olderThan, and stale
// temporary files left by crashed writers. A blob Put during GC may be
// removed if its previous copy was old; callers that need a blob to
// survive GC should Put it again shortly before use.
func (s *FS) GC(ctx context.Context, olderThan time.Duration) (GCStats, error) {
	return s.Collect(ctx, time.Now().Add(-olderThan), nil)
}

// Collect removes blobs last written or re-Put before cutoff, except those
// keep reports true for (nil keeps none), and temporary files older than
// cutoff. Kept counts every blob left in place.
func (s *FS) Collect(ctx context.Context, cutoff time.Time, keep func(ref string) bool) (GCStats, error) {
	var st GCStats
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		isTmp := strings.HasPrefix(d.Name(), ".tmp-")
		_, refErr := ParseRef(RefPrefix + d.Name())
		if !isTmp && refErr != nil {
			return nil // not ours: leave it alone
		}
		if fi.ModTime().After(cutoff) || (!isTmp && keep != nil && keep(RefPrefix+d.Name())) {
			if !isTmp {
				st.Kept++
				st.KeptBytes += fi.Size()
			}
			return nil
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		if !isTmp {
			st.Removed++
			st.RemovedBytes += fi.Size()
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("blob: gc %s: %w", s.dir, err)
	}
	return st, nil
}
