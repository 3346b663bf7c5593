package routine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// buckets
	_ "gocloud.dev/blob/gcsblob"  // gs:// buckets
	_ "gocloud.dev/blob/s3blob"   // s3:// buckets (and S3-compatible ones)
	"gocloud.dev/gcerrors"
)

// bucketBackend keeps routines in a bucket every host of a fleet reaches.
// Objects are never overwritten: each version of a routine is a new object
// <id>/<version>.json written only if it does not exist yet, so of two
// hosts that update the same routine at once one writes the next version
// and the other gets errConflict, reads that version and folds its outcome
// into the one after. Readers take the highest version; an empty object is
// a deletion. Versions older than pruneAge are removed, the newest
// keepVersions always kept (docs/design.md §8).
type bucketBackend struct {
	url    string
	bucket *blob.Bucket
	// lockDir is set for file:// buckets, whose "write if it does not
	// exist" is a check then a rename: the store makes it atomic across
	// processes with the directory's lock file.
	lockDir string

	mu sync.Mutex
	// cache holds the routines read, by ID, with the object they came
	// from: objects never change, so a listing that shows the same head
	// needs no read.
	cache map[string]cachedHead
}

type cachedHead struct {
	key string
	r   Routine
}

var _ backend = (*bucketBackend)(nil)

const (
	keepVersions = 3
	// pruneAge is far longer than any update takes (opTimeout), so a
	// version is never removed while a writer may still name the one after
	// it as its next.
	pruneAge = 10 * time.Minute
)

// Schemes are the bucket URL schemes OpenURL opens.
var Schemes = []string{"file", "s3", "gs"}

// OpenURL returns the store in a bucket: file:///shared/routines (a
// directory every host mounts), s3://bucket?region=eu-west-1 (also
// S3-compatible servers, with endpoint=…), gs://bucket. Credentials come
// from the provider's usual environment (AWS_* variables and files, Google
// application default credentials), never from phoneflow's config.
func OpenURL(ctx context.Context, rawURL string) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("routine store %q: %w: write a URL like file:///shared/routines or s3://bucket?region=eu-west-1", rawURL, err)
	}
	b := &bucketBackend{url: rawURL, cache: map[string]cachedHead{}}
	switch u.Scheme {
	case "file":
		if u.Host != "" || !filepath.IsAbs(u.Path) {
			return nil, fmt.Errorf("routine store %q: a file URL needs an absolute path, like file:///shared/routines", rawURL)
		}
		if err := os.MkdirAll(u.Path, 0o755); err != nil {
			return nil, fmt.Errorf("routine store %q: %w", rawURL, err)
		}
		b.lockDir = u.Path
		// No attribute sidecar files: fileblob writes one before its
		// existence check, so a losing writer would overwrite the
		// winner's; a routine needs no attributes.
		q := u.Query()
		q.Set("metadata", "skip")
		u.RawQuery = q.Encode()
	case "s3", "gs":
	default:
		return nil, fmt.Errorf("routine store %q: scheme %q is not one of %s: use a local directory (leave routines_store empty) or one of these", rawURL, u.Scheme, strings.Join(Schemes, ", "))
	}
	if b.bucket, err = blob.OpenBucket(ctx, u.String()); err != nil {
		return nil, fmt.Errorf("routine store %q: %w", rawURL, err)
	}
	return &Store{b: b}, nil
}

func (b *bucketBackend) where() string { return b.url }
func (b *bucketBackend) close() error  { return b.bucket.Close() }

// versionKey names version seq of a routine; seqs are zero-padded so keys
// sort by version.
func versionKey(id string, seq int) string { return fmt.Sprintf("%s/%010d.json", id, seq) }

// parseKey reads <id>/<seq>.json.
func parseKey(key string) (id string, seq int, ok bool) {
	id, rest, ok := strings.Cut(key, "/")
	if !ok || !validID(id) {
		return "", 0, false
	}
	num, ok := strings.CutSuffix(rest, ".json")
	if !ok || len(num) != 10 {
		return "", 0, false
	}
	seq, err := strconv.Atoi(num)
	return id, seq, err == nil && seq > 0
}

type version struct {
	key string
	seq int
	mod time.Time
}

// versions lists the objects under prefix, by routine ID, oldest first.
func (b *bucketBackend) versions(ctx context.Context, prefix string) (map[string][]version, error) {
	out := map[string][]version{}
	it := b.bucket.List(&blob.ListOptions{Prefix: prefix})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("routine store %s: list: %w", b.url, err)
		}
		if id, seq, ok := parseKey(o.Key); ok {
			vs := append(out[id], version{key: o.Key, seq: seq, mod: o.ModTime})
			for i := len(vs) - 1; i > 0 && vs[i].seq < vs[i-1].seq; i-- {
				vs[i], vs[i-1] = vs[i-1], vs[i]
			}
			out[id] = vs
		}
	}
}

// read reads one version; a deletion is ErrNotFound.
func (b *bucketBackend) read(ctx context.Context, id, key string) (Routine, error) {
	b.mu.Lock()
	c, ok := b.cache[id]
	b.mu.Unlock()
	if ok && c.key == key {
		return c.r, nil
	}
	data, err := b.bucket.ReadAll(ctx, key)
	if err != nil {
		return Routine{}, err
	}
	if len(data) == 0 {
		return Routine{}, fmt.Errorf("%w %q in %s (deleted)", ErrNotFound, id, b.url)
	}
	r, err := decodeRoutine(data)
	if err != nil {
		return Routine{}, fmt.Errorf("routine store: %s in %s is not a routine (%v): delete it with `starter routines delete %s`", key, b.url, err, id)
	}
	b.mu.Lock()
	b.cache[id] = cachedHead{key: key, r: r}
	b.mu.Unlock()
	return r, nil
}

func (b *bucketBackend) get(ctx context.Context, id string) (Routine, string, error) {
	// A version may be pruned between the listing and the read (it was
	// not the newest any more): list again.
	for range 3 {
		vs, err := b.versions(ctx, id+"/")
		if err != nil {
			return Routine{}, "", err
		}
		head := vs[id]
		if len(head) == 0 {
			return Routine{}, "", fmt.Errorf("%w %q in %s (see `starter routines list`)", ErrNotFound, id, b.url)
		}
		key := head[len(head)-1].key
		r, err := b.read(ctx, id, key)
		if gcerrors.Code(err) == gcerrors.NotFound {
			continue
		}
		return r, key, err
	}
	return Routine{}, "", fmt.Errorf("routine store %s: %s keeps changing: try again", b.url, id)
}

func (b *bucketBackend) all(ctx context.Context) ([]Routine, []string, error) {
	byID, err := b.versions(ctx, "")
	if err != nil {
		return nil, nil, err
	}
	var out []Routine
	var bad []string
	for id, vs := range byID {
		key := vs[len(vs)-1].key
		r, err := b.read(ctx, id, key)
		if gcerrors.Code(err) == gcerrors.NotFound {
			r, _, err = b.get(ctx, id)
		}
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			bad = append(bad, key)
		default:
			out = append(out, r)
		}
	}
	return out, bad, nil
}

func (b *bucketBackend) put(ctx context.Context, r Routine, rev string) error {
	data, err := encode(r)
	if err != nil {
		return err
	}
	return b.write(ctx, r.ID, rev, data)
}

func (b *bucketBackend) remove(ctx context.Context, id, rev string) error {
	return b.write(ctx, id, rev, nil)
}

// write puts data as the version after rev, only if no other writer put
// that version first.
func (b *bucketBackend) write(ctx context.Context, id, rev string, data []byte) error {
	seq := 1
	if rev != "" {
		_, prev, ok := parseKey(rev)
		if !ok {
			return fmt.Errorf("routine store: bad revision %q", rev)
		}
		seq = prev + 1
	}
	key := versionKey(id, seq)
	if b.lockDir != "" {
		unlock, err := lockDir(b.lockDir)
		if err != nil {
			return err
		}
		defer unlock()
	}
	err := b.bucket.WriteAll(ctx, key, data, &blob.WriterOptions{ContentType: "application/json", IfNotExist: true})
	if gcerrors.Code(err) == gcerrors.FailedPrecondition {
		return errConflict
	}
	if err != nil {
		return fmt.Errorf("routine store %s: write %s: %w", b.url, key, err)
	}
	b.prune(ctx, id, seq)
	return nil
}

// prune removes old versions of a routine; a failure only leaves them.
func (b *bucketBackend) prune(ctx context.Context, id string, head int) {
	vs, err := b.versions(ctx, id+"/")
	if err != nil {
		return
	}
	for _, v := range vs[id] {
		if v.seq <= head-keepVersions && time.Since(v.mod) > pruneAge {
			_ = b.bucket.Delete(ctx, v.key)
		}
	}
}

// Import copies into s the routines of from that s does not have, as
// their first version: a host that moves to a shared store brings the
// routines it learned alone. It returns how many it copied.
func (s *Store) Import(from *Store) (int, error) {
	rs, err := from.List()
	if err != nil && len(rs) == 0 {
		return 0, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	n := 0
	for _, r := range rs {
		if _, _, gerr := s.b.get(ctx, r.ID); !errors.Is(gerr, ErrNotFound) {
			continue
		}
		perr := s.b.put(ctx, r, "")
		switch {
		case errors.Is(perr, errConflict): // another host imported it first
		case perr != nil:
			return n, perr
		default:
			n++
		}
	}
	return n, err
}
