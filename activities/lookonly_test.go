package activities

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// lookPhone is a simulated phone of a skin, reached through an adb server
// as a worker reaches one.
type lookPhone struct {
	t   *testing.T
	sim *phonesim.Phone
	a   *Activities
	d   device.Device
}

func newLookPhone(t *testing.T, skin phonesim.Skin) *lookPhone {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serial := ln.Addr().String()
	sim := phonesim.New(phonesim.Config{Serial: serial, Skin: skin, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go func() { _ = sim.Serve(ctx, ln) }()
	a := (&sharedPhone{sim: sim, serial: serial}).host(t)
	d, err := a.Devices.Get(ctx, serial)
	if err != nil {
		t.Fatal(err)
	}
	return &lookPhone{t: t, sim: sim, a: a, d: d}
}

// find is the element the screen shows with the text, id or description
// given.
func (p *lookPhone) find(what string) uitree.Element {
	p.t.Helper()
	es, err := p.d.UITree(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	for _, e := range es {
		if e.Text == what || e.Desc == what || e.ShortID() == what {
			return e
		}
	}
	p.t.Fatalf("no %q on the screen", what)
	return uitree.Element{}
}

func (p *lookPhone) tap(what string) {
	p.t.Helper()
	x, y := p.find(what).Bounds.Center()
	if err := p.d.Tap(context.Background(), x, y); err != nil {
		p.t.Fatal(err)
	}
}

// step runs a look todo's Step with act, decided on the screen now, and
// returns its result and whether the phone changed its state.
func (p *lookPhone) step(act autoglm.Action) (StepResult, bool) {
	p.t.Helper()
	ctx := context.Background()
	es, err := p.d.UITree(ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	b, _ := json.Marshal(es)
	ref, err := p.a.put(ctx, b, "application/json")
	if err != nil {
		p.t.Fatal(err)
	}
	before := stateOf(p.sim)
	res, err := p.a.Step(ctx, StepInput{Serial: p.sim.Serial(), Task: `Look again, changing nothing, whether the "Bluetooth" switch is on: open the screen that shows it, then finish.`,
		LookOnly: true, UITree: true, Act: &act, Width: phonesim.DefaultWidth, Height: phonesim.DefaultHeight, ScreenTreeRef: ref})
	if err != nil {
		p.t.Fatal(err)
	}
	return res, stateOf(p.sim) != before
}

// stateOf is what a look must not change: the toggles, the brightness,
// the notes, the messages sent, the alarms.
func stateOf(sim *phonesim.Phone) string {
	st := sim.State()
	b, _ := json.Marshal([]any{st.Toggles, st.Brightness, st.Notes, st.MessagesSent, st.Alarms})
	return string(b)
}

func tapOn(e uitree.Element) autoglm.Action {
	x, y := e.Bounds.Center()
	return autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{uitree.Relative(x, phonesim.DefaultWidth), uitree.Relative(y, phonesim.DefaultHeight)}}
}

// notSent fails unless the Step kept the action from the phone and told
// the executor, without asking anyone.
func notSent(t *testing.T, what string, res StepResult, changed bool) {
	t.Helper()
	if changed {
		t.Errorf("%s: the phone's state changed", what)
	}
	if res.Act == nil || res.Act.Vetoed == "" || !strings.HasPrefix(res.Act.Result, ActVetoed) || !strings.Contains(res.Act.Result, "only looks") {
		t.Errorf("%s: act = %+v, want it kept from the phone as a look todo's", what, res.Act)
	}
	if res.Act != nil && (res.Act.Refused != "" || res.Act.NeedsHuman != "" || res.Act.Commit != "") {
		t.Errorf("%s: act = %+v: a look's action is only fed back", what, res.Act)
	}
}

// A todo that only looks sends no action that could change the phone: on
// a Pixel, a tap on the main switch bar "Use Bluetooth" and on the
// Bluetooth tile of Quick Settings; on the classic Settings, a tap on the
// Bluetooth switch; in Notes, a tap on Save; and any typing. A tap on a
// row that only opens a page is sent.
func TestLookOnlyStepSendsNoChange(t *testing.T) {
	ctx := context.Background()
	t.Run("pixel", func(t *testing.T) {
		p := newLookPhone(t, phonesim.SkinPixel)
		if err := p.d.Launch(ctx, "Settings"); err != nil {
			t.Fatal(err)
		}
		res, changed := p.step(tapOn(p.find("Connected devices")))
		if changed || res.Act == nil || res.Act.Result != "ok" || res.Act.Vetoed != "" {
			t.Fatalf("a tap on Connected devices: %+v (changed %v), want it sent", res.Act, changed)
		}
		if p.sim.State().Screen.Page != "connected_devices" {
			t.Fatalf("a tap on Connected devices left the phone on %+v", p.sim.State().Screen)
		}
		p.tap("Connection preferences")
		p.tap("Bluetooth")
		res, changed = p.step(tapOn(p.find("Use Bluetooth")))
		notSent(t, `a tap on "Use Bluetooth"`, res, changed)
		res, changed = p.step(tapOn(p.find("switch_widget")))
		notSent(t, "a tap on the main switch bar's Switch", res, changed)
		res, changed = p.step(autoglm.Action{Name: autoglm.ActionBack})
		if changed || res.Act == nil || res.Act.Result != "ok" {
			t.Fatalf("Back: %+v (changed %v), want it sent", res.Act, changed)
		}
		// Quick Settings: the shade opens by a swipe, its tile is not
		// tapped, its slider not dragged.
		res, _ = p.step(autoglm.Action{Name: autoglm.ActionSwipe, Start: &autoglm.Point{500, 5}, End: &autoglm.Point{500, 600}})
		if res.Act == nil || res.Act.Result != "ok" {
			t.Fatalf("the swipe that opens the shade: %+v, want it sent", res.Act)
		}
		var tile uitree.Element
		es, _ := p.d.UITree(ctx)
		for _, e := range es {
			if strings.HasPrefix(e.Text, "Bluetooth") && e.Clickable {
				tile = e
			}
		}
		if tile.Text == "" {
			t.Fatalf("no Bluetooth tile in the shade: %+v", es)
		}
		res, changed = p.step(tapOn(tile))
		notSent(t, "a tap on the Bluetooth tile", res, changed)
		slider := p.find("slider")
		y := uitree.Relative((slider.Bounds.Y1+slider.Bounds.Y2)/2, phonesim.DefaultHeight)
		res, changed = p.step(autoglm.Action{Name: autoglm.ActionSwipe, Start: &autoglm.Point{uitree.Relative(slider.Bounds.X1+60, phonesim.DefaultWidth), y},
			End: &autoglm.Point{900, y}})
		notSent(t, "a drag on the brightness slider", res, changed)
	})
	t.Run("classic", func(t *testing.T) {
		p := newLookPhone(t, phonesim.SkinClassic)
		if err := p.d.Launch(ctx, "Settings"); err != nil {
			t.Fatal(err)
		}
		res, changed := p.step(tapOn(p.find("Bluetooth")))
		notSent(t, "a tap on the classic Bluetooth switch", res, changed)
		res, changed = p.step(tapOn(p.find("+")))
		notSent(t, "a tap on the brightness +", res, changed)
		res, changed = p.step(autoglm.Action{Name: autoglm.ActionType, Text: "hello"})
		notSent(t, "typing", res, changed)
		if err := p.d.Launch(ctx, "Notes"); err != nil {
			t.Fatal(err)
		}
		p.tap("New note")
		p.tap("note_title")
		if err := p.d.Type(ctx, "Trip"); err != nil {
			t.Fatal(err)
		}
		res, changed = p.step(tapOn(p.find("Save")))
		notSent(t, "a tap on Save", res, changed)
		for _, in := range p.sim.State().InputLog {
			if strings.Contains(strings.Join(in.Args, " "), "hello") {
				t.Errorf("the phone got %+v: a look typed", in)
			}
		}
	})
}

// Without a tree to place a tap on, a look todo's tap is sent, but its
// typing is still kept from the phone.
func TestLookOnlyWithoutATreeRefusesTyping(t *testing.T) {
	a, p, _ := newActivities(t)
	in := StepInput{Serial: "fake-1", Task: "Look again", LookOnly: true,
		Act: &autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}}
	res, err := a.Step(context.Background(), in)
	if err != nil || res.Act == nil || res.Act.Vetoed != "" {
		t.Fatalf("a tap with no size to place it: %+v, %v, want it sent", res.Act, err)
	}
	in.Act = &autoglm.Action{Name: autoglm.ActionType, Text: "x"}
	if res, err = a.Step(context.Background(), in); err != nil || res.Act == nil || res.Act.Vetoed == "" {
		t.Fatalf("typing: %+v, %v, want it kept from the phone", res.Act, err)
	}
	for _, got := range p.got() {
		if strings.HasPrefix(got, "type") {
			t.Fatalf("the phone got %q", got)
		}
	}
	// The same typing in a todo that does not only look is sent.
	in.LookOnly = false
	if res, err = a.Step(context.Background(), in); err != nil || res.Act == nil || res.Act.Result != "ok" {
		t.Fatalf("typing outside a look: %+v, %v", res.Act, err)
	}
}

// A look todo is judged by its postcondition on the screen it ends on, as
// any todo with one, and asks no model: done when the switch shows the
// state named, not done when it shows the other, nor on a page that only
// says the state in a row's summary.
func TestLookVerifiedByItsPostcondition(t *testing.T) {
	ctx := context.Background()
	p := newLookPhone(t, phonesim.SkinPixel)
	if err := p.d.Launch(ctx, "Settings"); err != nil {
		t.Fatal(err)
	}
	p.tap("Connected devices")
	p.tap("Connection preferences")
	verdict := func(on bool) VerifyResult {
		t.Helper()
		es, err := p.d.UITree(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(es)
		ref, err := p.a.put(ctx, b, "application/json")
		if err != nil {
			t.Fatal(err)
		}
		v, err := p.a.Verify(ctx, VerifyInput{Serial: p.sim.Serial(), Message: "Bluetooth is on",
			Task:   `Look again, changing nothing, whether the "Bluetooth" switch is on: open the screen that shows it, then finish.`,
			Screen: Observation{TreeRef: ref, App: "Settings", AppPackage: "com.android.settings", Width: phonesim.DefaultWidth, Height: phonesim.DefaultHeight},
			Expect: []postcond.Check{{Kind: postcond.Switch, Label: "Bluetooth", On: &on}}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := verdict(false); v.Status != verify.Failed {
		t.Errorf("Bluetooth off judged on Connection preferences, where no switch shows: %+v", v)
	}
	p.tap("Bluetooth")
	if v := verdict(false); v.Status != verify.Done || v.By != verify.ByPostcondition {
		t.Errorf("Bluetooth off on its page: %+v, want done by the postcondition", v)
	}
	if v := verdict(true); v.Status != verify.Failed {
		t.Errorf("Bluetooth on judged done on its page where it is off: %+v", v)
	}
}

// run drives a todo as the workflow does, one Step after another with the
// offline executor, until it finishes or has taken steps steps; it
// returns the finish's message ("" without one), the results of the
// actions and the screen it ended on.
func (p *lookPhone) run(url, task string, look bool, steps int) (string, []ActResult, Observation) {
	p.t.Helper()
	if p.a.Executor == nil {
		p.a.Executor = llm.New(llm.ExecutorDefaults(url+"/v1", "", modelserver.ExecutorModel))
		p.a.Exec.IncludeElements = true
	}
	in := StepInput{Serial: p.sim.Serial(), Task: task, UITree: true, Think: true, LookOnly: look}
	var acts []ActResult
	var scr Observation
	for range steps {
		res, err := p.a.Step(context.Background(), in)
		if err != nil {
			p.t.Fatal(err)
		}
		if res.Act != nil {
			acts = append(acts, *res.Act)
		}
		scr = res.Screen
		th := res.Think
		if th == nil || th.Response == nil {
			p.t.Fatalf("%q: no decision: %+v", task, th)
		}
		act := th.Response.Action
		if act.Name == autoglm.ActionFinish {
			return act.Message, acts, res.Screen
		}
		in.Act, in.ScreenHash, in.Width, in.Height = &act, res.Screen.Hash, res.Screen.Width, res.Screen.Height
		in.ScreenTreeRef, in.ScreenApp, in.HistoryRef = res.Screen.TreeRef, res.Screen.App, th.HistoryRef
	}
	return "", acts, scr
}

// A look todo run by Steps with the offline executor reaches the switch's
// page on a Pixel with none of its actions refused, finishes saying the
// state, and is verified done by its postcondition; an executor that
// would flip the switch in a look todo is refused each time, and the
// phone keeps its state.
func TestLookOnlyTodoThroughSteps(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	ctx := context.Background()
	p := newLookPhone(t, phonesim.SkinPixel)
	if got, _, _ := p.run(srv.URL, "Turn on Bluetooth", false, 12); got != "Bluetooth is on" || !p.sim.State().Toggles.Bluetooth {
		t.Fatalf("Turn on Bluetooth finished %q", got)
	}
	if err := p.d.Home(ctx); err != nil {
		t.Fatal(err)
	}
	task := `Look again, changing nothing, whether the "Bluetooth" switch is on: open the screen that shows it, then finish.`
	before := stateOf(p.sim)
	got, acts, scr := p.run(srv.URL, task, true, 12)
	if got != "Bluetooth is on" || stateOf(p.sim) != before {
		t.Fatalf("the look finished %q; the phone changed: %v", got, stateOf(p.sim) != before)
	}
	for _, a := range acts {
		if a.Vetoed != "" || a.Result != "ok" {
			t.Errorf("the look's navigation was not sent: %+v", a)
		}
	}
	on := true
	v, err := p.a.Verify(ctx, VerifyInput{Serial: p.sim.Serial(), Task: task, Message: got, Screen: scr,
		Expect: []postcond.Check{{Kind: postcond.Switch, Label: "Bluetooth", On: &on}}})
	if err != nil || v.Status != verify.Done {
		t.Fatalf("the look verified %+v, %v", v, err)
	}
	// An executor that reads the look as a toggle: its taps on the switch
	// are kept from the phone, and it is told why.
	_, acts, _ = p.run(srv.URL, "Turn off Bluetooth", true, 8)
	vetoed := 0
	for _, a := range acts {
		if a.Vetoed != "" {
			vetoed++
		}
	}
	if vetoed == 0 || !p.sim.State().Toggles.Bluetooth {
		t.Fatalf("a toggle in a look todo: %d actions refused, Bluetooth on %v", vetoed, p.sim.State().Toggles.Bluetooth)
	}
}

// On every skin a look todo's way to the switch, and to a notes list, is
// navigation the Step sends: no action of the offline executor's look is
// refused, the phone keeps its state, and the todo's postcondition judges
// what the look ends on.
func TestLookOnlyNavigationIsSentOnEverySkin(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	ctx := context.Background()
	on, off := true, false
	for _, c := range []struct {
		skin   phonesim.Skin
		task   string
		want   string
		expect postcond.Check
	}{
		{phonesim.SkinClassic, `Look again, changing nothing, whether the "Bluetooth" switch is off: open the screen that shows it, then finish.`,
			"Bluetooth is off", postcond.Check{Kind: postcond.Switch, Label: "Bluetooth", On: &off}},
		{phonesim.SkinMIUI, `Look again, changing nothing, whether the "WLAN" switch is on: open the screen that shows it, then finish.`,
			"Wi-Fi is on", postcond.Check{Kind: postcond.Switch, Label: "WLAN", On: &on}},
		{phonesim.SkinMIUI, `Look again, changing nothing, whether the "蓝牙" switch is off: open the screen that shows it, then finish.`,
			"Bluetooth is off", postcond.Check{Kind: postcond.Switch, Label: "蓝牙", On: &off}},
		{phonesim.SkinOneUI, `Look again, changing nothing, whether the "Wi-Fi" switch is on: open the screen that shows it, then finish.`,
			"Wi-Fi is on", postcond.Check{Kind: postcond.Switch, Label: "Wi-Fi", On: &on}},
		{phonesim.SkinOneUI, `Look again, changing nothing, whether the "Bluetooth" switch is off: open the screen that shows it, then finish.`,
			"Bluetooth is off", postcond.Check{Kind: postcond.Switch, Label: "Bluetooth", On: &off}},
		{phonesim.SkinPixel, `Look again, changing nothing, whether "Trip" is gone from Notes: open the screen that lists it, then finish.`,
			`"Trip" is gone: Notes does not list it`, postcond.Check{Kind: postcond.ElementAbsent, Text: "Trip"}},
		{phonesim.SkinMIUI, `Look again, changing nothing, whether "Trip" is gone from Notes: open the screen that lists it, then finish.`,
			`"Trip" is gone: Notes does not list it`, postcond.Check{Kind: postcond.ElementAbsent, Text: "Trip"}},
		{phonesim.SkinOneUI, `Look again, changing nothing, whether "Trip" is gone from Notes: open the screen that lists it, then finish.`,
			`"Trip" is gone: Notes does not list it`, postcond.Check{Kind: postcond.ElementAbsent, Text: "Trip"}},
		// As goals wrote it before they named the app.
		{phonesim.SkinClassic, `Look again, changing nothing, whether "Trip" is gone (todo 2 did: 删除笔记 Trip): open the screen that lists it, then finish.`,
			`"Trip" is gone: Notes does not list it`, postcond.Check{Kind: postcond.ElementAbsent, Text: "Trip"}},
	} {
		p := newLookPhone(t, c.skin)
		p.sim.Fill(phonesim.Fill{Notes: 12})
		if err := p.d.Launch(ctx, "Messages"); err != nil {
			t.Fatal(err)
		}
		before := stateOf(p.sim)
		got, acts, scr := p.run(srv.URL, c.task, true, 14)
		if got != c.want || stateOf(p.sim) != before {
			t.Errorf("%s: %q finished %q, want %q; the phone changed: %v", c.skin, c.task, got, c.want, stateOf(p.sim) != before)
		}
		for _, a := range acts {
			if a.Vetoed != "" || a.Result != "ok" {
				t.Errorf("%s: %q: an action of the look was not sent: %+v", c.skin, c.task, a)
			}
		}
		v, err := p.a.Verify(ctx, VerifyInput{Serial: p.sim.Serial(), Task: c.task, Message: got, Screen: scr, Expect: []postcond.Check{c.expect}})
		if err != nil || v.Status != verify.Done {
			t.Errorf("%s: %q verified %+v, %v", c.skin, c.task, v, err)
		}
	}
}
