package phonesim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/device/apk"
)

// otherLabels are the labels of the installed packages without a
// simulated UI, as their APKs name them.
var otherLabels = map[string]string{
	"android": "Android System", "com.android.systemui": "System UI", "com.android.phone": "Phone Services",
	"com.android.shell": "Shell", "com.google.android.inputmethod.latin": "Gboard",
	"com.android.providers.settings": "Settings Storage", "com.android.adbkeyboard": "ADB Keyboard",
}

// zhLabels are the Chinese translations the simulated apps ship.
var zhLabels = map[string]string{
	pkgSettings: "设置", pkgContacts: "通讯录", pkgMessages: "信息", pkgClock: "时钟", pkgNotes: "笔记", pkgBank: "银行",
	pkgLauncher: "桌面",
}

// apkPath is where `pm path` says a package's APK is.
func apkPath(pkg string) string { return "/data/app/" + pkg + "/base.apk" }

// apkFile is the APK of an installed package at name, built on first use:
// a manifest and a resource table holding the app's label, which is what
// a label reader takes from a real one.
func (p *Phone) apkFile(name string) ([]byte, bool) {
	pkg, ok := strings.CutPrefix(name, "/data/app/")
	if pkg, ok = strings.CutSuffix(pkg, "/base.apk"); !ok || strings.Contains(pkg, "/") {
		return nil, false
	}
	var app *appInfo
	for _, a := range p.packages() {
		if a.Package == pkg {
			app = &a
			break
		}
	}
	if app == nil {
		return nil, false
	}
	p.apkMu.Lock()
	defer p.apkMu.Unlock()
	if b, ok := p.apks[pkg]; ok {
		return b, true
	}
	labels := map[string]string{"": app.Name}
	if labels[""] == "" {
		labels[""] = otherLabels[pkg]
	}
	if labels[""] == "" {
		labels[""] = pkg
	}
	id, _ := p.resolvePkg(pkg)
	if zh := zhLabels[id]; zh != "" {
		labels["zh"] = zh
	}
	act := ""
	if app.Launcher || id == pkgLauncher {
		act = app.Activity
	}
	b, err := apk.Build(apk.App{Package: pkg, Activity: act, Labels: labels})
	if err != nil {
		return nil, false
	}
	if p.apks == nil {
		p.apks = map[string][]byte{}
	}
	p.apks[pkg] = b
	return b, true
}

// readable is the content of a file the shell may read: the virtual
// filesystem's, or an app's APK.
func (p *Phone) readable(name string) ([]byte, bool) {
	if b, ok := p.apkFile(name); ok {
		return b, true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f, ok := p.lookup(name)
	if !ok || f.isDir() {
		return nil, false
	}
	return f.data, true
}

// cmdStat answers `stat -c FORMAT FILE...` for %s (size) and %n (name),
// as toybox does; without -c it prints the size line of the full form.
func (p *Phone) cmdStat(e *cmdEnv) int {
	format, files := "", []string{}
	for i := 1; i < len(e.args); i++ {
		switch {
		case e.args[i] == "-c" && i+1 < len(e.args):
			format = e.args[i+1]
			i++
		case strings.HasPrefix(e.args[i], "-"):
		default:
			files = append(files, e.args[i])
		}
	}
	status := 0
	for _, name := range files {
		b, ok := p.readable(name)
		if !ok {
			e.err("stat: '%s': No such file or directory\n", name)
			status = 1
			continue
		}
		if format == "" {
			e.out("  File: %s\n  Size: %d\n", name, len(b))
			continue
		}
		r := strings.NewReplacer("%s", strconv.Itoa(len(b)), "%n", name, "%%", "%")
		e.out("%s\n", r.Replace(format))
	}
	return status
}

// cmdDd answers `dd if=FILE bs=N skip=N count=N` to stdout, with toybox's
// record counts on stderr.
func (p *Phone) cmdDd(e *cmdEnv) int {
	var in string
	bs, skip, count := 512, 0, -1
	for _, a := range e.args[1:] {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			e.err("dd: unknown argument '%s'\n", a)
			return 1
		}
		n, err := strconv.Atoi(v)
		switch {
		case k == "if":
			in = v
		case k == "status" || k == "iflag" || k == "oflag":
		case err != nil || n < 0:
			e.err("dd: invalid number '%s'\n", v)
			return 1
		case k == "bs" || k == "ibs":
			bs = max(n, 1)
		case k == "skip":
			skip = n
		case k == "count":
			count = n
		default:
			e.err("dd: unknown argument '%s'\n", a)
			return 1
		}
	}
	if in == "" {
		e.err("dd: reading stdin is not supported\n")
		return 1
	}
	b, ok := p.readable(in)
	if !ok {
		e.err("dd: %s: No such file or directory\n", in)
		return 1
	}
	start := min(int64(skip)*int64(bs), int64(len(b)))
	end := int64(len(b))
	if count >= 0 {
		end = min(end, start+int64(count)*int64(bs))
	}
	e.stdout.Write(b[start:end])
	n := end - start
	recs := fmt.Sprintf("%d+%d records", n/int64(bs), min(n%int64(bs), 1))
	e.err("%s in\n%s out\n%d bytes (%d B) copied\n", recs, recs, n, n)
	return 0
}
