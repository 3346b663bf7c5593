package device

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/device/apk"
)

// labelRefresh is how long a label read from the phone is trusted before
// the app's APK path is checked again (an update moves it).
const labelRefresh = 15 * time.Minute

// Labeler is a phone that can tell the label it shows for an app.
type Labeler interface {
	AppLabel(ctx context.Context, pkg string) string
}

var _ Labeler = (*adbDevice)(nil)

// appLabel is what the phone knows of one app's label.
type appLabel struct {
	label string // "" when it could not be read
	path  string // the APK it was read from
	at    time.Time
}

// AppLabel is the label the phone shows for pkg on its launcher, in the
// phone's language: read from the app's APK (`pm path`, then the APK's
// manifest and resource table over adb, a few kilobytes to a few
// megabytes once per app), kept for labelRefresh and read again only when
// an update moved the APK. It is "" when the phone does not tell (an app
// without a label, a phone whose shell cannot read the APK).
func (d *adbDevice) AppLabel(ctx context.Context, pkg string) string {
	d.mu.Lock()
	l, ok := d.labels[pkg]
	d.mu.Unlock()
	if ok && time.Since(l.at) < labelRefresh {
		return l.label
	}
	path, err := d.apkPath(ctx, pkg)
	if err == nil && ok && l.path == path && l.label != "" {
		l.at = time.Now()
	} else if err == nil {
		l = appLabel{path: path, at: time.Now()}
		l.label, err = d.readLabel(ctx, path)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ""
		}
		d.log.Debug("app label unknown", "package", pkg, "err", err)
		l = appLabel{at: time.Now()}
	}
	d.mu.Lock()
	if d.labels == nil {
		d.labels = map[string]appLabel{}
	}
	d.labels[pkg] = l
	d.mu.Unlock()
	return l.label
}

// apkPath is the base APK of pkg, from `pm path`.
func (d *adbDevice) apkPath(ctx context.Context, pkg string) (string, error) {
	out, err := d.shell(ctx, "pm path "+adb.Quote(pkg))
	if err != nil {
		return "", err
	}
	var first string
	for line := range strings.Lines(out) {
		p, ok := strings.CutPrefix(strings.TrimSpace(line), "package:")
		if !ok || !strings.HasPrefix(p, "/") {
			continue
		}
		if strings.HasSuffix(p, "/base.apk") {
			return p, nil
		}
		if first == "" {
			first = p
		}
	}
	if first == "" {
		return "", fmt.Errorf("pm path %s: no APK in %q", pkg, clip(out))
	}
	return first, nil
}

// readLabel reads the launcher label out of the APK at path.
func (d *adbDevice) readLabel(ctx context.Context, path string) (string, error) {
	out, err := d.shell(ctx, "stat -c %s "+adb.Quote(path))
	if err != nil {
		return "", err
	}
	size, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
	if err != nil || size <= 0 {
		return "", fmt.Errorf("stat %s: %q", path, clip(out))
	}
	return apk.Label(&phoneFile{ctx: ctx, d: d, path: path, size: size}, size, d.locale(ctx))
}

// locale is the phone's language as a BCP 47 tag ("zh-CN"), read once.
func (d *adbDevice) locale(ctx context.Context) string {
	d.mu.Lock()
	loc, known := d.loc, d.locKnown
	d.mu.Unlock()
	if known {
		return loc
	}
	out, err := d.shell(ctx, "getprop persist.sys.locale; getprop ro.product.locale")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(out) {
		if loc = strings.TrimSpace(line); loc != "" {
			break
		}
	}
	d.mu.Lock()
	d.loc, d.locKnown = loc, true
	d.mu.Unlock()
	return loc
}

// phoneFile reads a file on the phone at any offset: each miss fetches a
// range of it with one `dd` over adb's binary-safe exec service, and the
// ranges fetched are kept while the file is read.
type phoneFile struct {
	ctx     context.Context
	d       *adbDevice
	path    string
	size    int64
	spans   []span
	fetched int64
}

type span struct {
	off  int64
	data []byte
}

// Fetch sizes: a miss takes at least minFetch (a zip's directory at its
// end in one or two), and no APK costs more than maxFetch.
const (
	fetchBlock = 4096
	minFetch   = 256 << 10
	maxFetch   = 128 << 20
)

var errFetchLimit = errors.New("device: an APK read past its limit")

// Prefetch fetches [off, off+n) unless it is already here.
func (f *phoneFile) Prefetch(off, n int64) error {
	if f.find(off, n) != nil {
		return nil
	}
	return f.fetch(off, n)
}

func (f *phoneFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= f.size {
		return 0, fmt.Errorf("device: read at %d of %s (%d bytes)", off, f.path, f.size)
	}
	n := min(int64(len(p)), f.size-off)
	b := f.find(off, n)
	if b == nil {
		if err := f.fetch(off, max(n, minFetch)); err != nil {
			return 0, err
		}
		if b = f.find(off, n); b == nil {
			return 0, fmt.Errorf("device: %s: short read at %d", f.path, off)
		}
	}
	copy(p, b)
	if n < int64(len(p)) {
		return int(n), io.EOF
	}
	return int(n), nil
}

// find is the bytes [off, off+n) when one fetched span holds them.
func (f *phoneFile) find(off, n int64) []byte {
	for _, s := range f.spans {
		if off >= s.off && off+n <= s.off+int64(len(s.data)) {
			return s.data[off-s.off : off-s.off+n]
		}
	}
	return nil
}

func (f *phoneFile) fetch(off, n int64) error {
	end := min(off+n, f.size)
	first, last := off/fetchBlock, (end+fetchBlock-1)/fetchBlock
	if f.fetched+(last-first)*fetchBlock > maxFetch {
		return errFetchLimit
	}
	cmd := fmt.Sprintf("dd if=%s bs=%d skip=%d count=%d 2>/dev/null", adb.Quote(f.path), fetchBlock, first, last-first)
	out, err := f.d.c.Exec(f.ctx, f.d.serial, cmd)
	if err != nil {
		return fmt.Errorf("device %s: %s: %w", f.d.serial, cmd, err)
	}
	if int64(len(out)) < end-first*fetchBlock {
		return fmt.Errorf("device %s: %s gave %d bytes, want %d", f.d.serial, cmd, len(out), end-first*fetchBlock)
	}
	f.fetched += int64(len(out))
	f.spans = append(f.spans, span{off: first * fetchBlock, data: out})
	return nil
}
