package modelserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/planner"
)

func TestSplitGoal(t *testing.T) {
	for _, c := range []struct {
		goal string
		want []string
	}{
		{"Turn on Wi-Fi and Bluetooth", []string{"Turn on Wi-Fi", "Turn on Bluetooth"}},
		{"In 20 minutes, turn on Wi-Fi and Bluetooth", []string{"Wait 20 minutes", "Turn on Wi-Fi", "Turn on Bluetooth"}},
		{"At 21:00 open Settings", []string{"Wait until 21:00", "Open Settings"}},
		{"晚上9点打开设置", []string{"Wait until 21:00", "打开设置"}},
		{"Turn on Wi-Fi and then Bluetooth", []string{"Turn on Wi-Fi", "Turn on Bluetooth"}},
		{"turn off wifi, then turn on airplane mode.", []string{"Turn off wifi", "Turn on airplane mode"}},
		{"Open Settings and turn on Wi-Fi", []string{"Open Settings", "Turn on Wi-Fi"}},
		{"Send Alice a message saying salt and pepper", []string{"Send Alice a message saying salt and pepper"}},
		{`Send Bob a message: "meet at 5; bring cake" and then open Clock`, []string{`Send Bob a message: "meet at 5; bring cake"`, "Open Clock"}},
		{"Read the time of the first alarm in Clock and then send it to Alice",
			[]string{"Read the time of the first alarm in Clock", "Send Alice a message with what was read"}},
		{"打开设置然后打开蓝牙", []string{"打开设置", "打开蓝牙"}},
		{"Create an alarm at 07:30 labelled Gym; Read the Android version", []string{"Create an alarm at 07:30 labelled Gym", "Read the Android version"}},
		{"Open Notes and scroll down", []string{"Open Notes", "Scroll down in Notes"}},
		{"  ", nil},
	} {
		if got := SplitGoal(c.goal); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitGoal(%q) = %q, want %q", c.goal, got, c.want)
		}
	}
}

func TestPlan(t *testing.T) {
	for _, c := range []struct {
		name string
		pc   planContext
		want wantAnswer
	}{
		{"split", planContext{Goal: "Turn on Wi-Fi and then Bluetooth"},
			wantAnswer{Status: "planned", Plan: []string{"Turn on Wi-Fi", "Turn on Bluetooth"}, TaskType: "settings"}},
		{"no recipient", planContext{Goal: "Send a message"},
			wantAnswer{Status: "ask_user", Question: "Who should I send the message to, and what should it say?"}},
		{"answer applied", planContext{Goal: "Send a message", Answers: []answerPair{{Question: "Who…?", Answer: "to Alice: hello"}}},
			wantAnswer{Status: "planned", Plan: []string{"Send Alice a message: hello"}, TaskType: "messaging"}},
		{"answer without to", planContext{Goal: "Send a message", Answers: []answerPair{{Answer: "Bob, see you soon"}}},
			wantAnswer{Status: "planned", Plan: []string{"Send Bob a message: see you soon"}, TaskType: "messaging"}},
		{"text missing", planContext{Goal: "Send Alice a message"},
			wantAnswer{Status: "ask_user", Question: "What should the message to Alice say?"}},
		{"alarm no time", planContext{Goal: "Set an alarm labelled Gym"},
			wantAnswer{Status: "ask_user", Question: "What time should the alarm ring?"}},
		{"alarm answer", planContext{Goal: "Set an alarm labelled Gym", Answers: []answerPair{{Answer: "7:30 am"}}},
			wantAnswer{Status: "planned", Plan: []string{"Create an alarm at 07:30 labelled Gym"}, TaskType: "alarm"}},
		{"user message", planContext{Goal: "Open Clock", UserMessages: []string{"also read the Android version"}},
			wantAnswer{Status: "planned", Plan: []string{"Open Clock", "Read the Android version in Settings"}, TaskType: "alarm"}},
		{"reading", planContext{Goal: "Read the time of the first alarm in Clock and then send it to Alice"},
			wantAnswer{Status: "planned", Plan: []string{"Read the time of the first alarm in Clock", "Send Alice a message with what was read"}, TaskType: "reading"}},
		{"empty", planContext{Goal: ""}, wantAnswer{Status: "ask_user", Question: "What would you like me to do on the phone?"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := asWant(planGoal(c.pc)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("planGoal = %+v\nwant   %+v", got, c.want)
			}
		})
	}
}

func TestReplan(t *testing.T) {
	goal := "Read the time of the first alarm in Clock and then send it to Alice"
	for _, c := range []struct {
		name string
		pc   planContext
		want wantAnswer
	}{
		{"placeholder", planContext{Goal: goal,
			Done:      []doneTodo{{Todo: "Read the time of the first alarm in Clock", Status: "done", Result: "07:00", Steps: 2}},
			Remaining: []string{"Send Alice a message with {result}"}},
			wantAnswer{Status: "replanned", Plan: []string{"Send Alice a message: 07:00"}}},
		{"placeholder takes what was read", planContext{Goal: goal,
			Done: []doneTodo{{Todo: "Read the time of the first alarm in Clock", Status: "done", Result: "07:00"},
				{Todo: "Turn on Bluetooth", Status: "done", Result: "Bluetooth is on"}},
			Remaining: []string{"Send Alice a message with {result}"}},
			wantAnswer{Status: "replanned", Plan: []string{"Send Alice a message: 07:00"}}},
		{"done", planContext{Goal: goal,
			Done: []doneTodo{{Todo: "Read the time of the first alarm in Clock", Status: "done", Result: "07:00"},
				{Todo: "Send Alice a message: 07:00", Status: "done", Result: `Sent "07:00" to Alice`}}},
			wantAnswer{Status: "done", Response: `Done: Read the time of the first alarm in Clock → 07:00; Send Alice a message: 07:00 → Sent "07:00" to Alice.`}},
		{"retry once", planContext{Goal: "x",
			Done:      []doneTodo{{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck"}},
			Remaining: []string{"Turn on Bluetooth"}},
			wantAnswer{Status: "replanned", Plan: []string{"Turn on Wi-Fi", "Turn on Bluetooth"}}},
		{"then skip", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck"},
				{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck again"},
				{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck once more"}},
			Remaining: []string{"Turn on Bluetooth"}},
			wantAnswer{Status: "replanned", Plan: []string{"Turn on Bluetooth"}}},
		{"repeated not retried", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck"},
				{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck", Repeated: "failed 2 times in a row with the same evidence (stuck)"}},
			Remaining: []string{"Turn on Bluetooth"}},
			wantAnswer{Status: "replanned", Plan: []string{"Turn on Bluetooth"}}},
		{"skip reported", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck"},
				{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck again"},
				{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck once more", Evidence: "the Wi-Fi switch is off"}}},
			wantAnswer{Status: "done", Response: "Not done: Turn on Wi-Fi failed (stuck)."}},
		{"impossible not retried", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Open WeChat", Status: "failed", Result: "not done", Evidence: "there is no WeChat app on this phone"}}},
			wantAnswer{Status: "done", Response: "Not done: Open WeChat failed (there is no WeChat app on this phone)."}},
		{"retry second", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck"},
				{Todo: "Turn on Wi-Fi", Status: "failed", Result: "stuck again"}}},
			wantAnswer{Status: "replanned", Plan: []string{"Turn on Wi-Fi"}}},
		{"user message", planContext{Goal: "x",
			Done:         []doneTodo{{Todo: "Turn on Wi-Fi", Status: "done"}},
			Remaining:    []string{"Turn on Bluetooth"},
			UserMessages: []string{"Turn on Wi-Fi", "open Clock"}},
			wantAnswer{Status: "replanned", Plan: []string{"Turn on Bluetooth", "Open Clock"}}},
		{"as is", planContext{Goal: "x",
			Done:      []doneTodo{{Todo: "Turn on Wi-Fi", Status: "done", Result: "Wi-Fi is on"}},
			Remaining: []string{"Turn on Bluetooth"}},
			wantAnswer{Status: "replanned", Plan: []string{"Turn on Bluetooth"}}},
		{"ask in replan", planContext{Goal: "x",
			Done:      []doneTodo{{Todo: "Open Clock", Status: "done"}},
			Remaining: []string{"Send a message"}},
			wantAnswer{Status: "ask_user", Question: "Who should I send the message to, and what should it say?"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := asWant(replanGoal(c.pc)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("replanGoal = %+v\nwant     %+v", got, c.want)
			}
		})
	}
}

func TestParseIntent(t *testing.T) {
	for _, c := range []struct {
		task string
		want intent
	}{
		{"Turn on Wi-Fi", intent{Kind: kindToggle, App: "Settings", Setting: "Wi-Fi", On: true, Target: -1}},
		{"Turn Bluetooth off", intent{Kind: kindToggle, App: "Settings", Setting: "Bluetooth", Target: -1}},
		{"关闭蓝牙", intent{Kind: kindToggle, App: "Settings", Setting: "Bluetooth", Target: -1}},
		{"Enable airplane mode", intent{Kind: kindToggle, App: "Settings", Setting: "Airplane mode", On: true, Target: -1}},
		{"Open Clock", intent{Kind: kindOpen, App: "Clock", Target: -1}},
		{"打开设置", intent{Kind: kindOpen, App: "Settings", Target: -1}},
		{"Open WeChat", intent{Kind: kindOpen, App: "WeChat", Target: -1}},
		{"Send Alice a message saying hi", intent{Kind: kindMessage, App: "Messages", To: "Alice", Text: "hi", Target: -1}},
		{"Send a message to Bob Li: see you at 5", intent{Kind: kindMessage, App: "Messages", To: "Bob Li", Text: "see you at 5", Target: -1}},
		{`Text Mom "I'm late"`, intent{Kind: kindMessage, App: "Messages", To: "Mom", Text: "I'm late", Target: -1}},
		{"Tell Zhang San the meeting moved to 2pm", intent{Kind: kindMessage, App: "Messages", To: "Zhang San", Text: "the meeting moved to 2pm", Target: -1}},
		{"给张三发消息说明天见", intent{Kind: kindMessage, App: "Messages", To: "张三", Text: "明天见", Target: -1}},
		{"Send a message", intent{Kind: kindMessage, App: "Messages", Target: -1}},
		{"Create an alarm at 07:30 labelled Gym", intent{Kind: kindAlarm, App: "Clock", Time: "07:30", Label: "Gym", Target: -1}},
		{"Set an alarm for 6:05 pm called Tea", intent{Kind: kindAlarm, App: "Clock", Time: "18:05", Label: "Tea", Target: -1}},
		{"Set an alarm for 7", intent{Kind: kindAlarm, App: "Clock", Time: "07:00", Target: -1}},
		{"Create a note titled Shopping with milk, eggs", intent{Kind: kindNote, App: "Notes", Title: "Shopping", Body: "milk, eggs", Target: -1}},
		{"Write a note: buy milk", intent{Kind: kindNote, App: "Notes", Title: "buy milk", Body: "buy milk", Target: -1}},
		{"Add eggs to the note Shopping", intent{Kind: kindNote, App: "Notes", Title: "Shopping", Body: "eggs", Edit: true, Append: true, Target: -1}},
		{"Edit the note Shopping to say bread", intent{Kind: kindNote, App: "Notes", Title: "Shopping", Body: "bread", Edit: true, Target: -1}},
		{"Read the Android version", intent{Kind: kindRead, App: "Settings", What: "Android version", Target: -1}},
		{"Read the time of the first alarm in Clock", intent{Kind: kindRead, App: "Clock", What: "alarm time", Ord: 1, Target: -1}},
		{"Read Alice's phone number", intent{Kind: kindRead, App: "Contacts", What: "phone", Contact: "Alice", Target: -1}},
		{"Set brightness to 78%", intent{Kind: kindBrightness, App: "Settings", Target: 78}},
		{"Decrease the brightness", intent{Kind: kindBrightness, App: "Settings", Step: -1, Target: -1}},
		{"Sign in to the bank", intent{Kind: kindBank, App: "Bank", Target: -1}},
		{"Tap the Save button", intent{Kind: kindTap, TapTarget: "Save", Target: -1}},
	} {
		if got := parseIntent(c.task); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseIntent(%q) =\n %+v\nwant\n %+v", c.task, got, c.want)
		}
	}
}

func TestPlanLimits(t *testing.T) {
	long := planGoal(planContext{Goal: strings.Repeat("Open Clock and then ", 25) + "Open Notes"})
	if a := withinLimits(long); a.Status != "ask_user" || !strings.Contains(a.Question, "26 steps") {
		t.Fatalf("26 todos: %+v", a)
	}
	wordy := planGoal(planContext{Goal: "Send Bob a message saying " + strings.Repeat("very ", 120) + "long"})
	if a := withinLimits(wordy); a.Status != "ask_user" || !strings.Contains(a.Question, "500") {
		t.Fatalf("long todo: %+v", a)
	}
}

// FuzzPlannerAnswers checks that whatever the context, the planner persona
// answers within the contract the project's validator enforces.
func FuzzPlannerAnswers(f *testing.F) {
	f.Add("Turn on Wi-Fi and then Bluetooth", "to Alice: hi", "open Clock", "Read the Android version", "done", "14", "Send Alice a message with {result}", true)
	f.Add("Send a message", "", "", "", "failed", "", "", false)
	f.Add("", "7am", "", "Set an alarm", "failed", "stuck", "Set an alarm", true)
	f.Fuzz(func(t *testing.T, goal, answer, userMsg, todo, status, result, remaining string, replan bool) {
		pc := planContext{Goal: goal, replan: replan}
		if answer != "" {
			pc.Answers = []answerPair{{Question: "?", Answer: answer}}
		}
		if userMsg != "" {
			pc.UserMessages = []string{userMsg}
		}
		if replan {
			if todo != "" {
				pc.Done = []doneTodo{{Todo: todo, Status: status, Result: result}}
			}
			if remaining != "" {
				pc.Remaining = []string{remaining}
			}
		}
		ctx, _ := json.Marshal(map[string]any{"goal": pc.Goal, "answers": pc.Answers, "user_messages": pc.UserMessages,
			"done": pc.Done, "remaining": pc.Remaining})
		if !replan {
			ctx, _ = json.Marshal(map[string]any{"goal": pc.Goal, "answers": pc.Answers, "user_messages": pc.UserMessages})
		}
		text := (&Server{}).planAnswer([]message{{Role: "user", Text: "```json\n" + string(ctx) + "\n```"}}, faults{}, "")
		var err error
		if replan {
			_, err = planner.ParseReplan(text)
		} else {
			_, err = planner.ParsePlan(text)
		}
		if err != nil {
			t.Fatalf("answer breaks the contract: %v\n%s", err, text)
		}
	})
}

// A goal with a failed todo does not read as done at a glance.
func TestSummaryPutsWhatFailedFirst(t *testing.T) {
	got := summarise([]doneTodo{{Todo: "Turn on Wi-Fi", Status: "done"}, {Todo: "Open WeChat", Status: "failed", Result: "no such app"}})
	if !strings.HasPrefix(got, "Not done: Open WeChat failed (no such app).") || !strings.HasSuffix(got, "Done: Turn on Wi-Fi.") {
		t.Fatalf("summary = %q", got)
	}
}

// wantAnswer is a planner answer with the todos' texts only; their
// postconditions are tested in reader_test.go.
type wantAnswer struct {
	Status   string
	Plan     []string
	TaskType string
	Question string
	Response string
}

func asWant(a planAnswer) wantAnswer {
	w := wantAnswer{Status: a.Status, TaskType: a.TaskType, Question: a.Question, Response: a.Response}
	if len(a.Plan) > 0 {
		w.Plan = texts(a.Plan)
	}
	return w
}
