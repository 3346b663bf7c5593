package modelserver

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// solve decides the next step for one todo.
func (c *solver) solve(task string) step {
	if s, ok := c.systemWindow(); ok {
		return s
	}
	if d := c.byID("popup_dismiss"); d != nil {
		return tapAt(*d, "A pop-up covers the app; I dismiss it with "+q(d.Text)+" and go on.")
	}
	if l, ok := parseLook(task); ok {
		// A todo that only looks: whatever else its words hold (the
		// earlier todo's text) is not to be done again.
		return c.look(l)
	}
	if why, ok := strings.CutPrefix(strings.TrimSpace(c.obs.PrevResult), refusedPrefix); ok {
		// The system looked before the commit: what it would make is
		// already on the phone, or this todo made it already.
		why = strings.TrimSpace(strings.TrimPrefix(why, ":"))
		if i := strings.Index(why, ". If "); i >= 0 {
			why = why[:i]
		}
		return finish("Already on the phone: "+why, "My last tap was refused because its effect is already there; the task is done.")
	}
	// A task that starts with a wait ("Wait 40 seconds, then turn on
	// Wi-Fi", or only "Wait 20 minutes"): wait once, then do the rest.
	if w, ok, err := waits.Todo(task); ok && err == nil && w.For > 0 {
		if c.count("Wait") == 0 {
			return waitFor(w.For)
		}
		return finish("Waited "+w.For.String(), "The wait is over.")
	}
	if w, rest, ok := waits.Lead(task); ok && w.For > 0 {
		if c.count("Wait") == 0 {
			return waitFor(w.For)
		}
		task = rest
	}
	if s, ok := c.contactsTask(task); ok {
		return s
	}
	if s, ok := c.messagesTask(task); ok {
		return s
	}
	if s, ok := c.naiveGone(task); ok {
		return s
	}
	in := parseIntent(task)
	var s step
	switch in.Kind {
	case kindOpen:
		s = c.open(in)
	case kindToggle:
		s = c.toggle(in)
	case kindBrightness:
		s = c.brightness(in)
	case kindMessage:
		s = c.message(in)
	case kindAlarm:
		s = c.alarm(in)
	case kindNote:
		s = c.note(in)
	case kindAlarmSwitch:
		s = c.alarmSwitch(in)
	case kindNoteRename:
		s = c.renameNote(in)
	case kindNoteOpen:
		s = c.openNote(in)
	case kindNoteDelete:
		s = c.deleteNote(in)
	case kindAlarmDelete:
		s = c.deleteAlarm(in)
	case kindRead:
		s = c.read(in)
	case kindBank:
		s = c.bank(task)
	case kindTap:
		s = c.tapLabel(in)
	default:
		if name := namedApp(task, in.App); name != "" {
			return finish(fmt.Sprintf("Cannot do %q: there is no %s app on this phone", task, name),
				fmt.Sprintf("The task needs the %s app, which this phone does not have.", name))
		}
		if st, ok := c.ensureApp(in.App); ok {
			return st
		}
		s = finish(fmt.Sprintf("Cannot do %q: no app on this phone (%s) does it", task, strings.Join(simApps, ", ")),
			"This task is outside what the apps on this phone can do.")
	}
	if c.naive && !s.finish && c.count("Tap") > 0 && (recovery(s) || in.Kind == kindToggle) {
		// A naive executor trusts its last tap: it does not notice that
		// the tap missed, and reports the task done.
		return finish("Done: "+task, "My taps went through, so the task is done.")
	}
	if c.noted("finish now") && !s.finish {
		return finish(fmt.Sprintf("Stopped before %q was done: too many turns", task),
			"The system asks me to stop now; I report where I am.")
	}
	// Never repeat an action that just failed or that the system saw had no
	// effect: go back instead.
	if (c.isErr() || c.noted("stuck")) && !s.finish && s.action == strings.TrimSpace(c.obs.PrevAction) {
		if sug, ok := c.suggested(); ok && sug != s.action {
			return step{think: "I was told I am stuck and to try " + sug + " instead; I do that.", action: sug}
		}
		if s.action == `do(action="Back")` {
			return finish(fmt.Sprintf("Gave up: %s", c.obs.PrevResult), "Even going back failed; I stop here.")
		}
		return back(fmt.Sprintf("The previous action failed (%s); I go back and try another way instead of repeating it.", c.obs.PrevResult))
	}
	return s
}

// systemWindow gets past what the phone put over the app by itself, as a
// person would: a swipe up on the keyguard, the dismissing button of a
// system dialog, a flick up on a heads-up banner.
func (c *solver) systemWindow() (step, bool) {
	if c.byID("keyguard_indication_text") != nil {
		return step{think: "The phone is locked and shows its keyguard; I swipe up to unlock it.",
			action: `do(action="Swipe", start=[500,850], end=[500,300])`}, true
	}
	// A dialog holding a text field asks the app's own question (an
	// alarm's label): it is the task's, not an interruption.
	if t, no := c.byID("alertTitle"), c.byID("button2"); t != nil && no != nil && c.byClass("EditText") == nil {
		return tapAt(*no, fmt.Sprintf("A system dialog (%q) has the focus; I close it with %q and go on.", t.Text, no.Text)), true
	}
	if b := c.byID("expandableNotificationRow"); b != nil {
		return step{think: fmt.Sprintf("A notification from %s covers the top of the screen; I flick it away.", b.Text),
			action: fmt.Sprintf(`do(action="Swipe", start=[%d,%d], end=[%d,%d])`, b.At[0], b.At[1], b.At[0], max(b.At[1]-60, 0))}, true
	}
	return step{}, false
}

// recovery reports a step that undoes or searches: Back, Home, a swipe.
func recovery(s step) bool {
	return strings.Contains(s.action, `"Back"`) || strings.Contains(s.action, `"Home"`) || strings.Contains(s.action, `"Swipe"`)
}

var namedAppRe = regexp.MustCompile(`(?i)\b(?:in|on|with|using|from|via|open|launch)\s+(?:the\s+|my\s+)?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)\s+app\b|(?:在|用|打开)([\p{Han}A-Za-z]+?)(?:应用|App|app)`)

// namedApp returns an app the task names that the phone does not have
// ("in the travel app", "open WeChat"), or "".
func namedApp(task, app string) string {
	if m := missingApp(app); m != "" && m != "Launcher" {
		return m
	}
	if m := namedAppRe.FindStringSubmatch(task); m != nil {
		name := firstNonEmpty(m[1], m[2])
		if _, ok := packages[name]; ok {
			return ""
		}
		if a, ok := apps[strings.ToLower(name)]; ok && a != "" {
			return ""
		}
		return name
	}
	return ""
}

// allListed reports a screen whose whole list is visible (nothing scrolls),
// so what is not listed does not exist.
func (c *solver) allListed() bool {
	for _, l := range c.obs.Elems {
		if l.Scrollable {
			return false
		}
	}
	return len(c.obs.Elems) > 0
}

func (c *solver) open(in intent) step {
	if in.App == "Launcher" && !c.inApp("Launcher") {
		return home("The task asks for the home screen; I press Home.")
	}
	if st, ok := c.ensureApp(in.App); ok {
		return st
	}
	return finish(in.App+" is open", fmt.Sprintf("%s is in the foreground; the task is done.", in.App))
}

func (c *solver) tapLabel(in intent) step {
	if st, ok := c.ensureApp(in.App); ok && in.App != "" {
		return st
	}
	if st, ok := c.sectionStep(in.TapTarget); ok {
		return st
	}
	// What can be tapped comes first: a page is often titled like the
	// button that opened it, and the title is not the button.
	find := func(tappable, exact bool) *uitree.Listed {
		for i, e := range c.obs.Elems {
			if tappable && !e.Clickable {
				continue
			}
			if strings.EqualFold(e.Text, in.TapTarget) || !exact && (strings.EqualFold(e.Desc, in.TapTarget) || strings.Contains(strings.ToLower(e.Text), strings.ToLower(in.TapTarget))) {
				return &c.obs.Elems[i]
			}
		}
		return nil
	}
	tapped := c.prevIs("Tap") && c.count("Tap") > 0 && !c.isErr()
	l := find(true, true)
	if l == nil {
		l = find(true, false)
	}
	if l == nil && tapped {
		return finish("Tapped "+in.TapTarget, "The tap went through: nothing I can tap is named so any more.")
	}
	if l == nil {
		l = find(false, false)
	}
	if l == nil {
		return c.scroll(true, strconv.Quote(in.TapTarget))
	}
	if c.prevTapAt(l) || tapped && find(true, true) == nil {
		return finish("Tapped "+in.TapTarget, "The tap went through.")
	}
	return tapAt(*l, fmt.Sprintf("I tap %q.", l.Text))
}

// donePrefix starts the Note a single-loop run writes when a clause is done.
const donePrefix = "Done "

// decide answers one executor request. A task of one clause is solved
// directly. A task of several clauses (single-loop mode) is worked through
// in order: each finished clause is recorded with a Note action
// "Done i/n: <result>" and the Notes found in the earlier turns say which
// clause is current and what the earlier ones returned.
func decide(msgs []message, naive bool) step {
	return decideMisreading(msgs, grammar{}, naive, nil)
}

// decideMisreading is decide for a request of grammar g, with the task
// first passed through misread (nil: read as written).
func decideMisreading(msgs []message, g grammar, naive bool, misread func(string) string) step {
	// The newest user message that states a task: a correction appended
	// after an unusable answer has none of its own.
	var last string
	n := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && (last == "" || strings.Contains(msgs[i].Text, "Task:")) {
			last, n = msgs[i].Text, i
			if strings.Contains(last, "Task:") {
				break
			}
		}
	}
	obs := parseObservation(last)
	hist := history(msgs[:n])
	if o, h, ok := glmRequest(msgs); ok {
		obs, hist = o, h
	}
	if o, h, ok := g.request(msgs); ok {
		obs, hist = o, h
	}
	if misread != nil {
		obs.Task = misread(obs.Task)
	}
	return decideOn(obs, hist, naive)
}

// decideOn answers for an observation and the actions taken before it,
// whichever layout they were read from.
func decideOn(obs observation, hist []act, naive bool) step {
	if obs.Task == "" {
		return finish("No task given", "The request has no Task line, so there is nothing to do.")
	}
	clauses := SplitGoal(obs.Task)
	if len(clauses) <= 1 || isLook(obs.Task) {
		c := &solver{obs: obs, hist: hist, naive: naive}
		return c.solve(obs.Task)
	}
	var results []string
	start := 0
	for i, a := range hist {
		if a.Name == "Note" && strings.HasPrefix(a.Message, donePrefix) {
			_, r, _ := strings.Cut(a.Message, ": ")
			results = append(results, r)
			start = i + 1
		}
	}
	// The workflow also keeps noted results among the request's notes
	// ("Noted: Done 1/2: 07:00"), which survive a reset of the history.
	if fromNotes := doneFromNotes(obs.Notes, len(clauses)); len(fromNotes) > len(results) {
		results, start = fromNotes, len(hist)
	}
	idx := len(results)
	if idx >= len(clauses) {
		return finish(strings.Join(results, "; "), "Every part of the goal is done.")
	}
	clause := clauses[idx]
	if idx > 0 && hasPlaceholder(clause) {
		clause = substitute(clause, results[idx-1])
	}
	c := &solver{obs: obs, hist: hist[start:], naive: naive}
	if p, ok := parseAct(c.obs.PrevAction); ok && p.Name == "Note" {
		// The Note closed the previous clause; it is not this clause's action.
		c.obs.PrevAction, c.obs.PrevResult = "", ""
	}
	s := c.solve(clause)
	s.think = fmt.Sprintf("Part %d of %d: %s. %s", idx+1, len(clauses), clause, s.think)
	if !s.finish {
		return s
	}
	if idx < len(clauses)-1 {
		return note(fmt.Sprintf("%s%d/%d: %s", donePrefix, idx+1, len(clauses), s.result), s.think+" This part is done; I note its result and go on.")
	}
	return finish(strings.Join(append(results, s.result), "; "), s.think+" That was the last part.")
}

var doneNoteRe = regexp.MustCompile(`Done (\d+)/(\d+): (.*)$`)

// doneFromNotes collects the results of finished clauses from notes such as
// "Noted: Done 1/2: 07:00", in clause order, stopping at the first gap.
func doneFromNotes(notes []string, n int) []string {
	byIdx := map[int]string{}
	for _, note := range notes {
		m := doneNoteRe.FindStringSubmatch(note)
		if m == nil || m[2] != strconv.Itoa(n) {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		byIdx[i] = m[3]
	}
	var out []string
	for i := 1; ; i++ {
		r, ok := byIdx[i]
		if !ok {
			return out
		}
		out = append(out, r)
	}
}

// executorAnswer is the persona's answer to an executor request, in
// grammar g (grammar.go) when the request is laid out for one.
func (s *Server) executorAnswer(msgs []message, g grammar, f faults) string {
	if out, ok := g.terminate(msgs); ok {
		return out
	}
	answer := s.glmAnswer(msgs, g, f)
	if g.protocol == "" {
		return answer
	}
	if out, ok := g.write(answer); ok {
		return out
	}
	// An action the grammar cannot say, or a malformed answer on
	// purpose: a thought without an action, which the parsers refuse
	// (and take for no other family).
	return "Thought: I cannot tell which action comes next."
}

// glmAnswer is the persona's answer in AutoGLM's grammar.
func (s *Server) glmAnswer(msgs []message, g grammar, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return malformedExecutor(f.variant)
	}
	var mis func(string) string
	if s.cfg.RateMisread > 0 || len(s.cfg.Misread) > 0 {
		mis = func(task string) string {
			v, ok := misreads(s.cfg.Seed, s.cfg.RateMisread, task)
			if slices.Contains(s.cfg.Misread, task) {
				v, ok = misreadVariant(s.cfg.Seed, task), true
			}
			if !ok {
				return task
			}
			if out := misread(task, v); out != task {
				s.count(func(st *Stats) { st.Misreads++ })
				return out
			}
			return task
		}
	}
	if len(s.cfg.SendsNothing) > 0 {
		read := mis
		mis = func(task string) string {
			if read != nil {
				task = read(task)
			}
			return sendsNothing(task, s.cfg.SendsNothing)
		}
	}
	// A naive persona told by its guidance to check each tap does.
	st := decideMisreading(msgs, g, s.cfg.Naive && !heedsTapCheck(msgs), mis)
	answer := "<think>" + st.think + "</think><answer>" + st.action + "</answer>"
	if f.wrongTap {
		p := f.tap
		if a, ok := parseAct(st.action); ok && a.Point != nil && abs(a.Point[0]-p[0]) < 150 && abs(a.Point[1]-p[1]) < 80 {
			p[1] = (p[1]+400)%850 + 100 // keep it on screen but away from the right element
		}
		if wrong, ok := wrongTap(answer, p); ok {
			s.count(func(st *Stats) { st.WrongTaps++ })
			return wrong
		}
	}
	return answer
}
