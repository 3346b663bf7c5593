package eval

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// The suite's size and coverage: at least 40 templates over every
// simulated app, four phrasings each, every phrasing kind, 200 tasks and 25
// infeasible ones per seed, the same tasks for the same seed.
func TestSuiteShape(t *testing.T) {
	tps := Templates()
	if len(tps) < 40 {
		t.Errorf("%d templates, want at least 40", len(tps))
	}
	apps, kinds, ids := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, tp := range tps {
		if ids[tp.ID] {
			t.Errorf("template id %s used twice", tp.ID)
		}
		ids[tp.ID] = true
		apps[tp.App] = true
		if len(tp.Phrasings) < 4 {
			t.Errorf("%s: %d phrasings, want at least 4", tp.ID, len(tp.Phrasings))
		}
		for _, ph := range tp.Phrasings {
			kinds[ph.Kind] = true
		}
		if feasible := tp.Feasible || tp.FeasibleOn != nil; feasible != (tp.Check != nil) || feasible != (tp.Want != nil) {
			t.Errorf("%s: a feasible template needs Check and Want, an infeasible one neither", tp.ID)
		}
	}
	for _, a := range append(phonesim.LauncherApps(), "Launcher", "none") {
		if !apps[a] {
			t.Errorf("no template exercises %s", a)
		}
	}
	for _, k := range Kinds {
		if !kinds[k] {
			t.Errorf("no phrasing of kind %s", k)
		}
	}
	for seed := int64(1); seed <= 3; seed++ {
		tasks := Generate(seed, 0)
		infeasible, zh := 0, 0
		seen := map[string]bool{}
		for _, tk := range tasks {
			if seen[tk.ID] {
				t.Errorf("seed %d: task id %s twice", seed, tk.ID)
			}
			seen[tk.ID] = true
			if !tk.Feasible {
				infeasible++
			}
			if tk.Lang == "zh" {
				zh++
			}
			if strings.Contains(tk.Goal, "%!") || strings.TrimSpace(tk.Goal) == "" {
				t.Errorf("seed %d %s: bad goal text %q", seed, tk.ID, tk.Goal)
			}
		}
		if len(tasks) < 200 || infeasible < 25 || zh < 20 {
			t.Errorf("seed %d: %d tasks, %d infeasible, %d in Chinese; want at least 200, 25 and 20", seed, len(tasks), infeasible, zh)
		}
	}
	a, b, c := goals(Generate(7, 0)), goals(Generate(7, 0)), goals(Generate(8, 0))
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different tasks")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("two seeds gave the same tasks")
	}
}

func goals(ts []Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Goal)
	}
	return out
}

// Every feasible generated task's predicate (on the skins it is feasible
// on, for one whose feasibility is the skin's) is false on a new phone with an
// empty answer (nothing was done yet) and true on the end state a correct
// run leaves (the template's Want), and that end commits nothing the task
// did not name.
func TestSuitePredicatesOnHandSetStates(t *testing.T) {
	byID := map[string]Template{}
	for _, tp := range Templates() {
		byID[tp.ID] = tp
	}
	for seed := int64(1); seed <= 5; seed++ {
		for _, tk := range Generate(seed, 0) {
			if !tk.Feasible && tk.FeasibleOn == nil {
				continue
			}
			if holds, _ := tk.Check(phonesim.Initial(), workflows.GoalResult{Status: workflows.GoalDone}); holds {
				t.Errorf("seed %d %s %q: the check holds on an untouched phone", seed, tk.ID, tk.Goal)
			}
			st, r := phonesim.Initial(), workflows.GoalResult{Status: workflows.GoalDone}
			tp := byID[tk.Template]
			p := paramsOf(t, tp, seed, tk.ID)
			tp.Want(p, &st, &r)
			if holds, why := tk.Check(st, r); !holds {
				t.Errorf("seed %d %s %q: the check fails on the wanted end: %s", seed, tk.ID, tk.Goal, why)
			}
			if wc := WrongCommits(phonesim.Initial(), st, tk.Targets); len(wc) > 0 {
				t.Errorf("seed %d %s: the wanted end counts as wrong commits: %v", seed, tk.ID, wc)
			}
		}
	}
}

// paramsOf redraws a generated task's parameters the way Generate does.
func paramsOf(t *testing.T, tp Template, seed int64, id string) Params {
	var k int
	if _, err := fmt.Sscanf(id[strings.LastIndexByte(id, '/')+1:], "%d", &k); err != nil {
		t.Fatal(err)
	}
	r := templateRand(tp, seed)
	r.IntN(len(tp.Phrasings))
	var p Params
	for range k {
		p = tp.Draw(r)
	}
	return p
}

// Hand-set states for the failures seen with free phrasings: each must be
// caught by the predicate, by WrongCommits, or both.
func TestSuiteCatchesKnownFalseDones(t *testing.T) {
	find := func(tmpl string, want func(Params) bool) (Task, Params) {
		for seed := int64(1); seed < 200; seed++ {
			for _, tk := range Generate(seed, 0) {
				if tk.Template != tmpl {
					continue
				}
				tp := templateByID(tmpl)
				if p := paramsOf(t, tp, seed, tk.ID); want(p) {
					return tk, p
				}
			}
		}
		t.Fatalf("no %s task fits", tmpl)
		return Task{}, nil
	}
	done := workflows.GoalResult{Status: workflows.GoalDone}

	// "Send Zhang San's phone number to Mom" sent the tail of the sentence
	// to Zhang San.
	tk, _ := find("messages.number-to", func(p Params) bool { return p["a"] == "Zhang San" && p["b"] == "Mom" })
	st := phonesim.Initial()
	st.MessagesSent = []phonesim.SentMessage{{To: "Zhang San", Text: "'s phone number to Mom"}}
	if holds, _ := tk.Check(st, done); holds {
		t.Error("number-to: the check holds after a message to the wrong person")
	}
	if wc := WrongCommits(phonesim.Initial(), st, tk.Targets); len(wc) != 1 || !strings.Contains(wc[0], "Zhang San") {
		t.Errorf("number-to: wrong commits = %v, want the message to Zhang San", wc)
	}
	if v := classify(tk, workflows.GoalDone, false, false); v != FalseDone {
		t.Errorf("verdict %s, want %s", v, FalseDone)
	}

	// "turn Wi-Fi off and airplane mode on" with nothing changed.
	tk, _ = find("settings.two-toggles", func(p Params) bool { return p["a"] == "wifi" && p["b"] == "airplane" })
	if holds, _ := tk.Check(phonesim.Initial(), done); holds {
		t.Error("two-toggles: the check holds on an untouched phone")
	}
	st = phonesim.Initial()
	st.Toggles.Airplane, st.Toggles.WiFi = true, false
	if holds, why := tk.Check(st, done); !holds {
		t.Errorf("two-toggles: %s", why)
	}

	// Switching an existing alarm off by creating a new one.
	tk, p := find("clock.switch-existing", func(p Params) bool { return p["on"] == "false" })
	st = phonesim.Initial()
	st.Alarms = append(st.Alarms, phonesim.Alarm{Time: p["at"], Label: p["label"], Enabled: false})
	if holds, _ := tk.Check(st, done); holds {
		t.Error("switch-existing: the check holds after a new alarm instead of the existing one")
	}
	if wc := WrongCommits(phonesim.Initial(), st, tk.Targets); len(wc) != 1 {
		t.Errorf("switch-existing: wrong commits = %v, want the created alarm", wc)
	}

	// An ordinal question answered with the wrong field.
	tk, p = find("clock.read-label", func(p Params) bool { return p["i"] == "1" })
	if holds, _ := tk.Check(phonesim.Initial(), workflows.GoalResult{Status: workflows.GoalDone, Response: p["at"]}); holds {
		t.Error("read-label: the time was accepted as the label")
	}

	// A brightness between the slider's steps is infeasible: done is false.
	tk, _ = find("settings.brightness-between-steps", func(Params) bool { return true })
	if v := classify(tk, workflows.GoalDone, false, true); v != FalseDone {
		t.Errorf("between steps ended done: verdict %s, want %s", v, FalseDone)
	}
	for status, want := range map[string]Verdict{workflows.GoalFailed: Achieved, workflows.GoalCancelled: Asked} {
		if v := classify(tk, status, status == workflows.GoalCancelled, true); v != want {
			t.Errorf("between steps ended %s: verdict %s, want %s", status, v, want)
		}
	}

	// A note saved under another title than the one named.
	tk, p = find("notes.create", func(Params) bool { return true })
	st = phonesim.Initial()
	st.Notes = append(st.Notes, phonesim.Note{Title: p["body"], Body: p["body"]})
	if wc := WrongCommits(phonesim.Initial(), st, tk.Targets); len(wc) != 1 {
		t.Errorf("notes.create: wrong commits = %v, want the wrongly titled note", wc)
	}
}

func templateByID(id string) Template {
	for _, tp := range Templates() {
		if tp.ID == id {
			return tp
		}
	}
	return Template{}
}

func TestApplyFaults(t *testing.T) {
	var c modelserver.Config
	if err := ApplyFaults(&c, map[string]float64{"wrong-taps": 0.2, "malformed": 0.1}); err != nil || c.RateWrongTap != 0.2 || c.RateMalformed != 0.1 {
		t.Errorf("ApplyFaults = %v, config %+v", err, c)
	}
	if err := ApplyFaults(&c, map[string]float64{"teleport": 0.1}); err == nil || !strings.Contains(err.Error(), "wrong-tap") {
		t.Errorf("unknown fault: err = %v, want one listing the known faults", err)
	}
	if err := ApplyFaults(&c, map[string]float64{"wrong-tap": 2}); err == nil {
		t.Error("a rate of 2 was accepted")
	}
}

// TestGeneratedSubset runs one task of a few generated templates end to end
// on the embedded stack and checks every task is run and classified (the
// figures themselves are the benchmark's, not asserted here), and that
// every run of its workflows replays against this build. It needs adb
// and is skipped with -short.
func TestGeneratedSubset(t *testing.T) {
	stacktest.NeedADB(t)
	if testing.Short() {
		t.Skip("starts the embedded Temporal server")
	}
	var tasks []Task
	for _, tk := range Generate(1, 1) {
		switch tk.Template {
		case "settings.toggle", "messages.send", "clock.create", "absent.app":
			tasks = append(tasks, tk)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	st, err := StartStack(ctx, "", log)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	sum, err := Run(ctx, st, Options{Tasks: tasks, Seed: 1, Batch: len(tasks)})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := RenderSuite(&b, "generated subset", sum); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if sum.Goals != len(tasks) || sum.Achieved+sum.HonestFailures+sum.Asked+sum.FalseDone != sum.Goals || sum.ModelCalls == 0 {
		t.Errorf("ran %d of %d tasks, verdicts %d+%d+%d+%d, %d model calls", sum.Goals, len(tasks),
			sum.Achieved, sum.HonestFailures, sum.Asked, sum.FalseDone, sum.ModelCalls)
	}
	// Every goal and todo run was replayed against this build's code.
	if sum.NotReplayed != 0 || sum.Replayed < sum.Goals {
		t.Errorf("replayed %d workflow runs of %d goals, %d goals with a run that did not replay:\n%s", sum.Replayed, sum.Goals, sum.NotReplayed, b.String())
	}
}

// An infeasible bank task ends right when it asks the person to sign in
// and nobody answers; another unanswered question stays "asked".
func TestSignInQuestionIsTheRightEndOfABankTask(t *testing.T) {
	var tk Task
	for _, x := range Generate(1, 4) {
		if x.Template == "bank.balance" {
			tk = x
		}
	}
	if !rightQuestion(tk, true, "Please sign in to the bank app yourself") {
		t.Error("the sign-in question is not the right end")
	}
	if rightQuestion(tk, true, "What should the message to Bob say?") || rightQuestion(tk, false, "Please sign in") {
		t.Error("another question, or none, counted as the right end")
	}
}

// A fixed-set case whose check names an alarm the phone already has may
// switch that alarm: it is the case's target, not a wrong commit; another
// alarm switched still is one.
func TestFixedCaseMaySwitchTheAlarmItNames(t *testing.T) {
	c := Case{ID: "off", Goal: "Disable the first alarm", Expect: workflows.GoalDone,
		Check: Check{Alarm: &phonesim.Alarm{Time: "07:00", Label: "Wake up", Enabled: false}}}
	before := phonesim.Initial()
	after := phonesim.Initial()
	for i := range after.Alarms {
		if after.Alarms[i].Time == "07:00" {
			after.Alarms[i].Enabled = !after.Alarms[i].Enabled
		}
	}
	if wc := WrongCommits(before, after, c.Task().Targets); len(wc) != 0 {
		t.Errorf("switching the named alarm: wrong commits %v", wc)
	}
	for i := range after.Alarms {
		if after.Alarms[i].Time != "07:00" {
			after.Alarms[i].Enabled = !after.Alarms[i].Enabled
		}
	}
	if wc := WrongCommits(before, after, c.Task().Targets); len(wc) != 1 {
		t.Errorf("switching another alarm too: wrong commits %v, want that one", wc)
	}
}

// A level between the classic page's steps of 10 is infeasible there and
// feasible on a slider, where the phone must then show it.
func TestBrightnessBetweenStepsIsTheSkins(t *testing.T) {
	var tasks []Task
	for _, tk := range Generate(1, 0) {
		if tk.Template == "settings.brightness-between-steps" {
			tasks = append(tasks, tk)
		}
	}
	if len(tasks) == 0 {
		t.Fatal("no brightness-between-steps task")
	}
	classic := slices.Clone(tasks)
	onSkin(classic, phonesim.SkinClassic)
	pixel := slices.Clone(tasks)
	onSkin(pixel, phonesim.SkinPixel)
	for i := range tasks {
		if classic[i].Feasible || classic[i].Check != nil {
			t.Errorf("%s on the classic skin: feasible %t, check %t; want infeasible, no check", tasks[i].ID, classic[i].Feasible, classic[i].Check != nil)
		}
		if !pixel[i].Feasible || pixel[i].Check == nil {
			t.Fatalf("%s on the pixel skin: feasible %t, check %t; want feasible with its check", tasks[i].ID, pixel[i].Feasible, pixel[i].Check != nil)
		}
		if holds, _ := pixel[i].Check(phonesim.Initial(), workflows.GoalResult{Status: workflows.GoalDone}); holds {
			t.Errorf("%s: the check holds on an untouched phone", tasks[i].ID)
		}
	}
}

// settings.open-section says every section in Chinese in its Chinese
// phrasing (打开设置里的显示页面), and on every skin its check holds on the
// page that skin shows for the section and on no other section's page,
// nor on the main list.
func TestOpenSectionNamesAndJudgesEverySection(t *testing.T) {
	tp := templateByID("settings.open-section")
	var zh Phrasing
	for _, ph := range tp.Phrasings {
		if ph.Kind == KindChinese {
			zh = ph
		}
	}
	sections := phonesim.SettingsSections()
	for _, s := range sections {
		p := Params{"s": s, "zh": sectionZh[s]}
		if g := zh.Text(p); sectionZh[s] == "" || strings.Contains(g, s) || !hasHan(sectionZh[s]) {
			t.Errorf("%s: the Chinese phrasing reads %q, want the section's Chinese name", s, g)
		}
		for _, skin := range phonesim.Skins {
			st := phonesim.Initial()
			st.Skin = skin
			st.Screen = phonesim.Screen{App: "Settings", Page: "list"}
			if holds, _ := tp.Check(p, st, workflows.GoalResult{}); holds {
				t.Errorf("%s %s: the check holds on the main list", skin, s)
			}
			for _, o := range sections {
				st.Screen = phonesim.SectionScreen(skin, o)
				if holds, why := tp.Check(p, st, workflows.GoalResult{}); holds != (o == s) {
					t.Errorf("%s %s: on %s's page %+v the check holds %t (%s)", skin, s, o, st.Screen, holds, why)
				}
			}
		}
	}
}
