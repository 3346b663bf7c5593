package modelserver

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/toolcall"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The tests in this file are the end-to-end proof of the executor persona:
// a simulated phone is served in-process, its uiautomator dump goes through
// uitree.ParseXML and FormatList into an executor request, the server
// answers over HTTP, the answer is parsed with the project's action parser
// and applied to the phone with the same shell commands the device driver
// sends, until the persona finishes. The phone's state is then checked.

// adbShell is a minimal host side of the ADB device protocol (docs/design.md §4),
// enough to run shell commands on the simulated phone.
type adbShell struct {
	t    *testing.T
	conn net.Conn
	next uint32
}

const (
	aCNXN uint32 = 0x4e584e43
	aOPEN uint32 = 0x4e45504f
	aOKAY uint32 = 0x59414b4f
	aCLSE uint32 = 0x45534c43
	aWRTE uint32 = 0x45545257
)

func (a *adbShell) write(cmd, arg0, arg1 uint32, data []byte) {
	var h [24]byte
	var sum uint32
	for _, b := range data {
		sum += uint32(b)
	}
	for i, v := range []uint32{cmd, arg0, arg1, uint32(len(data)), sum, cmd ^ 0xffffffff} {
		binary.LittleEndian.PutUint32(h[i*4:], v)
	}
	if _, err := a.conn.Write(append(h[:], data...)); err != nil {
		a.t.Fatalf("adb write: %v", err)
	}
}

func (a *adbShell) read() (cmd, arg0, arg1 uint32, data []byte) {
	var h [24]byte
	if _, err := io.ReadFull(a.conn, h[:]); err != nil {
		a.t.Fatalf("adb read: %v", err)
	}
	cmd, arg0, arg1 = binary.LittleEndian.Uint32(h[0:]), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:])
	data = make([]byte, binary.LittleEndian.Uint32(h[12:]))
	if _, err := io.ReadFull(a.conn, data); err != nil {
		a.t.Fatalf("adb read payload: %v", err)
	}
	return cmd, arg0, arg1, data
}

func dialPhone(t *testing.T, addr string) *adbShell {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute))
	a := &adbShell{t: t, conn: conn, next: 1}
	a.write(aCNXN, 0x01000001, 1<<20, []byte("host::\x00"))
	for {
		if cmd, _, _, _ := a.read(); cmd == aCNXN {
			return a
		}
	}
}

// shell runs one command and returns its output.
func (a *adbShell) shell(cmd string) string {
	local := a.next
	a.next++
	a.write(aOPEN, local, 0, []byte("shell:"+cmd+"\x00"))
	var out []byte
	var remote uint32
	for {
		c, arg0, arg1, data := a.read()
		if arg1 != local {
			continue
		}
		switch c {
		case aOKAY:
			remote = arg0
		case aWRTE:
			out = append(out, data...)
			a.write(aOKAY, local, arg0, nil)
		case aCLSE:
			if remote != 0 {
				a.write(aCLSE, local, remote, nil)
			}
			return string(out)
		}
	}
}

// installed is the package the phone installs an app under, of the ones
// its looks use (packages), as `pm list packages` lists them: what a
// device driver resolves a Launch by name to.
func (a *adbShell) installed(app string) (string, bool) {
	list := a.shell("pm list packages")
	for _, p := range packages[app] {
		if strings.Contains(list, "package:"+p+"\n") {
			return p, true
		}
	}
	return "", false
}

var focusRe = regexp.MustCompile(`mCurrentFocus=Window\{\S+ \S+ ([\w.]+)/`)

// observe builds the executor request text for the phone's current screen.
func observe(t *testing.T, a *adbShell, task, prevAction, prevResult string) string {
	pkg := ""
	if m := focusRe.FindStringSubmatch(a.shell("dumpsys window")); m != nil {
		pkg = m[1]
	}
	name := pkg
	for n, ps := range packages {
		if slices.Contains(ps, pkg) {
			name = n
		}
	}
	elems, err := uitree.ParseXML([]byte(a.shell("uiautomator dump /dev/tty")))
	if err != nil {
		t.Fatalf("dump: %v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\nCurrent app: %s (%s)\n", task, name, pkg)
	if prevAction != "" {
		fmt.Fprintf(&b, "Previous action: %s\nPrevious action result: %s\n", prevAction, prevResult)
	}
	b.WriteString("Screen: normal\n")
	b.WriteString(uitree.FormatList(elems, phonesim.DefaultWidth, phonesim.DefaultHeight))
	return b.String()
}

// apply runs an action on the phone the way the device driver does and
// returns its result line.
func apply(t *testing.T, a *adbShell, act autoglm.Action) string {
	px := func(p *autoglm.Point) (int, int) {
		return uitree.Pixel(p[0], phonesim.DefaultWidth), uitree.Pixel(p[1], phonesim.DefaultHeight)
	}
	var out string
	switch act.Name {
	case autoglm.ActionLaunch:
		pkg, ok := a.installed(act.App)
		if !ok {
			return fmt.Sprintf("app not found: %q", act.App)
		}
		out = a.shell("monkey -p " + pkg + " -c android.intent.category.LAUNCHER 1")
		if strings.Contains(out, "No activities found") {
			return fmt.Sprintf("app not found: %q", act.App)
		}
		return "ok"
	case autoglm.ActionTap:
		x, y := px(act.Element)
		out = a.shell(fmt.Sprintf("input tap %d %d", x, y))
	case autoglm.ActionLongPress:
		x, y := px(act.Element)
		out = a.shell(fmt.Sprintf("input swipe %d %d %d %d 3000", x, y, x, y))
	case autoglm.ActionSwipe:
		x1, y1 := px(act.Start)
		x2, y2 := px(act.End)
		out = a.shell(fmt.Sprintf("input swipe %d %d %d %d 500", x1, y1, x2, y2))
	case autoglm.ActionType, autoglm.ActionTypeName:
		a.shell("ime enable com.android.adbkeyboard/.AdbIME")
		a.shell("ime set com.android.adbkeyboard/.AdbIME")
		a.shell("am broadcast -a ADB_CLEAR_TEXT")
		out = a.shell("am broadcast -a ADB_INPUT_B64 --es msg " + base64.StdEncoding.EncodeToString([]byte(act.Text)))
		if !strings.Contains(out, "result=0") && !strings.Contains(out, "Broadcast completed") {
			return "typing failed: " + strings.TrimSpace(out)
		}
		return "ok"
	case autoglm.ActionBack:
		out = a.shell("input keyevent 4")
	case autoglm.ActionHome:
		out = a.shell("input keyevent KEYCODE_HOME")
	case autoglm.ActionNote, autoglm.ActionWait:
		return "ok"
	default:
		t.Fatalf("the persona answered %s, which this loop does not run", act.Name)
	}
	if strings.TrimSpace(out) != "" {
		return "error: " + strings.TrimSpace(out)
	}
	return "ok"
}

// runGoal drives the phone with the executor until it finishes, as the
// todo loop does, and returns the finish message and the number of steps.
func runGoal(t *testing.T, url string, a *adbShell, task string, maxSteps int) (string, int) {
	return runGoalWith(t, url, a, task, maxSteps, nil)
}

// runGoalWith is runGoal calling before ahead of every observation.
func runGoalWith(t *testing.T, url string, a *adbShell, task string, maxSteps int, before func()) (string, int) {
	type turn struct{ user, assistant string }
	var turns []turn
	prevAction, prevResult := "", ""
	for step := 1; step <= maxSteps; step++ {
		if before != nil {
			before()
		}
		text := observe(t, a, task, prevAction, prevResult)
		msgs := []map[string]any{{"role": "system", "content": "You operate an Android phone."}}
		for _, tr := range turns {
			msgs = append(msgs, map[string]any{"role": "user", "content": tr.user},
				map[string]any{"role": "assistant", "content": tr.assistant})
		}
		msgs = append(msgs, map[string]any{"role": "user", "content": []map[string]any{
			{"type": "text", "text": text},
			{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw0KGgo="}},
		}})
		c := decodeCompletion(t, post(t, url, "", map[string]any{"model": "autoglm-phone-9b", "messages": msgs}))
		answer := c.Choices[0].Message.Content
		resp, err := autoglm.Parse(answer)
		if err != nil {
			t.Fatalf("step %d: answer does not parse: %v\n%s", step, err, answer)
		}
		t.Logf("step %d: %s", step, resp.Action.Name+" "+autoglm.FormatAction(resp.Action))
		if resp.Action.Name == autoglm.ActionFinish {
			return resp.Action.Message, step
		}
		prevResult = apply(t, a, resp.Action)
		prevAction = autoglm.FormatAction(resp.Action)
		turns = append(turns, turn{user: strings.SplitN(text, "\n", 2)[0], assistant: answer})
	}
	t.Fatalf("%q: no finish within %d steps", task, maxSteps)
	return "", 0
}

func startPhone(t *testing.T) (*phonesim.Phone, *adbShell) {
	t.Helper()
	return startPhoneWith(t, phonesim.Config{})
}

// startPhoneWith serves a phone made from cfg and dials it.
func startPhoneWith(t *testing.T, cfg phonesim.Config) (*phonesim.Phone, *adbShell) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := phonesim.New(cfg)
	done := make(chan struct{})
	go func() { _ = p.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return p, dialPhone(t, ln.Addr().String())
}

func stateJSON(p *phonesim.Phone) string {
	st := p.State()
	st.InputLog = nil
	b, _ := json.Marshal(st)
	return string(b)
}

func TestPersonaDrivesSimulator(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhone(t)

	for _, c := range []struct {
		task   string
		want   string // finish message
		check  func(phonesim.State) bool
		budget int
	}{
		{"Turn off Wi-Fi", "Wi-Fi is off", func(s phonesim.State) bool { return !s.Toggles.WiFi }, 5},
		{"Turn on Wi-Fi", "Wi-Fi is on", func(s phonesim.State) bool { return s.Toggles.WiFi }, 5},
		{"Send Alice a message saying hi", `Sent "hi" to Alice`, func(s phonesim.State) bool {
			return len(s.MessagesSent) == 1 && s.MessagesSent[0] == phonesim.SentMessage{To: "Alice Chen", Text: "hi", Seq: s.MessagesSent[0].Seq}
		}, 10},
		{"Create an alarm at 07:30 labelled Gym", "Alarm set for 07:30 (Gym)", func(s phonesim.State) bool {
			for _, al := range s.Alarms {
				if al == (phonesim.Alarm{Time: "07:30", Label: "Gym", Enabled: true}) {
					return true
				}
			}
			return false
		}, 12},
		{"Read the Android version", "Android version: 14", func(phonesim.State) bool { return true }, 10},
		{"Read the time of the first alarm in Clock", "07:00", func(phonesim.State) bool { return true }, 5},
		{"Read Bob Li's phone number", "", func(phonesim.State) bool { return true }, 6},
		{"Set brightness to 80%", "Brightness is 80%", func(s phonesim.State) bool { return s.Brightness == 80 }, 8},
		{"Create a note titled Trip with pack passport", `Saved the note "Trip"`, func(s phonesim.State) bool {
			for _, n := range s.Notes {
				if n == (phonesim.Note{Title: "Trip", Body: "pack passport"}) {
					return true
				}
			}
			return false
		}, 12},
		{"Add butter to the note Shopping list", `Saved the note "Shopping list"`, func(s phonesim.State) bool {
			return s.Notes[0].Body == "Milk, eggs, bread butter"
		}, 10},
		{"Open Contacts", "Contacts is open", func(s phonesim.State) bool { return s.Screen.App == "Contacts" }, 3},
	} {
		msg, steps := runGoal(t, srv.URL, a, c.task, c.budget)
		if c.want != "" && msg != c.want {
			t.Errorf("%q finished with %q, want %q", c.task, msg, c.want)
		}
		if c.want == "" && !phoneRe.MatchString(msg) {
			t.Errorf("%q finished with %q, want a phone number", c.task, msg)
		}
		if !c.check(p.State()) {
			t.Errorf("%q: phone state is wrong after %d steps: %s", c.task, steps, stateJSON(p))
		}
		t.Logf("%q: %d steps, finish %q", c.task, steps, msg)
	}
}

// TestSingleLoopOnSimulator runs a whole multi-clause goal as one task
// (single-loop mode): the persona reads the first alarm, notes it, and sends
// it to Alice.
func TestSingleLoopOnSimulator(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhone(t)
	msg, steps := runGoal(t, srv.URL, a, "Read the time of the first alarm in Clock and then send it to Alice", 15)
	st := p.State()
	if len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "Alice Chen" || st.MessagesSent[0].Text != "07:00" {
		t.Fatalf("after %d steps (finish %q) sent = %+v", steps, msg, st.MessagesSent)
	}
	if msg != `07:00; Sent "07:00" to Alice` {
		t.Fatalf("finish message %q", msg)
	}
}

// TestWrongTapsRecovered injects wrong taps and checks the persona still
// reaches the goals from the screen state.
func TestWrongTapsRecovered(t *testing.T) {
	srv := httptest.NewServer(New(Config{RateWrongTap: 0.3, Seed: 11}))
	defer srv.Close()
	p, a := startPhone(t)
	runGoal(t, srv.URL, a, "Turn on Bluetooth", 15)
	runGoal(t, srv.URL, a, "Send Bob a message saying see you", 30)
	st := p.State()
	if !st.Toggles.Bluetooth {
		t.Errorf("Bluetooth is off: %s", stateJSON(p))
	}
	found := false
	for _, m := range st.MessagesSent {
		found = found || m.To == "Bob Li" && m.Text == "see you"
	}
	if !found {
		t.Errorf("message to Bob not sent: %s", stateJSON(p))
	}
}

// TestWrongTapSeeds runs the key goals under a 30% wrong-tap rate for
// several seeds; each goal's own outcome is checked as soon as it finishes
// (a wrong tap in a later goal may still flip an earlier switch, as it
// would on a real phone).
func TestWrongTapSeeds(t *testing.T) {
	goals := []struct {
		task  string
		check func(phonesim.State) bool
	}{
		{"Turn off Wi-Fi", func(s phonesim.State) bool { return !s.Toggles.WiFi }},
		{"Send Alice a message saying hi", func(s phonesim.State) bool {
			return len(s.MessagesSent) > 0 && s.MessagesSent[len(s.MessagesSent)-1] == phonesim.SentMessage{To: "Alice Chen", Text: "hi", Seq: s.MessagesSent[len(s.MessagesSent)-1].Seq}
		}},
		{"Create an alarm at 07:30 labelled Gym", func(s phonesim.State) bool {
			// The Clock app keeps its list in time order.
			return slices.Contains(s.Alarms, phonesim.Alarm{Time: "07:30", Label: "Gym", Enabled: true})
		}},
		{"Create a note titled Trip with pack passport", func(s phonesim.State) bool {
			return s.Notes[0].Title == "Shopping list" && s.Notes[len(s.Notes)-1] == phonesim.Note{Title: "Trip", Body: "pack passport"}
		}},
		{"Set brightness to 80%", func(s phonesim.State) bool { return s.Brightness == 80 }},
	}
	for seed := int64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			srv := httptest.NewServer(New(Config{RateWrongTap: 0.3, Seed: seed}))
			defer srv.Close()
			p, a := startPhone(t)
			for _, g := range goals {
				msg, steps := runGoal(t, srv.URL, a, g.task, 40)
				if !g.check(p.State()) {
					t.Errorf("%q finished (%q, %d steps) but the phone disagrees: %s", g.task, msg, steps, stateJSON(p))
				}
			}
		})
	}
}

// TestPersonaOnALivePhone: the persona gets past what a phone does by
// itself (the keyguard, system dialogs, heads-up banners) and still does
// its tasks. The phone's clock moves 6 s before each step, and the worker's
// wake of a dark screen is done as the worker does it.
func TestPersonaOnALivePhone(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := phonesim.New(phonesim.Config{Life: phonesim.Life{Seed: 3, Messages: 15 * time.Second, Dialogs: 40 * time.Second,
		ScreenTimeout: 30 * time.Second, Manual: true}})
	done := make(chan struct{})
	go func() { _ = p.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	a := dialPhone(t, ln.Addr().String())
	p.Advance(time.Minute) // the screen is off and locked
	before := func() {
		p.Advance(6 * time.Second)
		if strings.Contains(a.shell("dumpsys power"), "mWakefulness=Asleep") {
			a.shell("input keyevent KEYCODE_WAKEUP")
		}
	}
	for _, c := range []struct {
		task  string
		check func(phonesim.State) bool
	}{
		{"Send Alice a message saying hi", func(s phonesim.State) bool {
			return len(s.MessagesSent) == 1 && s.MessagesSent[0].To == "Alice Chen" && s.MessagesSent[0].Text == "hi"
		}},
		{"Turn off Wi-Fi", func(s phonesim.State) bool { return !s.Toggles.WiFi }},
		{"Create a note titled Trip with pack passport", func(s phonesim.State) bool {
			return slices.Contains(s.Notes, phonesim.Note{Title: "Trip", Body: "pack passport"})
		}},
	} {
		msg, steps := runGoalWith(t, srv.URL, a, c.task, 25, before)
		if !c.check(p.State()) {
			t.Errorf("%q: phone state is wrong after %d steps (finish %q): %s", c.task, steps, msg, stateJSON(p))
		}
	}
	kinds := map[string]int{}
	for _, e := range p.LifeEvents() {
		kinds[e.Kind]++
	}
	if kinds["message"] == 0 || kinds["dialog"] == 0 || kinds["screen_off"] == 0 {
		t.Errorf("the phone's life did not test much: %v", kinds)
	}
	t.Logf("life events while the persona worked: %v", kinds)
}

// TestPersonaDrivesSimulatorWithTools runs goals with the phone's actions
// offered as function tools (executor.protocol tools): every step is a
// tool call read into the action it means.
func TestPersonaDrivesSimulatorWithTools(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhone(t)
	var tools []map[string]any
	for _, tl := range toolcall.Tools() {
		tools = append(tools, map[string]any{"type": "function", "function": map[string]any{
			"name": tl.Name, "description": tl.Description, "parameters": tl.Parameters}})
	}
	for _, c := range []struct {
		task  string
		check func(phonesim.State) bool
	}{
		{"Turn off Wi-Fi", func(s phonesim.State) bool { return !s.Toggles.WiFi }},
		{"Send Alice a message saying hi", func(s phonesim.State) bool {
			return len(s.MessagesSent) == 1 && s.MessagesSent[0].To == "Alice Chen" && s.MessagesSent[0].Text == "hi"
		}},
	} {
		var turns []map[string]any
		prevAction, prevResult := "", ""
		done := false
		for step := 1; step <= 12 && !done; step++ {
			text := observe(t, a, c.task, prevAction, prevResult)
			msgs := append([]map[string]any{{"role": "system", "content": "You operate an Android phone by calling its functions."}}, turns...)
			msgs = append(msgs, map[string]any{"role": "user", "content": []map[string]any{
				{"type": "text", "text": text},
				{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw0KGgo="}},
			}})
			comp := decodeCompletion(t, post(t, srv.URL, "", map[string]any{"model": "offline-executor", "messages": msgs, "tools": tools}))
			var calls []llm.ToolCall
			for _, tc := range comp.Choices[0].Message.ToolCalls {
				calls = append(calls, llm.ToolCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			}
			resp, err := toolcall.Parse(calls, nil)
			if err != nil {
				t.Fatalf("%q step %d: %v (text %q)", c.task, step, err, comp.Choices[0].Message.Content)
			}
			act := autoglm.FormatAction(resp.Action)
			if resp.Action.Name == autoglm.ActionFinish {
				done = true
				break
			}
			prevResult = apply(t, a, resp.Action)
			prevAction = act
			turns = append(turns, map[string]any{"role": "user", "content": strings.SplitN(text, "\n", 2)[0]},
				map[string]any{"role": "assistant", "content": "<answer>" + act + "</answer>"})
		}
		if !done || !c.check(p.State()) {
			t.Errorf("%q: finished %t, state %s", c.task, done, stateJSON(p))
		}
	}
}
