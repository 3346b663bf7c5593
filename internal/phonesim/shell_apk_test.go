package phonesim

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/device/apk"
)

// TestAPKsReadLikeAPhones: `pm path` names each app's APK, `stat -c %s`
// its size and `dd` any range of it, and the APK holds the app's label in
// the languages it ships.
func TestAPKsReadLikeAPhones(t *testing.T) {
	p := New(Config{})
	for _, c := range []struct{ pkg, label, zh string }{
		{pkgSettings, "Settings", "设置"},
		{pkgMessages, "Messages", "信息"},
		{pkgLauncher, "Launcher", "桌面"},
		{"com.android.shell", "Shell", "Shell"},
		{"com.google.android.inputmethod.latin", "Gboard", "Gboard"},
	} {
		path, ok := strings.CutPrefix(strings.TrimSpace(sh(t, p, "pm path "+c.pkg)), "package:")
		if !ok {
			t.Fatalf("pm path %s: no package line", c.pkg)
		}
		size, err := strconv.Atoi(strings.TrimSpace(sh(t, p, "stat -c %s "+path)))
		if err != nil {
			t.Fatalf("stat %s: %v", path, err)
		}
		whole := sh(t, p, "dd if="+path+" bs=4096 skip=0 count=1000 2>/dev/null")
		if len(whole) != size {
			t.Fatalf("dd read %d bytes of %d", len(whole), size)
		}
		if part := sh(t, p, "dd if="+path+" bs=4096 skip=1 count=1 2>/dev/null"); size > 4096 && part != whole[4096:min(size, 8192)] {
			t.Errorf("dd skip=1 count=1 is not the second block")
		}
		for loc, want := range map[string]string{"en-US": c.label, "zh-CN": c.zh} {
			got, err := apk.Label(bytes.NewReader([]byte(whole)), int64(size), loc)
			if err != nil || got != want {
				t.Errorf("%s in %s: label %q, %v; want %q", c.pkg, loc, got, err, want)
			}
		}
	}
	// dd's record counts go to stderr, which the raw shell merges.
	if out := sh(t, p, "dd if="+apkPath(pkgSettings)+" bs=4096 skip=0 count=0"); !strings.Contains(out, "0+0 records in") {
		t.Errorf("dd without 2>/dev/null: %q", out)
	}
	for _, cmd := range []string{"stat -c %s /data/app/com.absent/base.apk", "dd if=/data/app/com.absent/base.apk bs=1 2>&1", "dd bs=x if=/sdcard/Download/readme.txt"} {
		if out := sh(t, p, cmd); !strings.Contains(out, "No such file") && !strings.Contains(out, "invalid number") {
			t.Errorf("%s: %q", cmd, out)
		}
	}
	if got := sh(t, p, "dd if=/sdcard/Download/readme.txt bs=8 skip=1 count=1 2>/dev/null"); got != " virtual" {
		t.Errorf("dd of a stored file: %q", got)
	}
}
