package modelserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// planContext is the JSON context block at the end of a planner request
// (see the shared request formats). Done is nil for a plan request.
type planContext struct {
	Goal         string       `json:"goal"`
	Done         []doneTodo   `json:"done"`
	Remaining    []string     `json:"remaining"`
	Feedback     []string     `json:"feedback"`
	Answers      []answerPair `json:"answers"`
	UserMessages []string     `json:"user_messages"`
	// Memory is what earlier goals on the phone taught (docs/design.md §8).
	Memory []string `json:"memory"`
	replan bool
}

type doneTodo struct {
	Todo      string   `json:"todo"`
	Status    string   `json:"status"`
	Result    string   `json:"result"`
	Steps     int      `json:"steps"`
	Evidence  string   `json:"evidence"`
	Committed []string `json:"committed"`
	Repeated  string   `json:"repeated"`
}

// committedLine names what failed todos already committed on the phone.
func committedLine(done []doneTodo) string {
	var out []string
	for _, d := range done {
		if d.Status != "done" && len(d.Committed) > 0 {
			out = append(out, fmt.Sprintf("%s committed %s", d.Todo, strings.Join(d.Committed, ", ")))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " Already on the phone: " + strings.Join(out, "; ") + "."
}

type answerPair struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// planAnswer is a planner answer (docs/design.md §3).
type planAnswer struct {
	Status   string     `json:"status"`
	Plan     []planItem `json:"plan,omitempty"`
	TaskType string     `json:"task_type,omitempty"`
	Question string     `json:"question,omitempty"`
	Response string     `json:"response,omitempty"`
}

// jsonContext finds the JSON context block in a planner message: the last
// ```json fence, or else the outermost braces.
func jsonContext(text string) (string, bool) {
	if i := strings.LastIndex(text, "```json"); i >= 0 {
		body := text[i+len("```json"):]
		if j := strings.Index(body, "```"); j >= 0 {
			body = body[:j]
		}
		return strings.TrimSpace(body), true
	}
	i, j := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if i >= 0 && j > i {
		return text[i : j+1], true
	}
	return "", false
}

// parsePlanContext reads the JSON context of the newest user message that
// has one. A context with a "done" key is a replan request.
func parsePlanContext(msgs []message) (planContext, error) {
	// The newest user message with a context block: after an invalid
	// answer the client appends the answer and a correction, which carries
	// no context of its own.
	raw, ok := "", false
	for i := len(msgs) - 1; i >= 0 && !ok; i-- {
		if msgs[i].Role == "user" && strings.Contains(msgs[i].Text, `"goal"`) {
			raw, ok = jsonContext(msgs[i].Text)
		}
	}
	if !ok {
		return planContext{}, fmt.Errorf("no JSON context block with a \"goal\" in the user messages")
	}
	var pc planContext
	if err := json.Unmarshal([]byte(raw), &pc); err != nil {
		return planContext{}, fmt.Errorf("JSON context: %v", err)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal([]byte(raw), &keys)
	_, pc.replan = keys["done"]
	return pc, nil
}

// Limits of the planner contract (internal/planner validates them too): a
// plan of at most maxPlanItems todos of at most maxTodoRunes characters.
const (
	maxPlanItems = 20
	maxTodoRunes = 500
)

// withinLimits turns a plan the contract would reject for its size into a
// question for the user.
func withinLimits(a planAnswer) planAnswer {
	if a.Status != "planned" && a.Status != "replanned" {
		return a
	}
	if len(a.Plan) > maxPlanItems {
		return planAnswer{Status: "ask_user", Question: fmt.Sprintf(
			"The goal has %d steps, more than the %d one goal may have: which of them should I do first? (Or split it into smaller goals.)", len(a.Plan), maxPlanItems)}
	}
	for _, p := range a.Plan {
		if utf8.RuneCountInString(p.Todo) > maxTodoRunes {
			return planAnswer{Status: "ask_user", Question: fmt.Sprintf(
				"One step of the goal is longer than %d characters: can you say it more briefly?", maxTodoRunes)}
		}
	}
	return a
}

func (s *Server) planAnswer(msgs []message, f faults, format string) string {
	if f.malformed {
		if bad, ok := malformedUnder(format, f.variant); ok {
			s.count(func(st *Stats) { st.Malformed++ })
			return bad
		}
	}
	pc, err := parsePlanContext(msgs)
	var a planAnswer
	switch {
	case err != nil:
		a = planAnswer{Status: "ask_user", Question: "I could not read the goal (" + err.Error() + "). What should I do on the phone?"}
	case pc.replan:
		a = replanGoal(pc)
	default:
		a = planGoal(pc)
	}
	if !asksExpect(msgs) {
		// A planner from before postconditions reads plan items as
		// strings: answer in the contract it sent, as a model would.
		for i := range a.Plan {
			a.Plan[i].Expect = nil
		}
	}
	b, _ := json.Marshal(withinLimits(a))
	return string(b)
}

// asksExpect reports whether the planner's prompt offers postconditions
// (docs/design.md §9): the contract names the "expect" field.
func asksExpect(msgs []message) bool {
	for _, m := range msgs {
		if strings.Contains(m.Text, `"expect"`) {
			return true
		}
	}
	return false
}

// planItem is one todo of a plan answer: a string, or the todo with its
// postconditions (docs/design.md §9).
type planItem struct {
	Todo   string           `json:"todo"`
	Expect []postcond.Check `json:"expect,omitempty"`
}

// MarshalJSON writes a todo without postconditions as a plain string.
func (p planItem) MarshalJSON() ([]byte, error) {
	if len(p.Expect) == 0 {
		return json.Marshal(p.Todo)
	}
	type item planItem
	return json.Marshal(item(p))
}

// UnmarshalJSON reads either form.
func (p *planItem) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &p.Todo) == nil {
		return nil
	}
	type item planItem
	return json.Unmarshal(b, (*item)(p))
}

func texts(items []planItem) []string {
	out := make([]string, len(items))
	for i, p := range items {
		out[i] = p.Todo
	}
	return out
}

// planGoal answers a plan request with the documented rules (see doc.go):
// the planner's own reading of the goal (reader.go), with a question when
// something needed is missing and the user has not answered it yet.
func planGoal(pc planContext) planAnswer {
	todos := readGoal(pc.Goal)
	for _, m := range pc.UserMessages {
		todos = append(todos, readGoal(m)...)
	}
	if len(todos) == 0 {
		return planAnswer{Status: "ask_user", Question: "What would you like me to do on the phone?"}
	}
	var items []planItem
	for _, t := range todos {
		t = remembered(answered(t, pc.Answers), pc.Memory)
		if t.Ask != "" {
			return planAnswer{Status: "ask_user", Question: t.Ask}
		}
		items = append(items, planItem{Todo: t.Todo, Expect: t.Expect})
	}
	return planAnswer{Status: "planned", Plan: items, TaskType: taskType(texts(items))}
}

// answered reads a todo again with the user's answer to its question; an
// answer the reading still cannot place goes to the executor with the
// clause, as the user wrote it, without postconditions.
func answered(t planned, answers []answerPair) planned {
	if t.Ask == "" {
		return t
	}
	if len(answers) == 0 {
		return t
	}
	// The answer to this question, else the latest answer.
	a := answers[len(answers)-1]
	for _, x := range answers {
		if x.Question == t.Ask {
			a = x
		}
	}
	again := readClause(strings.TrimSpace(t.Clause+" "+a.Answer), planned{})
	if len(again) > 0 && again[0].Ask == "" {
		return again[0]
	}
	return planned{Todo: capitalise(strings.TrimSpace(t.Clause + ": " + a.Answer))}
}

// rememberedRe is a remembered answer (memory.FromAnswer's text).
var rememberedRe = regexp.MustCompile(`^Answer to ("(?:[^"\\]|\\.)*"): ("(?:[^"\\]|\\.)*")$`)

// remembered answers a question about who someone is ("Who should I send
// the message "hi" to?", "Whose phone number should I read?") from the
// person's answer to the same question in an earlier goal, as memory
// shows it: the person is not asked again what they already said. Other
// questions (what to write, which time) are asked again: last time's
// answer need not fit this goal.
func remembered(t planned, memory []string) planned {
	if t.Ask == "" || !(strings.HasPrefix(t.Ask, "Who ") || strings.HasPrefix(t.Ask, "Whose ")) {
		return t
	}
	for _, m := range memory {
		g := rememberedRe.FindStringSubmatch(m)
		if g == nil {
			continue
		}
		q, err1 := strconv.Unquote(g[1])
		a, err2 := strconv.Unquote(g[2])
		if err1 == nil && err2 == nil && q == t.Ask {
			return answered(t, []answerPair{{Question: q, Answer: a}})
		}
	}
	return t
}

// replanGoal answers a replan request with the documented rules (see doc.go).
func replanGoal(pc planContext) planAnswer {
	var remaining []string
	for _, r := range pc.Remaining {
		if r = strings.TrimSpace(r); r != "" {
			remaining = append(remaining, r)
		}
	}
	known := map[string]bool{}
	for _, d := range pc.Done {
		known[d.Todo] = true
	}
	for _, r := range remaining {
		known[r] = true
	}
	for _, m := range pc.UserMessages {
		for _, c := range SplitGoal(m) {
			if !known[c] {
				remaining = append(remaining, c)
				known[c] = true
			}
		}
	}

	if n := len(pc.Done); n > 0 && pc.Done[n-1].Status == "failed" && strings.TrimSpace(pc.Done[n-1].Todo) != "" && len(pc.Done[n-1].Committed) == 0 {
		// A todo that committed something (a message sent) is not run
		// again: the summary says what it did.
		last := pc.Done[n-1]
		tries := 0
		for _, d := range pc.Done {
			if d.Todo == last.Todo && d.Status == "failed" {
				tries++
			}
		}
		if tries < maxTodoTries && !impossible(last) && last.Repeated == "" {
			remaining = append([]string{strings.TrimSpace(last.Todo)}, remaining...)
			return planAnswer{Status: "replanned", Plan: withExpect(remaining)}
		}
		// Tried enough, failed the same way twice, or it cannot be done on
		// this phone: skip it and go on; the summary says what is missing,
		// and the goal is not done.
	}

	if len(remaining) == 0 {
		return planAnswer{Status: "done", Response: summarise(pc.Done) + committedLine(pc.Done)}
	}

	prev := placeholderValue(pc.Done)
	var keep []string
	waitAhead := false // a wait for the phone still to run reads the value
	for _, r := range remaining {
		if _, ok := waits.PhoneTodo(r); ok {
			waitAhead = true
		}
		if hasPlaceholder(r) && !waitAhead {
			if prev == "" {
				// What it needs was never read: it cannot run, and its
				// placeholder must never be sent as content.
				continue
			}
			r = substitute(r, prev)
		}
		keep = append(keep, r)
	}
	if len(keep) == 0 {
		return planAnswer{Status: "done", Response: summarise(pc.Done) + notRun(remaining, keep)}
	}
	items := withExpect(keep)
	for i, r := range keep {
		t := remembered(answered(readOne(r), pc.Answers), pc.Memory)
		if t.Ask != "" {
			return planAnswer{Status: "ask_user", Question: t.Ask}
		}
		if t.Todo != "" && len(t.Expect) > 0 {
			items[i] = planItem{Todo: r, Expect: t.Expect}
			if t.Rewrite {
				items[i].Todo = t.Todo
			}
		}
	}
	return planAnswer{Status: "replanned", Plan: items}
}

// readOne reads a todo of the plan again for its postconditions.
func readOne(todo string) planned {
	ps := readClause(tidy(protectMessages(todo)), planned{})
	if len(ps) != 1 {
		return planned{Todo: todo}
	}
	// A replan reads its todos again: the message's closing "!" or "?"
	// stays in what it checks, as it did in the first plan.
	return keepMark(todo, revealPlanned(ps[0]))
}

// withExpect writes each todo with the postconditions the planner reads in
// it.
func withExpect(todos []string) []planItem {
	out := make([]planItem, len(todos))
	for i, t := range todos {
		out[i] = planItem{Todo: t}
		if p := readOne(t); p.Ask == "" {
			out[i].Expect = p.Expect
		}
	}
	return out
}

// notRun names the todos a replan left out because what they needed was
// never read.
func notRun(remaining, kept []string) string {
	if len(remaining) == len(kept) {
		return ""
	}
	var out []string
	for _, r := range remaining {
		if hasPlaceholder(r) {
			out = append(out, r)
		}
	}
	return " Not done: " + strings.Join(out, "; ") + " (the value it needs was never read)."
}

// maxTodoTries is how often the replanner runs a todo whose verification
// failed before it gives the goal up.
const maxTodoTries = 3

var impossibleRe = regexp.MustCompile(`(?i)there is no|no app on this phone|no contact named|not found|could not open|is not installed|does not exist|the task does not say|gives no|cannot do`)

// impossible reports a failed todo whose result or evidence says the phone
// lacks what it needs (an app, a contact): trying again cannot help.
func impossible(d doneTodo) bool {
	return impossibleRe.MatchString(d.Result) || impossibleRe.MatchString(d.Evidence)
}

// placeholderValue is what a {result} placeholder stands for: the result
// of the latest reading todo that succeeded, or else the latest result of
// any todo that succeeded ("Read the alarm, turn on Bluetooth, then send it
// to Alice" sends the time, not "Bluetooth is on").
func placeholderValue(done []doneTodo) string {
	last := ""
	for i := len(done) - 1; i >= 0; i-- {
		d := done[i]
		if d.Status != "done" || d.Result == "" {
			continue
		}
		if _, waited := waits.PhoneTodo(d.Todo); waited || readOne(d.Todo).Reads {
			// A wait for the phone reads what arrived (docs/design.md §7).
			return d.Result
		}
		if last == "" {
			last = d.Result
		}
	}
	return last
}

// summarise writes the final response: each todo with its result, and the
// failures.
func summarise(done []doneTodo) string {
	var ok, failed []string
	seenFail := map[string]bool{}
	succeeded := map[string]bool{}
	for _, d := range done {
		if d.Status == "done" {
			succeeded[d.Todo] = true
		}
	}
	for _, d := range done {
		switch d.Status {
		case "done":
			if d.Result != "" {
				ok = append(ok, fmt.Sprintf("%s: %s", d.Todo, d.Result))
			} else {
				ok = append(ok, d.Todo)
			}
		case "failed", "skipped":
			if !succeeded[d.Todo] && !seenFail[d.Todo] {
				seenFail[d.Todo] = true
				why := d.Status
				if r := firstNonEmpty(d.Evidence, d.Result); r != "" {
					why += " (" + r + ")"
				}
				failed = append(failed, fmt.Sprintf("%s %s", d.Todo, why))
			}
		}
	}
	// What was not done comes first: a goal that failed part of its work
	// must not read as done at a glance.
	var b strings.Builder
	if len(failed) > 0 {
		b.WriteString("Not done: " + strings.Join(failed, "; ") + ".")
	}
	if len(ok) > 0 {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString("Done: " + strings.Join(ok, "; ") + ".")
	}
	if b.Len() == 0 {
		b.WriteString("Nothing was left to do.")
	}
	return b.String()
}

var placeholderRe = regexp.MustCompile(`(?i)\{result\}|the time read|what was read`)

func hasPlaceholder(todo string) bool { return placeholderRe.MatchString(todo) }

// substitute puts the previous todo's result into a todo's placeholder:
// "Send Alice a message with what was read" → "Send Alice a message: 07:00".
func substitute(todo, result string) string {
	if loc := withPlaceholderRe.FindStringIndex(todo); loc != nil {
		return todo[:loc[0]] + ": " + quoteValue(result) + todo[loc[1]:]
	}
	return placeholderRe.ReplaceAllLiteralString(todo, result)
}

// quoteValue quotes a read value that ends in punctuation ("Sent you the
// slides."), which an unquoted message text would lose as the end of the
// todo's sentence; other values go in as they are.
func quoteValue(v string) string {
	if r, _ := utf8.DecodeLastRuneInString(v); !strings.ContainsRune(".!?。！？…", r) {
		return v
	}
	if strings.Contains(v, `"`) {
		return "“" + v + "”"
	}
	return `"` + v + `"`
}

var withPlaceholderRe = regexp.MustCompile(`(?i) with (\{result\}|the time read|what was read)`)

// complete fills a todo's missing details from the user's answers, or
// returns the question to ask when something needed is still missing.
func complete(todo string, answers []answerPair) (string, string) {
	in := parseIntent(todo)
	switch in.Kind {
	case kindMessage:
		if in.To != "" && in.Text != "" {
			return todo, ""
		}
		to, text := in.To, in.Text
		for _, a := range answers {
			ato, atext := messageFromAnswer(a.Answer)
			if to == "" {
				to = ato
			}
			if text == "" {
				text = atext
			}
		}
		switch {
		case to == "" && text == "":
			return todo, "Who should I send the message to, and what should it say?"
		case to == "":
			return todo, fmt.Sprintf("Who should I send the message %q to?", text)
		case text == "":
			return todo, fmt.Sprintf("What should the message to %s say?", to)
		}
		return fmt.Sprintf("Send %s a message: %s", to, text), ""
	case kindAlarm:
		if in.Time != "" {
			return todo, ""
		}
		for _, a := range answers {
			if t, _ := parseAlarm("at " + a.Answer); t != "" {
				out := "Create an alarm at " + t
				if in.Label != "" {
					out += " labelled " + in.Label
				}
				return out, ""
			}
		}
		return todo, "What time should the alarm ring?"
	}
	return todo, ""
}

// messageFromAnswer reads a recipient and text from an answer such as
// "to Alice: hello", "Alice: hello", "Alice, hello" or "hello to Alice".
func messageFromAnswer(ans string) (to, text string) {
	ans = strings.TrimSpace(ans)
	if !strings.HasPrefix(strings.ToLower(ans), "to ") {
		if i := strings.Index(ans, ", "); i > 0 && !strings.Contains(ans[:i], ":") {
			ans = ans[:i] + ": " + ans[i+2:]
		}
		if strings.ContainsAny(ans, ":：") || answerSaysRe.MatchString(ans) {
			ans = "to " + ans
		}
	}
	return parseMessage("Send a message " + ans)
}

// taskType names the prompt-memory task type of a plan from its first
// clause that is not general.
func taskType(clauses []string) string {
	for _, c := range clauses {
		in := parseIntent(c)
		switch in.Kind {
		case kindToggle, kindBrightness:
			return "settings"
		case kindMessage:
			return "messaging"
		case kindAlarm:
			return "alarm"
		case kindNote:
			return "notes"
		case kindRead:
			if in.What == "phone" {
				return "contacts"
			}
			return "reading"
		case kindOpen:
			switch in.App {
			case "Settings":
				return "settings"
			case "Messages":
				return "messaging"
			case "Clock":
				return "alarm"
			case "Notes":
				return "notes"
			case "Contacts":
				return "contacts"
			}
		}
	}
	return "general"
}

var (
	strongSeps = []string{", and then ", " and then ", ", then ", " then ", "; ", ";", "，然后", "然后", "并且", "，再", "；"}
	weakSeps   = []string{", and ", " and ", ", ", "，"}
	verbRe     = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:open|launch|start|return|head|navigate|turn|switch|enable|disable|send|text|message|tell|reply|create|set|add|make|write|edit|update|change|delete|remove|read|check|find|get|look|go|tap|click|press|increase|decrease|raise|lower|dim|call|show|search|take|sign|log|put|note|scroll|swipe|wait|play|pause|stop|save|share|copy|book|buy|order|pay|post|install|uninstall|clear|mute|select|choose|type|enter|fill|answer|accept|decline|block|close|exit|lock|unlock|restart|connect|disconnect|pair)\b|打开|关闭|开启|发|给|告诉|创建|设置|新建|查看|读取|添加|点击|回到|返回)`)
	pronounRe  = regexp.MustCompile(`(?i)\b(?:it|that|this|the result|the time|the number|the version|them)\b`)
)

// SplitGoal splits a goal into todos with the documented rules (see
// doc.go): strong separators always split, " and " / ", " split only when
// what follows starts a new clause or names another object for the same
// verb, verbs and app context carry forward, and a clause that refers back
// to what a reading clause found gets the {result} placeholder.
func SplitGoal(goal string) []string {
	// A message's words keep their marks and are never split
	// (reader_message.go).
	goal = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(protectMessages(goal)), ".。!！"))
	if goal == "" {
		return nil
	}
	// "at 21:00, open Settings", "in 20 minutes …", "20分钟后…": a wait
	// todo first, which the goal runs as a timer (docs/design.md §7).
	if w, rest, ok := waits.Lead(goal); ok {
		return append([]string{w.TodoText()}, SplitGoal(rest)...)
	}
	// "When Alice Chen sends a message, reply 'got it'": a wait for the
	// phone first, which the goal runs as checks (docs/design.md §7).
	if w, rest, ok := waits.PhoneLead(goal); ok {
		return append([]string{w.TodoText()}, SplitGoal(rest)...)
	}
	var parts []string
	for _, p := range splitOutsideQuotes(goal, strongSeps) {
		subs := splitOutsideQuotes(p, weakSeps)
		// Rejoin weak pieces that do not start a clause of their own.
		cur := subs[0]
		for _, sub := range subs[1:] {
			if startsClause(sub, cur) {
				parts = append(parts, cur)
				cur = sub
			} else {
				cur = cur + joinerBefore(p, sub) + sub
			}
		}
		parts = append(parts, cur)
	}
	var out []string
	var prev string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		p = carry(p, prev)
		out = append(out, reveal(capitalise(p)))
		prev = p
	}
	return out
}

// joinerBefore recovers the separator that stood before sub in p.
func joinerBefore(p, sub string) string {
	i := strings.Index(p, sub)
	if i <= 0 {
		return " and "
	}
	for _, sep := range weakSeps {
		if strings.HasSuffix(p[:i], sep) {
			return sep
		}
	}
	return " and "
}

// startsClause reports whether a weak piece begins a new todo: it starts
// with a verb, or it names another switch or app for the previous verb
// ("Turn on Wi-Fi and Bluetooth").
func startsClause(sub, prev string) bool {
	if verbRe.MatchString(strings.TrimSpace(sub)) {
		return true
	}
	in := parseIntent(prev)
	lower := strings.ToLower(strings.TrimSpace(sub))
	switch in.Kind {
	case kindToggle:
		return settingOf(lower) != "" && len(strings.Fields(lower)) <= 3
	case kindOpen:
		_, ok := apps[lower]
		return ok
	}
	return false
}

// carry completes a clause from the previous one: a missing verb is taken
// over ("Bluetooth" after "Turn on Wi-Fi"), a pronoun after a reading
// clause becomes {result}, and a general clause inherits the app.
func carry(clause, prev string) string {
	if prev == "" {
		return clause
	}
	pin := parseIntent(prev)
	if !verbRe.MatchString(clause) {
		switch pin.Kind {
		case kindToggle:
			state := "on"
			if !pin.On {
				state = "off"
			}
			clause = "Turn " + state + " " + clause
		case kindOpen:
			clause = "Open " + clause
		default:
			if v := verbRe.FindString(prev); v != "" {
				clause = v + " " + clause
			}
		}
	}
	in := parseIntent(clause)
	if pin.Kind == kindRead && in.Kind == kindMessage && in.To != "" &&
		(in.Text == "" || pronounRe.MatchString(in.Text) && len(strings.Fields(in.Text)) <= 3) {
		// Plain words, not a {result} placeholder: the plan is shown to
		// people before the replan fills in the value.
		return fmt.Sprintf("Send %s a message with what was read", in.To)
	}
	if in.Kind == kindGeneral && in.App == "" {
		app := pin.App
		if pin.Kind == kindOpen || appIn(prev) != "" {
			if app == "" {
				app = appIn(prev)
			}
			if app != "" && app != "Launcher" {
				clause += " in " + app
			}
		}
	}
	return clause
}

// splitOutsideQuotes splits s at any of seps that stand outside quotes
// (the quote marks findQuoted reads, apostrophes excepted).
func splitOutsideQuotes(s string, seps []string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		if q, ok := findQuoted(s[i:]); ok && q.start == 0 {
			i += q.end
			continue
		}
		matched := false
		for _, sep := range seps {
			if len(s)-i >= len(sep) && strings.EqualFold(s[i:i+len(sep)], sep) {
				if piece := strings.TrimSpace(s[start:i]); piece != "" {
					out = append(out, piece)
				}
				i += len(sep)
				start = i
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if piece := strings.TrimSpace(s[start:]); piece != "" {
		out = append(out, piece)
	}
	if len(out) == 0 {
		out = []string{strings.TrimSpace(s)}
	}
	return out
}

func capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Patterns used by the functions above.
var (
	answerSaysRe = regexp.MustCompile(`(?i)\s(?:saying|that says)\s`)
)
