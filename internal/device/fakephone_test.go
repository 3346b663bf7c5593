package device

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adb/adbtest"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// fakePhone is a scripted phone behind the fake ADB server: enough Android
// behaviour to check what the driver sends and how it reads the replies.
type fakePhone struct {
	// cutInputs ends the stream of the next input commands before they
	// run, as a connection cut off does.
	cutInputs int
	mu        sync.Mutex
	frame     int // changes the screen image
	inputs    []string
	commands  []string
	installed []string
	focus     string
	ime       string
	enabled   []string
	text      string
	awake     bool
	secure    string // "", "empty", "status", "black", "noise-then-ok"
	pngCalls  int
	noRaw     bool
	noTTY     bool
	// notIdle makes every dump find no idle state, as on a screen that
	// keeps animating.
	notIdle bool
	// changeAfterProbes, when > 0, makes every screen capture change the
	// frame until that many captures have been taken after an input.
	changeAfterProbes int
	probesSinceInput  int
	// delayed makes the screen change this long after an input, as a slow
	// app would.
	delayed    time.Duration
	delayUntil time.Time
	override   string // extra wm size line
	// imeReply answers every `ime` command, as a phone that refuses them
	// all does; imeReplies answer the ime commands starting with a key.
	imeReply   string
	imeReplies map[string]string
	props      map[string]string // getprop answers
	apks       map[string][]byte // APKs by package, at /data/app/PKG-1/base.apk
}

func newFakePhone() *fakePhone {
	return &fakePhone{
		installed: []string{"com.android.settings", "com.android.launcher3", "com.android.contacts",
			"com.google.android.apps.messaging", "com.google.android.deskclock", "com.example.notes",
			"com.example.bank", "com.tencent.mm", "com.android.adbkeyboard"},
		focus:   "com.android.launcher3/.Launcher",
		ime:     "com.android.inputmethod.latin/.LatinIME",
		enabled: []string{"com.android.inputmethod.latin/.LatinIME"},
		awake:   true,
	}
}

func (f *fakePhone) image(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	c := color.RGBA{uint8(40 + f.frame*37), uint8(200 - f.frame*13), 90, 255}
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	return img
}

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func (f *fakePhone) tick() {
	if f.delayed > 0 && !f.delayUntil.IsZero() && time.Now().After(f.delayUntil) {
		f.frame++
		f.delayUntil = time.Time{}
	}
}

func (f *fakePhone) changed() {
	f.probesSinceInput = 0
	if f.delayed > 0 {
		f.delayUntil = time.Now().Add(f.delayed)
		return
	}
	f.frame++
}

func (f *fakePhone) probed() {
	f.probesSinceInput++
	if f.probesSinceInput <= f.changeAfterProbes {
		f.frame++
	}
}

func (f *fakePhone) shell(serial, cmd string, exec bool) []byte {
	if c, ok := strings.CutSuffix(cmd, "; echo "+inputDone); ok {
		// The driver's end marker after an input: echo runs after it.
		f.mu.Lock()
		cut := f.cutInputs > 0
		if cut {
			f.cutInputs--
		}
		f.mu.Unlock()
		if cut {
			return nil
		}
		return append(f.shell(serial, c, exec), inputDone+"\n"...)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tick()
	f.commands = append(f.commands, cmd)
	if strings.HasPrefix(cmd, "getprop ") {
		var b strings.Builder
		for _, c := range strings.Split(cmd, "; ") {
			b.WriteString(f.props[strings.TrimPrefix(c, "getprop ")] + "\n")
		}
		return []byte(b.String())
	}
	if strings.HasPrefix(cmd, "ime ") {
		if f.imeReply != "" {
			return []byte(f.imeReply)
		}
		for k, v := range f.imeReplies {
			if strings.HasPrefix(cmd, k) {
				return []byte(v)
			}
		}
	}
	args := strings.Fields(cmd)
	switch {
	case cmd == "screencap -p":
		f.pngCalls++
		f.probed()
		switch f.secure {
		case "empty":
			return nil
		case "status":
			return []byte("Status: -1\n")
		case "black":
			return encodePNG(image.NewRGBA(image.Rect(0, 0, 108, 240)))
		case "noise-then-ok":
			if f.pngCalls == 1 {
				return []byte("garbage")
			}
			return append([]byte("WARNING: linker: unused DT entry\n"), encodePNG(f.image(108, 240))...)
		}
		return encodePNG(f.image(108, 240))
	case cmd == "screencap":
		if f.noRaw {
			return []byte("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
		}
		f.probed()
		if f.secure != "" {
			return nil
		}
		w, h := 10, 20
		out := make([]byte, 12, 12+w*h*4)
		binary.LittleEndian.PutUint32(out[0:], uint32(w))
		binary.LittleEndian.PutUint32(out[4:], uint32(h))
		binary.LittleEndian.PutUint32(out[8:], 1)
		return append(out, f.image(w, h).(*image.RGBA).Pix...)
	case len(args) == 3 && args[0] == "pm" && args[1] == "path":
		if _, ok := f.apks[args[2]]; ok {
			return []byte("package:/data/app/" + args[2] + "-1/base.apk\n")
		}
		return nil
	case len(args) == 4 && args[0] == "stat":
		if b, ok := f.apkAt(args[3]); ok {
			return []byte(fmt.Sprintf("%d\n", len(b)))
		}
		return []byte("stat: '" + args[3] + "': No such file or directory\n")
	case exec && args[0] == "dd":
		var in string
		var bs, skip, count int
		for _, a := range args[1:] {
			k, v, _ := strings.Cut(a, "=")
			n, _ := strconv.Atoi(v)
			switch k {
			case "if":
				in = v
			case "bs":
				bs = n
			case "skip":
				skip = n
			case "count":
				count = n
			}
		}
		b, ok := f.apkAt(in)
		if !ok || bs <= 0 {
			return nil
		}
		start := min(skip*bs, len(b))
		return b[start:min(len(b), start+count*bs)]
	case cmd == "wm size":
		return []byte("Physical size: 1080x2400\n" + f.override)
	case strings.HasPrefix(cmd, "input "):
		f.inputs = append(f.inputs, cmd)
		if cmd == "input keyevent KEYCODE_WAKEUP" {
			f.awake = true
		}
		if cmd == "input keyevent KEYCODE_HOME" {
			f.focus = "com.android.launcher3/.Launcher"
		}
		if len(args) < 3 {
			return []byte("Error: Unknown command: " + cmd + "\n")
		}
		f.changed()
		return nil
	case cmd == "dumpsys power":
		if f.awake {
			return []byte("POWER MANAGER\n  mWakefulness=Awake\n")
		}
		return []byte("POWER MANAGER\n  mWakefulness=Asleep\n")
	case cmd == "dumpsys window":
		return []byte("WINDOW MANAGER WINDOWS\n  mCurrentFocus=Window{42ab u0 " + f.focus + "}\n  mFocusedApp=ActivityRecord{1 u0 " + f.focus + " t3}\n")
	case strings.HasPrefix(cmd, "pm list packages"):
		var b strings.Builder
		for _, p := range f.installed {
			if len(args) < 4 || strings.Contains(p, args[3]) {
				b.WriteString("package:" + p + "\n")
			}
		}
		return []byte(b.String())
	case args[0] == "monkey":
		pkg := strings.Trim(args[2], "'")
		if !slices.Contains(f.installed, pkg) || pkg == "com.android.adbkeyboard" {
			return []byte("  bash arg: -p\n** No activities found to run, monkey aborted.\n")
		}
		f.focus = pkg + "/.Main"
		f.changed()
		return []byte("Events injected: 1\n## Network stats: elapsed time=5ms\n")
	case cmd == "settings get secure default_input_method":
		return []byte(f.ime + "\n")
	case cmd == "ime list -s":
		return []byte(strings.Join(f.enabled, "\n") + "\n")
	case len(args) == 3 && args[0] == "ime" && args[1] == "enable":
		if !slices.Contains(f.installed, "com.android.adbkeyboard") {
			return []byte("Unknown input method " + args[2] + " cannot be enabled for user #0\n")
		}
		f.enabled = append(f.enabled, args[2])
		return []byte("Input method " + args[2] + ": now enabled for user #0\n")
	case len(args) == 3 && args[0] == "ime" && args[1] == "set":
		id := strings.Trim(args[2], "'")
		if !slices.Contains(f.enabled, id) {
			return []byte("Unknown input method " + id + " cannot be selected for user #0\n")
		}
		f.ime = id
		return []byte("Input method " + id + " selected for user #0\n")
	case cmd == "am broadcast -a ADB_CLEAR_TEXT":
		if f.ime == AdbIME {
			f.text = ""
			f.changed()
		}
		return []byte("Broadcasting: Intent { act=ADB_CLEAR_TEXT flg=0x400000 }\nBroadcast completed: result=0\n")
	case strings.HasPrefix(cmd, "am broadcast -a ADB_INPUT_B64 --es msg "):
		b, err := base64.StdEncoding.DecodeString(strings.Trim(args[len(args)-1], "'"))
		if err != nil {
			return []byte("Error: bad base64\n")
		}
		if f.ime == AdbIME {
			f.text += string(b)
			f.changed()
		}
		return []byte("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n")
	case f.notIdle && strings.Contains(cmd, "uiautomator dump"):
		return []byte("ERROR: could not get idle state.\n")
	case cmd == "uiautomator dump /dev/tty":
		if f.noTTY {
			return nil // a phone that writes nothing to /dev/tty
		}
		var b bytes.Buffer
		_ = uitree.WriteXML(&b, 0, f.tree())
		b.WriteString("UI hierchary dumped to: /dev/tty\n")
		return b.Bytes()
	}
	return []byte("/system/bin/sh: " + args[0] + ": inaccessible or not found\n")
}

func (f *fakePhone) tree() []uitree.Element {
	return []uitree.Element{
		{Class: "android.widget.FrameLayout", Package: "com.android.settings", Bounds: uitree.Bounds{X2: 1080, Y2: 2400}, Enabled: true},
		{Class: "android.widget.Switch", Package: "com.android.settings", Text: "Wi-Fi", ResourceID: "com.android.settings:id/wifi_switch",
			Bounds: uitree.Bounds{X1: 0, Y1: 200, X2: 1080, Y2: 320}, Clickable: true, Checkable: true, Checked: f.frame%2 == 1, Enabled: true, Depth: 1},
	}
}

func (f *fakePhone) snapshot() (inputs, commands []string, text, ime, focus string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.inputs), slices.Clone(f.commands), f.text, f.ime, f.focus
}

// apkAt is the APK at path.
func (f *fakePhone) apkAt(path string) ([]byte, bool) {
	pkg, ok := strings.CutPrefix(path, "/data/app/")
	pkg, ok2 := strings.CutSuffix(pkg, "-1/base.apk")
	b, found := f.apks[pkg]
	return b, ok && ok2 && found
}

func (f *fakePhone) set(fn func(f *fakePhone)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

const serial = "emulator-5554"

// setup starts a fake ADB server with one fake phone.
func setup(t *testing.T, o Options) (*fakePhone, *adbtest.Server, *adbDevice) {
	t.Helper()
	s, err := adbtest.New(adbtest.Device{Serial: serial, State: "device", Model: "Pixel_7", Product: "panther", Device: "panther", TransportID: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	f := newFakePhone()
	s.SetShell(f.shell)
	if o.Settle.Mode == "" {
		o.Settle = SettlePolicy{Mode: SettleWait, Interval: 5 * time.Millisecond, Max: 2 * time.Second}
	}
	return f, s, New(adb.New(adb.Config{Addr: s.Addr}), serial, o).(*adbDevice)
}

func tctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

var _ = fmt.Sprint
