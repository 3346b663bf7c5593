package apk

import (
	"archive/zip"

	"fmt"
	"io"
	"strings"
)

// Prefetcher is a reader that can fetch a range in one go before it is
// read in small pieces (a file read over adb, one round trip per fetch).
type Prefetcher interface {
	Prefetch(off, n int64) error
}

// Largest entries read: a manifest is kilobytes, a big app's resource
// table tens of megabytes.
const (
	maxManifest = 8 << 20
	maxTable    = 96 << 20
)

// Label is the label the launcher shows for the app in the APK r (size
// bytes): its first launcher activity's label, else its application's,
// resolved for locale (a BCP 47 tag such as "zh-CN" or "en-US"; "" takes
// the default strings). An app without a label is an error.
func Label(r io.ReaderAt, size int64, locale string) (string, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return "", fmt.Errorf("apk: %w", err)
	}
	mb, err := readEntry(zr, r, "AndroidManifest.xml", maxManifest)
	if err != nil {
		return "", err
	}
	m, err := readManifest(mb)
	if err != nil {
		return "", err
	}
	v := m.label
	for _, c := range m.components {
		if c.launcher {
			if !c.label.empty() {
				v = c.label
			}
			break
		}
	}
	switch {
	case v.str != "":
		return v.str, nil
	case v.ref == 0:
		return "", fmt.Errorf("apk: %s has no label", m.pkg)
	}
	tb, err := readEntry(zr, r, "resources.arsc", maxTable)
	if err != nil {
		return "", err
	}
	t, err := readTable(tb)
	if err != nil {
		return "", err
	}
	lang, region := splitLocale(locale)
	label, err := t.resolve(v.ref, lang, region)
	if err == nil && strings.TrimSpace(label) == "" {
		err = fmt.Errorf("apk: %s has an empty label", m.pkg)
	}
	return strings.TrimSpace(label), err
}

// readEntry reads a file of the APK, fetching its bytes in one go when r
// can.
func readEntry(zr *zip.Reader, r io.ReaderAt, name string, limit int64) ([]byte, error) {
	for _, f := range zr.File {
		if f.Name != name {
			continue
		}
		if f.UncompressedSize64 > uint64(limit) {
			return nil, fmt.Errorf("apk: %s is %d bytes, more than the %d read", name, f.UncompressedSize64, limit)
		}
		if p, ok := r.(Prefetcher); ok {
			if off, err := f.DataOffset(); err == nil {
				if err := p.Prefetch(off, int64(f.CompressedSize64)); err != nil {
					return nil, err
				}
			}
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("apk: %s: %w", name, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, limit))
		if err != nil {
			return nil, fmt.Errorf("apk: %s: %w", name, err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("apk: no %s", name)
}

// splitLocale splits a BCP 47 tag (or Android's zh_CN) into its language
// and region: "zh-Hans-CN" is zh, CN.
func splitLocale(tag string) (lang, region string) {
	parts := strings.FieldsFunc(tag, func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) == 0 {
		return "", ""
	}
	lang = strings.ToLower(parts[0])
	for _, p := range parts[1:] {
		if len(p) == 2 {
			region = strings.ToUpper(p)
		}
	}
	return lang, region
}
