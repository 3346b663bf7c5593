package phonesim

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// cmdEnv is what a shell command sees: its arguments, its stdin, and
// stdout/stderr buffers. It returns an exit status.
type cmdEnv struct {
	args   []string
	stdin  []byte
	stdout *bytes.Buffer
	stderr *bytes.Buffer
	sh     *shellState
}

// shellState is what one shell process keeps between its commands.
type shellState struct {
	umask uint32 // adbd starts the shell with 0000
}

func (e *cmdEnv) out(format string, a ...any) { fmt.Fprintf(e.stdout, format, a...) }
func (e *cmdEnv) err(format string, a ...any) { fmt.Fprintf(e.stderr, format, a...) }

type command func(p *Phone, e *cmdEnv) int

var commands map[string]command

func init() {
	commands = map[string]command{
		"input": (*Phone).cmdInput, "am": (*Phone).cmdAm, "ime": (*Phone).cmdIme,
		"settings": (*Phone).cmdSettings, "monkey": (*Phone).cmdMonkey, "dumpsys": (*Phone).cmdDumpsys,
		"wm": (*Phone).cmdWm, "pm": (*Phone).cmdPm, "uiautomator": (*Phone).cmdUiautomator,
		"screencap": (*Phone).cmdScreencap, "getprop": (*Phone).cmdGetprop, "simctl": (*Phone).cmdSimctl,
		"echo": cmdEcho, "ls": (*Phone).cmdLs, "cat": (*Phone).cmdCat, "mkdir": (*Phone).cmdMkdir,
		"rm": (*Phone).cmdRm, "touch": (*Phone).cmdTouch, "grep": cmdGrep, "head": cmdHead,
		"true":   func(*Phone, *cmdEnv) int { return 0 },
		"false":  func(*Phone, *cmdEnv) int { return 1 },
		"pwd":    func(_ *Phone, e *cmdEnv) int { e.out("/\n"); return 0 },
		"whoami": func(_ *Phone, e *cmdEnv) int { e.out("shell\n"); return 0 },
		"id": func(_ *Phone, e *cmdEnv) int {
			e.out("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1015(sdcard_rw) context=u:r:shell:s0\n")
			return 0
		},
		"sleep": cmdSleep,
		"exit":  func(*Phone, *cmdEnv) int { return 0 },
		"sh":    (*Phone).cmdSh,
		"umask": cmdUmask, "printf": cmdPrintf, "mv": (*Phone).cmdMv, "find": (*Phone).cmdFind,
	}
}

// runShell runs one shell line, writing stdout and stderr (merged, as the
// raw shell protocol does) to out.
func (p *Phone) runShell(line string, _ io.Reader, out io.Writer) {
	p.runShellWith(&shellState{}, line, out)
}

// runShellWith runs a shell line in a shell process whose state is sh.
func (p *Phone) runShellWith(sh *shellState, line string, out io.Writer) {
	pls, err := parseLine(line)
	if err != nil {
		fmt.Fprintf(out, "/system/bin/sh: %v\n", err)
		return
	}
	status := 0
	for _, pl := range pls {
		if (pl.op == "&&" && status != 0) || (pl.op == "||" && status == 0) {
			continue
		}
		var stdin []byte
		for i, c := range pl.cmds {
			e := &cmdEnv{args: c.args, stdin: stdin, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, sh: sh}
			if c.errToOut {
				e.stderr = e.stdout
			}
			status = p.exec(e)
			if !c.errNull && !c.errToOut {
				_, _ = out.Write(e.stderr.Bytes())
			}
			switch {
			case c.outFile != "":
				if c.outFile != "/dev/null" {
					p.mu.Lock()
					data := e.stdout.Bytes()
					f, ok := p.lookup(c.outFile)
					if ok && c.appendOut && !f.isDir() {
						data = append(bytes.Clone(f.data), data...)
					}
					mode := 0o666 &^ sh.umask
					if ok {
						mode = f.mode & 0o777 // an existing file keeps its mode
					}
					if err := p.createFile(c.outFile, bytes.Clone(data), mode); err != nil {
						fmt.Fprintf(out, "/system/bin/sh: can't create %s: %v\n", c.outFile, err)
						status = 1
					}
					p.mu.Unlock()
				}
				stdin = nil
			case i < len(pl.cmds)-1:
				stdin = e.stdout.Bytes()
			default:
				if _, err := out.Write(e.stdout.Bytes()); err != nil {
					return
				}
			}
		}
	}
}

func (p *Phone) exec(e *cmdEnv) int {
	name := e.args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 && (strings.HasPrefix(name, "/system/bin/") || strings.HasPrefix(name, "/bin/")) {
		name = name[i+1:]
	}
	c, ok := commands[name]
	if !ok {
		e.err("/system/bin/sh: %s: inaccessible or not found\n", e.args[0])
		return 127
	}
	return c(p, e)
}

// cmdSh runs `sh -c LINE`; other forms are refused.
func (p *Phone) cmdSh(e *cmdEnv) int {
	if len(e.args) < 3 || e.args[1] != "-c" {
		e.err("/system/bin/sh: only `sh -c COMMAND` is supported here\n")
		return 2
	}
	// A child shell inherits the umask.
	p.runShellWith(&shellState{umask: e.sh.umask}, e.args[2], e.stdout)
	return 0
}

// ---- input ----

var inputSources = map[string]bool{"touchscreen": true, "keyboard": true, "mouse": true, "touchpad": true,
	"stylus": true, "trackball": true, "dpad": true, "gamepad": true, "joystick": true, "touchnavigation": true}

const inputUsage = `Usage: input [<source>] <command> [<arg>...]
The commands and default sources are:
      text <string> (Default: touchscreen)
      keyevent [--longpress] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
`

func atoiArgs(ss []string) ([]int, error) {
	out := make([]int, len(ss))
	for i, s := range ss {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("Error: invalid number %q", s)
		}
		out[i] = int(f)
	}
	return out, nil
}

func (p *Phone) cmdInput(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) > 0 && inputSources[args[0]] {
		args = args[1:]
	}
	if len(args) == 0 {
		e.err("%s", inputUsage)
		return 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch args[0] {
	case "tap":
		if len(args) != 3 {
			e.err("Error: tap needs <x> <y>\n%s", inputUsage)
			return 1
		}
		v, err := atoiArgs(args[1:3])
		if err != nil {
			e.err("%v\n", err)
			return 1
		}
		p.logInput("tap", args[1:3]...)
		p.beforeInput()
		p.tap(p.toLayout(v[0]), p.toLayout(v[1]))
	case "swipe", "draganddrop":
		if len(args) != 5 && len(args) != 6 {
			e.err("Error: swipe needs <x1> <y1> <x2> <y2> [duration(ms)]\n%s", inputUsage)
			return 1
		}
		v, err := atoiArgs(args[1:])
		if err != nil {
			e.err("%v\n", err)
			return 1
		}
		p.logInput("swipe", args[1:]...)
		p.beforeInput()
		p.swipe(p.toLayout(v[0]), p.toLayout(v[1]), p.toLayout(v[2]), p.toLayout(v[3]))
	case "keyevent", "press":
		keys := args[1:]
		if args[0] == "press" {
			keys = []string{"23"}
		}
		if len(keys) > 0 && (keys[0] == "--longpress" || keys[0] == "--doubletap") {
			keys = keys[1:]
		}
		if len(keys) == 0 {
			e.err("Error: keyevent needs a key code\n%s", inputUsage)
			return 1
		}
		for _, k := range keys {
			code, ok := parseKey(k)
			if !ok {
				e.err("Error: Unknown keycode %s\n", k)
				return 1
			}
			p.logInput("keyevent", p.masked(strconv.Itoa(code)))
			p.beforeInput()
			p.key(code)
		}
	case "text":
		if len(args) < 2 {
			e.err("Error: text needs <string>\n%s", inputUsage)
			return 1
		}
		t := strings.ReplaceAll(strings.Join(args[1:], " "), "%s", " ")
		p.logInput("text", p.masked(t))
		p.beforeInput()
		// `input text` injects key events, which exist only for ASCII.
		var ascii strings.Builder
		for _, r := range t {
			if r >= 0x20 && r < 0x7f {
				ascii.WriteRune(r)
			}
		}
		p.typeText(ascii.String())
	default:
		e.err("Error: Unknown command: %s\n%s", args[0], inputUsage)
		return 1
	}
	return 0
}

// ---- am ----

func (p *Phone) cmdAm(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) == 0 {
		e.err("usage: am [subcommand] [options]\n")
		return 1
	}
	switch args[0] {
	case "broadcast":
		return p.amBroadcast(e, args[1:])
	case "start", "start-activity":
		for i := 1; i+1 < len(args); i++ {
			if args[i] == "-n" {
				pkg, _, _ := strings.Cut(args[i+1], "/")
				if _, ok := findApp(pkg); !ok {
					e.err("Error: Activity class {%s} does not exist.\n", args[i+1])
					return 1
				}
				p.mu.Lock()
				p.logInput("launch", pkg)
				p.beforeInput()
				p.launch(pkg)
				p.mu.Unlock()
				e.out("Starting: Intent { cmp=%s }\n", args[i+1])
				return 0
			}
		}
		e.err("Error: am start needs -n <package>/<activity>\n")
		return 1
	case "force-stop":
		if len(args) > 1 {
			p.mu.Lock()
			if p.top().app == args[1] {
				p.launch(pkgLauncher)
			}
			p.mu.Unlock()
		}
		return 0
	}
	e.err("Error: unknown command '%s'\n", args[0])
	return 1
}

func (p *Phone) amBroadcast(e *cmdEnv, args []string) int {
	var action string
	extras := map[string]string{}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-a":
			if i+1 < len(args) {
				action = args[i+1]
				i++
			}
		case "--es", "--ei", "--ez":
			if i+2 < len(args) {
				extras[args[i+1]] = args[i+2]
				i += 2
			}
		case "-n", "-f", "-p", "--user":
			i++
		}
	}
	if action == "" {
		e.err("Error: broadcast needs -a <action>\n")
		return 1
	}
	e.out("Broadcasting: Intent { act=%s flg=0x400000 }\n", action)
	p.mu.Lock()
	active := p.adbKeyboardActive()
	switch action {
	case "ADB_INPUT_TEXT", "ADB_INPUT_B64":
		msg := extras["msg"]
		if action == "ADB_INPUT_B64" {
			b, err := base64.StdEncoding.DecodeString(msg)
			if err != nil {
				p.mu.Unlock()
				e.out("Broadcast completed: result=0\n")
				return 0
			}
			msg = string(b)
		}
		p.logInput("ime_text", msg)
		p.beforeInput()
		if active {
			p.typeText(msg)
		}
	case "ADB_CLEAR_TEXT":
		p.logInput("ime_clear")
		p.beforeInput()
		if active {
			p.clearText()
		}
	case "ADB_INPUT_CODE":
		if code, err := strconv.Atoi(extras["code"]); err == nil && active {
			p.logInput("keyevent", strconv.Itoa(code))
			p.beforeInput()
			p.key(code)
		}
	}
	p.mu.Unlock()
	e.out("Broadcast completed: result=0\n")
	return 0
}

// ---- ime / settings ----

func (p *Phone) imeIDs(all bool) []string {
	ids := []string{imeLatin}
	if p.st.IMEInstalled && (all || p.st.imeEnabled) {
		ids = append(ids, imeADB)
	}
	return ids
}

func (p *Phone) cmdIme(e *cmdEnv) int {
	args := e.args[1:]
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(args) == 0 {
		e.err("ime <command>:\n  list [-a] [-s]\n  enable <ID>\n  disable <ID>\n  set <ID>\n  reset\n")
		return 1
	}
	known := func(id string) bool { return id == imeLatin || (id == imeADB && p.st.IMEInstalled) }
	switch args[0] {
	case "list":
		all, short := false, false
		for _, a := range args[1:] {
			all = all || a == "-a"
			short = short || a == "-s"
		}
		for _, id := range p.imeIDs(all) {
			if short {
				e.out("%s\n", id)
			} else {
				pkg, svc, _ := strings.Cut(id, "/")
				e.out("%s:\n  mId=%s mSettingsActivityName=null\n  Service:\n    packageName=%s\n    name=%s\n", id, id, pkg, svc)
			}
		}
	case "enable", "disable":
		if len(args) < 2 {
			e.err("Error: %s needs an input method ID\n", args[0])
			return 1
		}
		id := args[1]
		if !known(id) {
			e.err("Unknown input method %s cannot be enabled for user #0\n", id)
			return 1
		}
		if id == imeADB {
			was := p.st.imeEnabled
			p.st.imeEnabled = args[0] == "enable"
			if args[0] == "disable" && p.st.InputMethod == imeADB {
				p.st.InputMethod = imeLatin
			}
			if was == p.st.imeEnabled {
				e.out("Input method %s: already %sd for user #0\n", id, args[0])
				return 0
			}
		}
		e.out("Input method %s: now %sd for user #0\n", id, args[0])
	case "set":
		if len(args) < 2 {
			e.err("Error: set needs an input method ID\n")
			return 1
		}
		id := args[1]
		if !known(id) || (id == imeADB && !p.st.imeEnabled) {
			e.err("Unknown input method %s cannot be selected for user #0\n", id)
			return 1
		}
		p.st.InputMethod = id
		e.out("Input method %s selected for user #0\n", id)
	case "reset":
		p.st.InputMethod = imeLatin
		e.out("Reset input methods for user #0\n")
	default:
		e.err("Unknown command: %s\n", args[0])
		return 1
	}
	return 0
}

func boolInt(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (p *Phone) cmdSettings(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) >= 1 && args[0] == "--user" && len(args) >= 2 {
		args = args[2:]
	}
	if len(args) < 2 || (args[0] != "get" && args[0] != "put" && args[0] != "list" && args[0] != "delete") {
		e.err("usage:  settings [--user <USER_ID>] get namespace key\n        settings [--user <USER_ID>] put namespace key value\n")
		return 1
	}
	ns := args[1]
	if ns != "system" && ns != "secure" && ns != "global" {
		e.err("Invalid namespace '%s'\n", ns)
		return 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	st := &p.st
	vals := map[string]string{
		"secure/default_input_method":  st.InputMethod,
		"secure/enabled_input_methods": strings.Join(p.imeIDs(false), ":"),
		"global/airplane_mode_on":      boolInt(st.Toggles.Airplane),
		"global/wifi_on":               boolInt(st.Toggles.WiFi),
		"global/bluetooth_on":          boolInt(st.Toggles.Bluetooth),
		"system/screen_brightness":     strconv.Itoa(st.Brightness * 255 / 100),
	}
	switch args[0] {
	case "list":
		keys := make([]string, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if n, key, _ := strings.Cut(k, "/"); n == ns {
				e.out("%s=%s\n", key, vals[k])
			}
		}
		return 0
	case "get":
		if len(args) < 3 {
			e.err("Error: get needs a key\n")
			return 1
		}
		if v, ok := vals[ns+"/"+args[2]]; ok {
			e.out("%s\n", v)
		} else {
			e.out("null\n")
		}
		return 0
	case "delete":
		e.out("Deleted 0 rows\n")
		return 0
	}
	if len(args) < 4 {
		e.err("Error: put needs a key and a value\n")
		return 1
	}
	key, val := ns+"/"+args[2], args[3]
	switch key {
	case "secure/default_input_method":
		st.InputMethod = val
	case "global/airplane_mode_on":
		st.Toggles.Airplane = val == "1"
	case "global/wifi_on":
		st.Toggles.WiFi = val == "1"
	case "global/bluetooth_on":
		st.Toggles.Bluetooth = val == "1"
	case "system/screen_brightness":
		if n, err := strconv.Atoi(val); err == nil {
			st.Brightness = min(max(n*100/255/10*10, 0), 100)
		}
	}
	return 0
}

// ---- monkey / dumpsys / wm / pm ----

func (p *Phone) cmdMonkey(e *cmdEnv) int {
	args := e.args[1:]
	for _, a := range args {
		e.err("  bash arg: %s\n", a)
	}
	var pkg string
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "-p" {
			pkg = args[i+1]
		}
	}
	a, ok := findApp(pkg)
	if pkg == "" || !ok || !(a.Launcher || a.Package == pkgLauncher) {
		e.err("** No activities found to run, monkey aborted.\n")
		return 1
	}
	e.out("args: [%s]\n", strings.Join(args, ", "))
	for _, x := range args {
		e.out(" arg: %q\n", x)
	}
	e.out("data=%q\ndata=\"android.intent.category.LAUNCHER\"\n", pkg)
	p.mu.Lock()
	p.logInput("launch", pkg)
	p.beforeInput()
	p.launch(pkg)
	p.mu.Unlock()
	e.out("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n")
	return 0
}

// objID is a stable fake object id for dumpsys lines.
func objID(s string) string {
	h := fnv.New32a()
	_, _ = io.WriteString(h, s)
	return fmt.Sprintf("%07x", h.Sum32()&0xfffffff)
}

func shortActivity(pkg, act string) string {
	if strings.HasPrefix(act, pkg+".") {
		return strings.TrimPrefix(act, pkg)
	}
	return act
}

func (p *Phone) cmdDumpsys(e *cmdEnv) int {
	if len(e.args) < 2 {
		e.err("Usage: dumpsys <service>; try dumpsys window or dumpsys power\n")
		return 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.top()
	a, _ := findApp(v.app)
	switch e.args[1] {
	case "window":
		if len(e.args) > 2 && e.args[2] == "policy" {
			p.dumpPolicy(e)
			return 0
		}
		e.out("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
		e.out("  Window #0 Window{%s u0 %s/%s}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{shell}\n", objID(v.app+"w"), a.Package, a.Activity)
		e.out("  Window #1 Window{%s u0 StatusBar}:\n\n", objID("statusbar"))
		e.out("  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml port finger -keyb/v/h -nav/h}\n")
		switch win, locked := p.focusWindow(); {
		case win == "":
			e.out("  mCurrentFocus=Window{%s u0 %s/%s}\n", objID(v.app+"w"), a.Package, a.Activity)
		default:
			// A system window has the focus: the keyguard
			// (NotificationShade) or a dialog of the system's packages.
			e.out("  mCurrentFocus=Window{%s u0 %s}\n", objID(win), win)
			if locked {
				e.out("  mShowingLockscreen=true mShowingDream=false mDreamingLockscreen=false\n")
			}
		}
		e.out("  mFocusedApp=ActivityRecord{%s u0 %s/%s t%d}\n", objID(v.app+"a"), a.Package, shortActivity(a.Package, a.Activity), 10+len(a.Package)%7)
		e.out("  mInputMethodWindow=Window{%s u0 InputMethod}\n", objID("ime"))
		p.dumpPolicy(e)
	case "power":
		wake, disp := "Awake", "ON"
		if !p.st.Awake {
			wake, disp = "Asleep", "OFF"
		}
		e.out("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=%s\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mBatteryLevel=100\n", wake)
		e.out("\nDisplay Power: state=%s\n", disp)
	case "activity":
		e.out("  mResumedActivity: ActivityRecord{%s u0 %s/%s t10}\n", objID(v.app+"a"), a.Package, shortActivity(a.Package, a.Activity))
	case "notification":
		p.dumpNotifications(e)
	case "battery":
		e.out("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  level: 100\n  scale: 100\n")
	default:
		e.err("Can't find service: %s\n", e.args[1])
		return 1
	}
	return 0
}

func (p *Phone) cmdWm(e *cmdEnv) int {
	if len(e.args) < 2 {
		e.err("Window manager (window) commands:\n  size [reset|WxH]\n  density [reset|DENSITY]\n")
		return 1
	}
	switch e.args[1] {
	case "size":
		e.out("Physical size: %dx%d\n", p.cfg.Width, p.cfg.Height)
	case "dismiss-keyguard":
		p.mu.Lock()
		p.logInput("dismiss_keyguard")
		p.dismissKeyguard()
		p.mu.Unlock()
	case "density":
		e.out("Physical density: %d\n", p.cfg.Density)
	default:
		e.err("Error: unknown command '%s'\n", e.args[1])
		return 1
	}
	return 0
}

func (p *Phone) packages() []appInfo {
	out := append([]appInfo{}, apps...)
	for _, pkg := range otherPackages {
		out = append(out, appInfo{Package: pkg, System: true})
	}
	p.mu.Lock()
	if p.st.IMEInstalled {
		out = append(out, appInfo{Package: "com.android.adbkeyboard"})
	}
	p.mu.Unlock()
	return out
}

func (p *Phone) cmdPm(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) >= 2 && args[0] == "list" && args[1] == "packages" {
		third, system, withPath := false, false, false
		filter := ""
		for _, a := range args[2:] {
			switch {
			case a == "-3":
				third = true
			case a == "-s":
				system = true
			case a == "-f":
				withPath = true
			case strings.HasPrefix(a, "-"):
			default:
				filter = a
			}
		}
		for _, a := range p.packages() {
			if (third && a.System) || (system && !a.System) || !strings.Contains(a.Package, filter) {
				continue
			}
			if withPath {
				e.out("package:/data/app/%s/base.apk=%s\n", a.Package, a.Package)
			} else {
				e.out("package:%s\n", a.Package)
			}
		}
		return 0
	}
	if len(args) >= 2 && args[0] == "path" {
		for _, a := range p.packages() {
			if a.Package == args[1] {
				e.out("package:/data/app/%s/base.apk\n", a.Package)
				return 0
			}
		}
		return 1
	}
	e.err("usage: pm list packages [-3] [-s] [-f] [FILTER]\n       pm path PACKAGE\n")
	return 1
}

// ---- uiautomator / screencap ----

func (p *Phone) cmdUiautomator(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) == 0 || args[0] != "dump" {
		e.err("Usage: uiautomator dump [--compressed] [file]\n")
		return 1
	}
	file := "/sdcard/window_dump.xml"
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "--") {
			file = a
		}
	}
	p.mu.Lock()
	s := p.display()
	p.mu.Unlock()
	if s.asleep {
		e.err("ERROR: null root node returned by UiTestAutomationBridge.\n")
		return 1
	}
	var xml bytes.Buffer
	if err := uitree.WriteXML(&xml, 0, s.elements()); err != nil {
		e.err("ERROR: could not write the dump: %v\n", err)
		return 1
	}
	if file == "/dev/tty" || file == "/dev/stdout" {
		e.stdout.Write(xml.Bytes())
		e.out("\nUI hierchary dumped to: %s\n", file)
		return 0
	}
	p.mu.Lock()
	err := p.writeFile(file, xml.Bytes(), 0o660, fixedMtime)
	p.mu.Unlock()
	if err != nil {
		e.err("ERROR: could not write %s: %v\n", file, err)
		return 1
	}
	e.out("UI hierchary dumped to: %s\n", file)
	return 0
}

func (p *Phone) cmdScreencap(e *cmdEnv) int {
	asPNG, file := false, ""
	args := e.args[1:]
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-p":
			asPNG = true
		case a == "-d":
			i++
		case a == "-h":
			e.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
			return 0
		case strings.HasPrefix(a, "-"):
		default:
			file = a
			asPNG = asPNG || strings.HasSuffix(a, ".png")
		}
	}
	p.mu.Lock()
	slow := p.faults.capSlow
	fail := p.faults.capFail > 0
	if fail {
		p.faults.capFail--
	}
	p.mu.Unlock()
	if slow > 0 {
		time.Sleep(slow)
	}
	if fail {
		e.err("screencap: Capture failed: Status: -1\n")
		return 1
	}
	p.mu.Lock()
	s := p.display()
	p.mu.Unlock()
	if s.secure {
		// A FLAG_SECURE window: the capture yields nothing.
		return 1
	}
	var img []byte
	if asPNG {
		b, err := p.rend.PNG(s)
		if err != nil {
			e.err("screencap: %v\n", err)
			return 1
		}
		img = b
	} else {
		img = p.rend.Raw(s)
	}
	if file != "" {
		p.mu.Lock()
		err := p.writeFile(file, bytes.Clone(img), 0o660, fixedMtime)
		p.mu.Unlock()
		if err != nil {
			e.err("Error opening file: %s (%v)\n", file, err)
			return 1
		}
		return 0
	}
	e.stdout.Write(img)
	return 0
}

// Screenshot returns the PNG the phone's screencap would produce, and
// false when the screen is secure (no capture possible). It ignores the
// screencap faults.
func (p *Phone) Screenshot() ([]byte, bool, error) {
	p.mu.Lock()
	s := p.display()
	p.mu.Unlock()
	if s.secure {
		return nil, false, nil
	}
	b, err := p.rend.PNG(s)
	return b, err == nil, err
}

// UITree returns the elements `uiautomator dump` would write.
func (p *Phone) UITree() []uitree.Element {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.display().elements()
}

// ---- getprop ----

func (p *Phone) props() [][2]string {
	return [][2]string{
		{"ro.build.id", "PSIM.240101.001"},
		{"ro.build.version.release", "14"},
		{"ro.build.version.sdk", "34"},
		{"ro.product.brand", "google"},
		{"ro.product.cpu.abi", "x86_64"},
		{"ro.product.device", "phonesim"},
		{"ro.product.manufacturer", "Google"},
		{"ro.product.model", p.cfg.Model},
		{"ro.product.name", "phonesim"},
		{"ro.serialno", p.cfg.SerialNo},
		{"ro.sf.lcd_density", strconv.Itoa(p.cfg.Density)},
		{"sys.boot_completed", "1"},
	}
}

func (p *Phone) cmdGetprop(e *cmdEnv) int {
	if len(e.args) >= 2 {
		for _, kv := range p.props() {
			if kv[0] == e.args[1] {
				e.out("%s\n", kv[1])
				return 0
			}
		}
		e.out("\n")
		return 0
	}
	for _, kv := range p.props() {
		e.out("[%s]: [%s]\n", kv[0], kv[1])
	}
	return 0
}

// ---- simctl ----

func (p *Phone) cmdSimctl(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) == 0 {
		e.err("usage: simctl state | reset | fault <kind> [arg] | advance <duration> | receive <contact> <text> | lock | unlock\n")
		return 1
	}
	switch args[0] {
	case "state":
		b, err := json.MarshalIndent(p.State(), "", "  ")
		if err != nil {
			e.err("simctl: %v\n", err)
			return 1
		}
		e.stdout.Write(b)
		e.out("\n")
	case "reset":
		p.Reset()
		e.out("reset\n")
	case "advance":
		if len(args) != 2 {
			e.err("usage: simctl advance <duration, like 30s or 5m>\n")
			return 1
		}
		d, err := time.ParseDuration(args[1])
		if err != nil || d < 0 {
			e.err("simctl advance: %q is not a duration like 30s or 5m\n", args[1])
			return 1
		}
		p.Advance(d)
		e.out("clock %s\n", p.Clock().Format(time.DateTime))
	case "receive":
		if len(args) != 3 {
			e.err("usage: simctl receive <contact name> <text>\n")
			return 1
		}
		if _, ok := findContact(args[1]); !ok {
			e.err("simctl receive: no contact %q; the contacts are %s\n", args[1], contactNames())
			return 1
		}
		p.Receive(args[1], args[2])
		e.out("received\n")
	case "lock":
		p.Lock()
		e.out("locked\n")
	case "unlock":
		p.Unlock()
		e.out("unlocked\n")
	case "fault":
		f, err := ParseFault(args[1:])
		if err == nil {
			err = p.SetFault(f)
		}
		if err != nil {
			e.err("%v\n", err)
			return 1
		}
		e.out("fault %s on\n", strings.Join(args[1:], " "))
	default:
		e.err("simctl: unknown command %q; use state, reset, fault, advance, receive, lock or unlock\n", args[0])
		return 1
	}
	return 0
}

// ---- small file and text tools ----

func cmdEcho(_ *Phone, e *cmdEnv) int {
	args := e.args[1:]
	nl := true
	if len(args) > 0 && args[0] == "-n" {
		nl, args = false, args[1:]
	}
	e.out("%s", strings.Join(args, " "))
	if nl {
		e.out("\n")
	}
	return 0
}

func (p *Phone) cmdLs(e *cmdEnv) int {
	long := false
	var paths []string
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			long = long || strings.Contains(a, "l")
			continue
		}
		paths = append(paths, a)
	}
	if len(paths) == 0 {
		paths = []string{"/"}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	status := 0
	line := func(name string, f *vfile) {
		if !long {
			e.out("%s\n", name)
			return
		}
		e.out("%s 1 shell shell %d %s %s\n", modeString(f), len(f.data), time.Unix(int64(f.mtime), 0).UTC().Format("2006-01-02 15:04"), name)
	}
	for _, name := range paths {
		f, ok := p.lookup(name)
		if !ok {
			e.err("ls: %s: No such file or directory\n", name)
			status = 1
			continue
		}
		if !f.isDir() {
			line(name, f)
			continue
		}
		for _, c := range p.children(name) {
			cf, _ := p.lookup(cleanPath(name) + "/" + c)
			line(c, cf)
		}
	}
	return status
}

func (p *Phone) cmdCat(e *cmdEnv) int {
	if len(e.args) == 1 {
		e.stdout.Write(e.stdin)
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	status := 0
	for _, name := range e.args[1:] {
		f, ok := p.lookup(name)
		switch {
		case !ok:
			e.err("cat: %s: No such file or directory\n", name)
			status = 1
		case f.isDir():
			e.err("cat: %s: Is a directory\n", name)
			status = 1
		default:
			e.stdout.Write(f.data)
		}
	}
	return status
}

func (p *Phone) cmdMkdir(e *cmdEnv) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	parents, status := false, 0
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			parents = parents || strings.Contains(a, "p")
			continue
		}
		if err := p.mkdir(a, 0o777&^e.sh.umask, parents); err != nil {
			e.err("mkdir: %s: %v\n", a, err)
			status = 1
		}
	}
	return status
}

func (p *Phone) cmdTouch(e *cmdEnv) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	status := 0
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if f, ok := p.lookup(a); ok {
			f.mtime = p.clockMtime()
			continue
		}
		if err := p.createFile(a, nil, 0o666&^e.sh.umask); err != nil {
			e.err("touch: '%s': %v\n", a, err)
			status = 1
		}
	}
	return status
}

func (p *Phone) cmdRm(e *cmdEnv) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	force, recursive, status := false, false, 0
	for _, a := range e.args[1:] {
		if strings.HasPrefix(a, "-") {
			force = force || strings.Contains(a, "f")
			recursive = recursive || strings.Contains(a, "r") || strings.Contains(a, "R")
			continue
		}
		name := cleanPath(a)
		f, ok := p.files[name]
		switch {
		case !ok:
			if !force {
				e.err("rm: %s: No such file or directory\n", a)
				status = 1
			}
		case f.isDir() && !recursive:
			e.err("rm: %s: Is a directory\n", a)
			status = 1
		default:
			for k := range p.files {
				if k == name || strings.HasPrefix(k, name+"/") {
					delete(p.files, k)
				}
			}
		}
	}
	return status
}

func cmdGrep(_ *Phone, e *cmdEnv) int {
	invert, icase := false, false
	var pattern string
	for _, a := range e.args[1:] {
		switch {
		case a == "-v":
			invert = true
		case a == "-i":
			icase = true
		case a == "-E" || a == "-e":
		case strings.HasPrefix(a, "-") && pattern == "":
		case pattern == "":
			pattern = a
		}
	}
	if icase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		e.err("grep: bad regex '%s'\n", pattern)
		return 2
	}
	found := false
	for _, l := range strings.SplitAfter(string(e.stdin), "\n") {
		if l == "" {
			continue
		}
		if re.MatchString(strings.TrimSuffix(l, "\n")) != invert {
			found = true
			e.out("%s", l)
		}
	}
	if !found {
		return 1
	}
	return 0
}

func cmdHead(_ *Phone, e *cmdEnv) int {
	n := 10
	for i, a := range e.args[1:] {
		if a == "-n" && i+2 < len(e.args) {
			n, _ = strconv.Atoi(e.args[i+2])
		} else if strings.HasPrefix(a, "-") && len(a) > 1 {
			if v, err := strconv.Atoi(a[1:]); err == nil {
				n = v
			}
		}
	}
	lines := strings.SplitAfter(string(e.stdin), "\n")
	for i := 0; i < len(lines) && i < n; i++ {
		e.out("%s", lines[i])
	}
	return 0
}

func cmdSleep(_ *Phone, e *cmdEnv) int {
	if len(e.args) > 1 {
		if f, err := strconv.ParseFloat(e.args[1], 64); err == nil && f > 0 {
			time.Sleep(time.Duration(min(f, 30) * float64(time.Second)))
		}
	}
	return 0
}
